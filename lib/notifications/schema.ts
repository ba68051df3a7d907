import * as v from 'valibot';
import { pageQuery, QueryBoolean } from '../http/common-schemas.js';

export const NotificationListQuery = v.object({
  ...pageQuery(20, 100),
  unreadOnly: v.optional(QueryBoolean, 'false'),
});

export type NotificationListOptions = v.InferOutput<typeof NotificationListQuery>;
