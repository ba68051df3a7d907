import * as v from 'valibot';
import { Email, Name, NewPassword } from './schema.js';

/**
 * An administrator's details, with the same rules wherever they are given: `create-admin`'s options
 * and the first-administrator page's form. A message leaves out the field's name, which each says
 * its own way (`--email must be …` on the command line, beside the field on the page).
 */
const AdminAccount = v.object(
  {
    email: Email,
    password: NewPassword,
    name: v.optional(Name, 'Administrator'),
    phone: v.optional(v.pipe(v.string('must be a string'), v.trim()), ''),
  },
  'is required',
);

export type AdminAccountInput = v.InferOutput<typeof AdminAccount>;

/** A broken rule: the field it concerns, and what is wrong with it. */
export interface AccountProblem {
  field: 'email' | 'password' | 'name' | 'phone';
  message: string;
}

export type AccountCheck = { account: AdminAccountInput; problems?: undefined } | { account?: undefined; problems: AccountProblem[] };

/** Checks the details given for an administrator: the account they make, or every rule they break. */
export function checkAdminAccount(values: Record<string, unknown>): AccountCheck {
  const result = v.safeParse(AdminAccount, values);
  if (result.success) return { account: result.output };
  return {
    problems: result.issues.map((issue) => ({ field: String(issue.path?.[0]?.key ?? 'email') as AccountProblem['field'], message: issue.message })),
  };
}
