import * as v from 'valibot';
import { getDb } from '../db/client.js';
import { inTransaction } from '../db/transaction.js';
import { ApiError } from '../http/api-error.js';
import type { RequestContext } from '../http/endpoint.js';
import type { FormSpec } from '../http/multipart.js';
import type { ContentReply } from '../http/reply.js';
import { answers } from '../http/success-answer.js';
import { log } from '../log.js';
import { enforceRateLimit } from '../rate-limit/enforce-rate-limit.js';
import { checkAdminAccount } from './admin-account.js';
import { upsertAdmin } from './bootstrap-admin.js';
import { setupLinkIsLive, takeSetupLink } from './setup-links.js';
import { administratorCreatedPage, setupFormPage } from './setup-page.js';

/** Any token is looked at by the handler: a missing or malformed one is a 404 like any other, never a 400. */
export const SetupQuery = v.object({ token: v.optional(v.unknown()) });

/** The form's fields, held to the administrator rules by the handler, which answers their problems on the page. */
export const SetupFields = v.object({ email: v.optional(v.unknown()), name: v.optional(v.unknown()), password: v.optional(v.unknown()) });

/** The form carries no files. */
export const SETUP_FORM: FormSpec<never> = {
  fileFields: [],
  maxFiles: 0,
  maxFileBytes: 0,
  processFile: () => Promise.reject(ApiError.badRequest('The form takes no files')),
};

type SetupInput = { query: v.InferOutput<typeof SetupQuery>; body: v.InferOutput<typeof SetupFields> };

/** Every request to the page, per client address, as many as any other anonymous write may make. */
const SETUP_REQUESTS_PER_ADDRESS = { limit: 20, windowSeconds: 15 * 60 };

/**
 * Counts a request to the page against its address's budget before anything else runs, so nobody
 * can try tokens faster than that (they are 32 random bytes: guessing one is hopeless anyway).
 */
function countSetupRequest(_input: unknown, ctx: RequestContext): Promise<void> {
  return enforceRateLimit({ key: `setup-page:${ctx.clientIp}`, ...SETUP_REQUESTS_PER_ADDRESS });
}

/**
 * What both methods of the page declare alike: anyone may ask, it answers HTML, and every request
 * is counted before anything else runs.
 */
export const SETUP_PAGE = {
  access: 'public',
  answer: answers.html,
  rateLimit: { beforeHandler: countSetupRequest },
} as const;

/** A spent, expired or unknown link, or any once an administrator exists: the 404 of a path that is not there. */
const noSuchPage = () => ApiError.notFound('Route not found');

/** `GET /setup?token=…`: the form, while the link is live. */
export async function showSetupPage({ query }: Pick<SetupInput, 'query'>): Promise<ContentReply> {
  if (!(await setupLinkIsLive(await getDb(), query.token))) throw noSuchPage();
  return setupFormPage();
}

const textOf = (value: unknown) => (typeof value === 'string' ? value : undefined);

/**
 * `POST /setup?token=…`: makes the first SUPER_ADMIN with the rules and messages of `create-admin`
 * (an existing account with the address becomes it, as there), and spends the link in the same
 * transaction. Broken rules answer the form again, filled in, with the link still live.
 */
export async function createFirstAdministrator({ query, body }: SetupInput): Promise<ContentReply> {
  const db = await getDb();
  if (!(await setupLinkIsLive(db, query.token))) throw noSuchPage();
  const checked = checkAdminAccount(body);
  if (checked.problems) return setupFormPage({ email: textOf(body.email), name: textOf(body.name), problems: checked.problems }, 400);
  const { account } = checked;
  const made = await inTransaction(db, async (tx) => ((await takeSetupLink(tx, String(query.token))) ? upsertAdmin(tx, account) : undefined));
  if (!made) throw noSuchPage();
  log.info('created the first administrator through the setup link', { email: account.email, id: made.id });
  return administratorCreatedPage(account.email);
}
