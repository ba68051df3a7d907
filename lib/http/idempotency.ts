import crypto from 'node:crypto';
import { and, eq, lt } from 'drizzle-orm/sql/expressions/conditions';
import { sql } from 'drizzle-orm/sql/sql';
import { getDb } from '../db/client.js';
import { idempotencyKeys } from '../db/schema.js';
import { keyedDigest } from '../server-secret.js';
import { ApiError } from './api-error.js';
import type { Reply } from './reply.js';

/** How long a key holds its first answer: a retry within 24 hours gets it again. */
const KEY_LIFETIME_HOURS = 24;
/** A first request still unanswered after this long died with its invocation (functions live at most 30 s). */
const ABANDONED_AFTER_SECONDS = 60;

const KEY_FORMAT = /^[\x21-\x7e]{1,255}$/;

interface IdempotentRequest {
  key: string;
  scope: string;
  route: string;
  fingerprint: string;
}

/** The header's key, or undefined without one; a malformed key is a 400. */
function idempotencyKeyOf(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  if (typeof header !== 'string' || !KEY_FORMAT.test(header)) {
    throw ApiError.badRequest('Invalid Idempotency-Key: 1 to 255 printable characters', [{ field: 'Idempotency-Key', message: 'must be 1 to 255 printable characters' }]);
  }
  return header;
}

/**
 * A keyed digest (HMAC) of what the request asks for, so a copy of the database cannot test guesses
 * at what a request held; file contents count by their own digest. Body fields that hold the
 * caller's own secret are left out, so the fingerprint holds nothing of them at all; whoever
 * replays the answer checks them instead (SecretBearingAnswer).
 */
function fingerprintOf({ query, body, files }: RequestAsks, unfingerprinted: readonly string[]): string {
  const kept = body !== null && typeof body === 'object' ? Object.fromEntries(Object.entries(body).filter(([field]) => !unfingerprinted.includes(field))) : body;
  const text = JSON.stringify({ query, body: kept, files }, (_key, value: unknown) =>
    Buffer.isBuffer(value) || value instanceof Uint8Array ? `sha256:${crypto.createHash('sha256').update(value).digest('hex')}` : value,
  );
  return keyedDigest('idempotency fingerprints', text);
}

/**
 * Takes the key for this request, or answers what an earlier request with it decided: its stored
 * answer (same request), 422 (another request), 409 (still running). A key past its lifetime, or
 * whose first request died unanswered, is taken anew.
 */
async function claimIdempotencyKey(request: IdempotentRequest): Promise<Reply | undefined> {
  const db = await getDb();
  const reusable = sql`${idempotencyKeys.createdAt} < now() - make_interval(hours => ${KEY_LIFETIME_HOURS})
    or (${idempotencyKeys.status} is null and ${idempotencyKeys.createdAt} < now() - make_interval(secs => ${ABANDONED_AFTER_SECONDS}))`;
  const [claimed] = await db
    .insert(idempotencyKeys)
    .values(request)
    .onConflictDoUpdate({
      target: [idempotencyKeys.scope, idempotencyKeys.route, idempotencyKeys.key],
      set: { fingerprint: request.fingerprint, status: null, body: null, createdAt: sql`now()` },
      setWhere: reusable,
    })
    .returning({ key: idempotencyKeys.key });
  if (claimed) return undefined;
  const [earlier] = await db.select().from(idempotencyKeys).where(whereKey(request)).limit(1);
  if (!earlier) return undefined;
  if (earlier.fingerprint !== request.fingerprint) throw ApiError.of('IDEMPOTENCY_KEY_REUSED', 'Idempotency-Key reused with a different request');
  if (earlier.status === null) throw ApiError.of('IDEMPOTENCY_KEY_IN_PROGRESS', 'A request with this Idempotency-Key is still in progress');
  return { status: earlier.status, body: earlier.body, headers: { 'Idempotent-Replayed': 'true' } };
}

function whereKey(request: IdempotentRequest) {
  return and(eq(idempotencyKeys.scope, request.scope), eq(idempotencyKeys.route, request.route), eq(idempotencyKeys.key, request.key));
}

/**
 * An answer that tells the client to come back later (a rate limit's 429, a server failure or an
 * unavailable dependency): kept under the key, it would turn that retry away again.
 */
const saysTryLater = (status: number) => status === 429 || status >= 500;

/**
 * Keeps the first answer for the key's lifetime; an answer that says "try later" is not kept, so the
 * client's retry runs anew.
 */
async function settleIdempotencyKey(request: IdempotentRequest, reply: Reply): Promise<void> {
  const db = await getDb();
  if (saysTryLater(reply.status) || reply.contentType) {
    await db.delete(idempotencyKeys).where(whereKey(request));
    return;
  }
  await db.update(idempotencyKeys).set({ status: reply.status, body: reply.body }).where(whereKey(request));
}

/** What a request asks, digested into its key's fingerprint. */
export interface RequestAsks {
  query: string;
  body: unknown;
  files: unknown;
}

/**
 * An answer that carries a secret the request did not (a new account's token): what is kept of it
 * under an Idempotency-Key, without the secret, and how a replay of the stored answer is made whole
 * again with a freshly issued one. A request that carries a secret of its own (a password) names
 * those body fields: they are left out of the fingerprint, and the replay checks them itself.
 */
export interface SecretBearingAnswer {
  unfingerprinted: readonly string[];
  keep: (reply: Reply) => Reply;
  replay: (kept: Reply, replayed: { body: unknown; clientNetwork: string }) => Promise<Reply>;
}

/** A creating request that carries an Idempotency-Key, as the idempotency step reads it. */
export interface KeyedRequest {
  header: string | string[];
  /** Whose key it is: the caller, or the address of an anonymous one. */
  scope: string;
  /** `METHOD /path`. */
  route: string;
  asks: RequestAsks;
  /** The caller's network (see clientNetwork), for work a replay does on its behalf. */
  clientNetwork: string;
}

/**
 * The idempotency step: the first request with a key runs `handle` (which answers errors as
 * replies, so they are kept too) and keeps its answer; a retry gets that answer again.
 */
export async function answerOnce(request: KeyedRequest, secretBearing: SecretBearingAnswer | undefined, handle: () => Promise<Reply>): Promise<Reply> {
  const fingerprint = fingerprintOf(request.asks, secretBearing?.unfingerprinted ?? []);
  const key: IdempotentRequest = { key: idempotencyKeyOf(request.header)!, scope: request.scope, route: request.route, fingerprint };
  const earlier = await claimIdempotencyKey(key);
  if (earlier) return secretBearing ? secretBearing.replay(earlier, { body: request.asks.body, clientNetwork: request.clientNetwork }) : earlier;
  const reply = await handle();
  await settleIdempotencyKey(key, secretBearing ? secretBearing.keep(reply) : reply);
  return reply;
}

/** Removes keys past their lifetime (the sweeper does this); answers how many went. */
export async function removeExpiredIdempotencyKeys(): Promise<number> {
  const db = await getDb();
  const removed = await db
    .delete(idempotencyKeys)
    .where(lt(idempotencyKeys.createdAt, sql`now() - make_interval(hours => ${KEY_LIFETIME_HOURS})`))
    .returning({ key: idempotencyKeys.key });
  return removed.length;
}
