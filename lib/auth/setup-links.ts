import crypto from 'node:crypto';
import { sql } from 'drizzle-orm/sql/sql';
import type { Database, Executor } from '../db/client.js';
import { setupLinks, users } from '../db/schema.js';
import { keyedDigest } from '../server-secret.js';

/** A link works for an hour from the start that printed it, and once. */
const LIFETIME_SECONDS = 60 * 60;
const TOKEN_BYTES = 32;
/** 32 random bytes in base64url: anything else is no token of ours, and needs no lookup. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/**
 * Keyed under its own label, so a link's hash is worth nothing to anyone who reads the table
 * without the secret, and no other token of the service hashes alike.
 */
function tokenHash(token: string): string {
  return keyedDigest('first administrator setup links', token);
}

/**
 * Makes a new one-time link token and keeps only its keyed hash; links whose hour has passed go.
 * Kept in the database, so the link works on whichever instance serves it.
 */
export async function issueSetupLink(db: Database): Promise<string> {
  const token = crypto.randomBytes(TOKEN_BYTES).toString('base64url');
  await db.delete(setupLinks).where(sql`${setupLinks.expiresAt} <= now()`);
  await db.insert(setupLinks).values({ tokenHash: tokenHash(token), expiresAt: sql`now() + make_interval(secs => ${LIFETIME_SECONDS})` });
  return token;
}

const noAdministrator = sql`not exists (select 1 from ${users} where ${users.role} = 'SUPER_ADMIN')`;

/** Whether `token` opens the first-administrator page: a link issued within the hour, unused, while no administrator exists. */
export async function setupLinkIsLive(db: Database, token: unknown): Promise<boolean> {
  if (typeof token !== 'string' || !TOKEN_SHAPE.test(token)) return false;
  const { rows } = (await db.execute(sql`
    select exists (
      select 1 from ${setupLinks} where ${setupLinks.tokenHash} = ${tokenHash(token)} and ${setupLinks.expiresAt} > now()
    ) and ${noAdministrator} as live`)) as unknown as { rows: Array<{ live: boolean }> };
  return rows[0]?.live === true;
}

/**
 * Uses the link inside the transaction that makes the administrator: every link is taken at once,
 * and links another request holds are passed over, so a second request, with this token or
 * another, finds none at once instead of waiting. True when `token` was live and no administrator
 * exists yet; the caller's rollback gives the links back.
 */
export async function takeSetupLink(tx: Executor, token: string): Promise<boolean> {
  if (!TOKEN_SHAPE.test(token)) return false;
  const unclaimed = sql`select ${setupLinks.tokenHash} from ${setupLinks} for update skip locked`;
  const taken = await tx
    .delete(setupLinks)
    .where(sql`${setupLinks.tokenHash} in (${unclaimed})`)
    .returning({ tokenHash: setupLinks.tokenHash, live: sql<boolean>`${setupLinks.expiresAt} > now()` });
  if (!taken.some((link) => link.live && link.tokenHash === tokenHash(token))) return false;
  const { rows } = (await tx.execute(sql`select ${noAdministrator} as none`)) as unknown as { rows: Array<{ none: boolean }> };
  return rows[0]?.none === true;
}
