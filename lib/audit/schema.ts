import * as v from 'valibot';
import { pageQuery, Uuid } from '../http/common-schemas.js';
import { AUDIT_ENTITIES } from './record.js';

/** A moment in the query string: an ISO 8601 date or date and time (with an offset, or UTC). */
const QueryMoment = v.pipe(
  v.string('must be a single value'),
  v.trim(),
  v.regex(/^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,6})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/, 'must be an ISO 8601 date or date and time'),
  v.transform((text) => new Date(/[T ]\d{2}:\d{2}/.test(text) && !/(?:Z|[+-]\d{2}:?\d{2})$/.test(text) ? `${text}Z` : text)),
  v.check((moment) => !Number.isNaN(moment.getTime()), 'must be a real date'),
);

/** `GET /api/admin/audit`: filters, each optional, and the paging of every admin list. */
export const AuditQuery = v.pipe(
  v.object({
    ...pageQuery(20, 100),
    entity: v.optional(v.picklist(AUDIT_ENTITIES, `must be one of ${AUDIT_ENTITIES.join(', ')}`)),
    entityId: v.optional(v.pipe(v.string('must be a single value'), v.trim(), v.minLength(1, 'must not be empty'), v.maxLength(100, 'must be at most 100 characters'))),
    actorId: v.optional(Uuid),
    action: v.optional(v.pipe(v.string('must be a single value'), v.trim(), v.regex(/^[a-z][a-z-]{0,39}$/, 'must be an action such as create, update, delete or sell'))),
    from: v.optional(QueryMoment),
    to: v.optional(QueryMoment),
  }),
  v.forward(
    v.check((query) => !query.from || !query.to || query.from.getTime() <= query.to.getTime(), 'must not be before from'),
    ['to'],
  ),
);
export type AuditFilter = v.InferOutput<typeof AuditQuery>;
