/** One changed field of an audited write. */
export interface FieldChange {
  before: unknown;
  after: unknown;
}

export type AuditChanges = Record<string, FieldChange>;

/** What stands in for a secret that changed: the trail says it changed, never what it was or became. */
export const MASKED = '***';

/**
 * Fields whose values are credentials: password hashes, reset codes, bot tokens, image host keys
 * and agent codes (a sign-up token). Whatever a write carries, the trail holds only the mask for them.
 */
const SECRET_FIELDS: ReadonlySet<string> = new Set(['password', 'passwordResetToken', 'botToken', 'apiKey', 'apiSecret', 'code']);

/** A value as the trail keeps it: times as ISO text, so before and after compare and read alike. */
function comparable(value: unknown): unknown {
  if (value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  return value;
}

function masked(value: unknown): unknown {
  return value === null ? null : MASKED;
}

/**
 * The fields among `fields` whose value differs between `before` and `after` (null for a record
 * that did not exist or no longer does), each with both values; secrets are masked.
 */
export function changesBetween<F extends string>(
  before: Partial<Record<F, unknown>> | null,
  after: Partial<Record<F, unknown>> | null,
  fields: readonly F[],
): AuditChanges {
  const changes: AuditChanges = {};
  for (const field of fields) {
    const was = comparable(before?.[field]);
    const is = comparable(after?.[field]);
    if (JSON.stringify(was) === JSON.stringify(is)) continue;
    changes[field] = SECRET_FIELDS.has(field) ? { before: masked(was), after: masked(is) } : { before: was, after: is };
  }
  return changes;
}
