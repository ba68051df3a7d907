import { and, eq } from 'drizzle-orm/sql/expressions/conditions';
import { desc } from 'drizzle-orm/sql/expressions/select';
import { count } from 'drizzle-orm/sql/functions/aggregate';
import { sql } from 'drizzle-orm/sql/sql';
import type { Database, Executor } from '../db/client.js';
import { agentListingTotals, users } from '../db/schema.js';
import { inTransaction } from '../db/transaction.js';
import { offsetOf, type PageQuery } from '../http/common-schemas.js';
import { endDeviceTokens } from './device-tokens.js';
import { agentColumns, profileColumns } from './presenter.js';
import type { ProfileUpdate } from './profile-schema.js';

export const RESET_CODE_LIFETIME_MINUTES = 15;
/** Wrong tries a reset code survives; the last one clears it. */
const MAX_RESET_ATTEMPTS = 5;

const summaryColumns = { id: users.id, email: users.email, name: users.name, role: users.role };

/** The account a sign-in names, with its password hash for the comparison only. */
export async function findCredentials(db: Database, email: string) {
  const [row] = await db
    .select({ ...summaryColumns, password: users.password })
    .from(users)
    .where(eq(users.email, email))
    .limit(1);
  return row;
}

export async function insertAgent(tx: Executor, values: { email: string; passwordHash: string; name: string; phone: string }) {
  const [row] = await tx
    .insert(users)
    .values({ email: values.email, password: values.passwordHash, name: values.name, phone: values.phone, role: 'AGENT' })
    .returning(summaryColumns);
  return row!;
}

export async function findProfile(db: Database, id: string) {
  const [row] = await db.select(profileColumns).from(users).where(eq(users.id, id)).limit(1);
  return row;
}

/**
 * Applies profile changes (and a new profile image reference) in the caller's transaction,
 * answering the profile before and after and the image it replaced, whose file the caller removes
 * once the transaction has committed. The profile is undefined when the account no longer exists.
 */
export async function updateProfile(tx: Executor, id: string, changes: Omit<ProfileUpdate, 'currentPassword'> & { profileImage?: string }) {
  const values = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
  const [before] = await tx.select(profileColumns).from(users).where(eq(users.id, id)).for('update');
  if (!before || Object.keys(values).length === 0) return { before, profile: before, replacedImage: null };
  const [profile] = await tx.update(users).set(values).where(eq(users.id, id)).returning(profileColumns);
  const replacedImage = values.profileImage !== undefined && before.profileImage !== values.profileImage ? before.profileImage : null;
  return { before, profile, replacedImage };
}

/**
 * Stores a fresh reset code's hash for the account with this e-mail, restarting its lifetime and
 * its wrong-try count. Answers the account to write to, or undefined when there is none.
 */
export async function storeResetCode(db: Database, email: string, codeHash: string) {
  const [row] = await db
    .update(users)
    .set({
      passwordResetToken: codeHash,
      passwordResetExpires: sql`now() + make_interval(mins => ${RESET_CODE_LIFETIME_MINUTES})`,
      passwordResetAttempts: 0,
    })
    .where(eq(users.email, email))
    .returning({ email: users.email, name: users.name });
  return row;
}

/**
 * Checks a reset code against the account's live code in one statement: a wrong code counts a try
 * and the last allowed wrong try clears the code, so concurrent guesses cannot exceed the allowance.
 * Answers the account id when the code matched; undefined for a wrong, expired or absent code.
 */
export async function checkResetCode(db: Database, email: string, codeHash: string): Promise<string | undefined> {
  const matches = sql`${users.passwordResetToken} = ${codeHash}`;
  const killsCode = sql`(not ${matches} and ${users.passwordResetAttempts} + 1 >= ${MAX_RESET_ATTEMPTS})`;
  const [row] = await db
    .update(users)
    .set({
      passwordResetAttempts: sql`case when ${matches} then ${users.passwordResetAttempts} else ${users.passwordResetAttempts} + 1 end`,
      passwordResetToken: sql`case when ${killsCode} then null else ${users.passwordResetToken} end`,
      passwordResetExpires: sql`case when ${killsCode} then null else ${users.passwordResetExpires} end`,
    })
    .where(
      and(
        eq(users.email, email),
        sql`${users.passwordResetToken} is not null`,
        sql`${users.passwordResetExpires} > now()`,
        sql`${users.passwordResetAttempts} < ${MAX_RESET_ATTEMPTS}`,
      ),
    )
    .returning({ id: users.id, matched: sql<boolean>`${users.passwordResetToken} is not distinct from ${codeHash}` });
  return row?.matched ? row.id : undefined;
}

/**
 * A password change ends the sessions issued before it. Token times are whole seconds, so the
 * cut-off is this second: a token signed in it stays valid.
 */
export const endEarlierSessions = sql`date_trunc('second', now())`;

/**
 * Sets the new password while the checked code is still the account's, clears the reset fields and
 * ends earlier sessions and every device token, in one transaction.
 */
export async function replacePasswordWithResetCode(db: Database, id: string, codeHash: string, passwordHash: string): Promise<boolean> {
  return inTransaction(db, async (tx) => {
    const rows = await tx
      .update(users)
      .set({ password: passwordHash, passwordResetToken: null, passwordResetExpires: null, passwordResetAttempts: 0, tokensValidAfter: endEarlierSessions })
      .where(and(eq(users.id, id), eq(users.passwordResetToken, codeHash)))
      .returning({ id: users.id });
    if (rows.length === 1) await endDeviceTokens(tx, id);
    return rows.length === 1;
  });
}

/** An agent's listings of every status, summed from the totals the statistics trigger keeps per agent. */
const keptListingCount = sql<number>`(select coalesce(sum(${agentListingTotals.listings}), 0)::int from ${agentListingTotals} where ${agentListingTotals.agentId} = ${users.id})`;

/** AGENT accounts, newest first, each with its number of listings. */
export async function listAgents(db: Database, page: PageQuery) {
  const isAgent = eq(users.role, 'AGENT');
  const [items, [totals]] = await Promise.all([
    db
      .select({ ...agentColumns, listingCount: keptListingCount })
      .from(users)
      .where(isAgent)
      .orderBy(desc(users.createdAt), desc(users.id))
      .limit(page.limit)
      .offset(offsetOf(page)),
    db.select({ total: count() }).from(users).where(isAgent),
  ]);
  return { items, total: totals?.total ?? 0 };
}

/** Deletes an AGENT account (never an administrator); their listings keep existing without an agent. */
export async function deleteAgent(executor: Executor, id: string) {
  const [row] = await executor
    .delete(users)
    .where(and(eq(users.id, id), eq(users.role, 'AGENT')))
    .returning({ id: users.id, email: users.email, name: users.name, phone: users.phone, role: users.role });
  return row;
}
