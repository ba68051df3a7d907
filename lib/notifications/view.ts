import * as v from 'valibot';
import { JsonObject, RecordId, Timestamp } from '../http/common-views.js';

export const NotificationView = v.pipe(
  v.object({
    id: RecordId,
    title: v.pipe(v.string(), v.examples(['Listing sold'])),
    body: v.nullable(v.pipe(v.string(), v.examples(['"iPhone 15 Pro 256GB" was marked sold.']))),
    type: v.pipe(v.string(), v.examples(['LISTING_SOLD'])),
    data: v.nullable(JsonObject),
    isRead: v.boolean(),
    createdAt: Timestamp,
  }),
  v.title('Notification'),
);

export type NotificationView = v.InferOutput<typeof NotificationView>;

/** The notifications list's paging: the spec's three fields. */
export const NotificationPaging = {
  unreadCount: v.pipe(v.number(), v.integer()),
  pagination: v.object({ page: v.pipe(v.number(), v.integer()), limit: v.pipe(v.number(), v.integer()), total: v.pipe(v.number(), v.integer()) }),
};

export const MarkedReadView = v.object({ updated: v.pipe(v.number(), v.integer()) });

export type MarkedReadView = v.InferOutput<typeof MarkedReadView>;
