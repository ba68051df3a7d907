import { and, eq } from 'drizzle-orm/sql/expressions/conditions';
import { sql, type SQL } from 'drizzle-orm/sql/sql';
import { getDb } from '../db/client.js';
import { rateLimits } from '../db/schema.js';
import { ApiError } from '../http/api-error.js';
import { log } from '../log.js';

export interface RateLimitRule {
  /** Names the counted thing and its scope, e.g. `login:<email>:<ip>`. */
  key: string;
  /** Requests allowed per window. */
  limit: number;
  windowSeconds: number;
  /** A condition the request must meet to be counted (and limited) by this rule at all. */
  onlyWhen?: SQL;
}

const TOO_MANY_REQUESTS = 'Too many requests, try again later';

/** Expired rows removed per sweep: bounded so one sweep never turns into a long-running delete. */
const SWEEP_BATCH = 500;

/**
 * Removes counters whose window has ended. `skip locked` leaves rows that a concurrent request is
 * reopening to that request, so sweeps never wait on (or block) the counters themselves.
 */
async function sweepExpiredCounters(): Promise<void> {
  const db = await getDb();
  await db.execute(sql`
    delete from ${rateLimits}
    where ${rateLimits.key} in (
      select ${rateLimits.key} from ${rateLimits}
      where ${rateLimits.resetAt} < now()
      order by ${rateLimits.resetAt}
      limit ${SWEEP_BATCH}
      for update skip locked
    )`);
}

/** The 429 of every limit: the envelope, and when to come back. */
export function tooManyRequests(retryAfterSeconds: number): ApiError {
  return new ApiError(429, TOO_MANY_REQUESTS, undefined, { 'Retry-After': String(retryAfterSeconds) });
}

/**
 * Counts one request against a rule: an upsert that opens the window, or rolls over an ended one,
 * or adds one, answering the count. With `when`, the row is written only if that condition holds.
 */
function countStatement({ key, windowSeconds }: RateLimitRule, when: SQL | undefined): SQL {
  const windowEnded = sql`${rateLimits.resetAt} <= now()`;
  const opened = sql`select ${key}, 1, now() + make_interval(secs => ${windowSeconds})`;
  return sql`
    insert into ${rateLimits} (${sql.identifier(rateLimits.key.name)}, ${sql.identifier(rateLimits.count.name)}, ${sql.identifier(rateLimits.resetAt.name)})
    ${when ? sql`${opened} where ${when}` : opened}
    on conflict (${sql.identifier(rateLimits.key.name)}) do update set
      ${sql.identifier(rateLimits.count.name)} = case when ${windowEnded} then 1 else ${rateLimits.count} + 1 end,
      ${sql.identifier(rateLimits.resetAt.name)} = case when ${windowEnded} then excluded.${sql.identifier(rateLimits.resetAt.name)} else ${rateLimits.resetAt} end
    returning ${rateLimits.count} as count, greatest(1, ceil(extract(epoch from ${rateLimits.resetAt} - now())))::int as "retryAfterSeconds"`;
}

/** Whether the request passed every rule before `index`: none of their counts is over its limit (a rule that did not count it let it through). */
function passedRulesBefore(rules: RateLimitRule[], index: number): SQL | undefined {
  if (index === 0) return undefined;
  const refusals = rules.slice(0, index).map((rule, earlier) => sql`exists (select 1 from ${sql.identifier(`counted_${earlier}`)} where count > ${rule.limit})`);
  return sql`not (${sql.join(refusals, sql` or `)})`;
}

/**
 * Counts one request against each rule, in order, within fixed windows shared by every instance
 * (the counters live in the database), and throws 429 with `Retry-After` for the first rule whose
 * limit is passed. A rule is counted only while every rule before it let the request through, as
 * if each were checked in turn, and only when its `onlyWhen` holds, but all of them take one
 * statement: one round trip, and each row locked only for that statement. Counting and window
 * rollover are upserts, so concurrent requests can never both take the last slot. Times come from
 * the database clock alone, so instances with drifting clocks agree.
 */
export async function enforceRateLimits(...rules: RateLimitRule[]): Promise<void> {
  const db = await getDb();
  const steps = rules.map((rule, index) => {
    const conditions = [passedRulesBefore(rules, index), rule.onlyWhen].filter((condition) => condition !== undefined);
    const when = conditions.length === 0 ? undefined : sql.join(conditions, sql` and `);
    return sql`${sql.identifier(`counted_${index}`)} as (${countStatement(rule, when)})`;
  });
  const answers = rules.map((_, index) => sql`select ${index}::int as rule, count, "retryAfterSeconds" from ${sql.identifier(`counted_${index}`)}`);
  const { rows } = (await db.execute(sql`with ${sql.join(steps, sql`, `)} ${sql.join(answers, sql` union all `)}`)) as unknown as {
    rows: Array<{ rule: number; count: number; retryAfterSeconds: number }>;
  };
  const counted = rows.sort((first, second) => first.rule - second.rule);
  if (counted.length === 0 && !rules[0]?.onlyWhen) throw new Error(`rate limit upsert returned no row for ${rules[0]?.key}`);
  // A window opening is rare enough per key to be the moment to clear out ended ones: a bounded
  // delete over the resetAt index, done inline so no background work outlives the invocation.
  if (counted.some((counter) => counter.count === 1)) await sweepExpiredCounters().catch((error: unknown) => log.warn('rate limit sweep failed', { error }));
  const refused = counted.find((counter) => counter.count > rules[counter.rule]!.limit);
  if (refused) throw tooManyRequests(refused.retryAfterSeconds);
}

/** Counts one request against one rule (see `enforceRateLimits`). */
export function enforceRateLimit(rule: RateLimitRule): Promise<void> {
  return enforceRateLimits(rule);
}

/**
 * Runs an attempt under a rule that limits failures only (wrong passwords): the attempt is counted
 * before it runs, so concurrent attempts can never overrun the limit, and a success takes its count
 * back again. Answers whether the attempt succeeded.
 */
export async function limitFailures(rule: RateLimitRule, attempt: () => Promise<boolean>): Promise<boolean> {
  await enforceRateLimit(rule);
  const succeeded = await attempt();
  if (succeeded) {
    const db = await getDb();
    await db
      .update(rateLimits)
      .set({ count: sql`greatest(${rateLimits.count} - 1, 0)` })
      .where(and(eq(rateLimits.key, rule.key), sql`${rateLimits.resetAt} > now()`));
  }
  return succeeded;
}
