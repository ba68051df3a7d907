/**
 * Checked by `npm run typecheck`, never run: an endpoint's handler may only reply what the endpoint
 * declares it answers. Each `@ts-expect-error` fails the check when the line below it compiles.
 */
import * as v from 'valibot';
import { DeletedView } from '../lib/http/common-views.js';
import { endpoint } from '../lib/http/endpoint.js';
import { acknowledged, message, ok, paginated, pagination, raw } from '../lib/http/reply.js';
import { answers } from '../lib/http/success-answer.js';
import { ListingView } from '../lib/listings/view.js';

const id = '5b0e5b38-5f6b-4f55-9c55-2d0b7c4e2a11';

export const declared = [
  endpoint({ summary: 'Replies its view', access: 'admin', answer: answers.data(DeletedView), handle: async () => ok({ id }) }),
  endpoint({ summary: 'Replies a page', access: 'token', answer: answers.pages(DeletedView), handle: async () => paginated([{ id }], pagination(1, 20, 1)) }),
  endpoint({ summary: 'Replies a message', access: 'public', answer: answers.message, handle: async () => message('Done.') }),
  endpoint({
    summary: 'Replies the members beside data',
    access: 'token',
    answer: answers.data(v.array(DeletedView), { unreadCount: v.number() }),
    handle: async () => ok([{ id }], { unreadCount: 2 }),
  }),
];

export const refused = [
  // @ts-expect-error `data` lacks the view's `id`.
  endpoint({ summary: 'Replies another shape', access: 'admin', answer: answers.data(DeletedView), handle: async () => ok({ deleted: true }) }),
  // @ts-expect-error a category is not a listing.
  endpoint({ summary: 'Replies another view', access: 'token', answer: answers.data(ListingView), handle: async () => ok({ id, name: 'phones' }) }),
  // @ts-expect-error a list pages with `pagination`.
  endpoint({ summary: 'Replies a list unpaged', access: 'token', answer: answers.pages(DeletedView), handle: async () => ok([{ id }]) }),
  // @ts-expect-error a message is not `data`.
  endpoint({ summary: 'Replies data for a message', access: 'public', answer: answers.message, handle: async () => ok({ id }) }),
  // @ts-expect-error a body outside the envelope is not `data`.
  endpoint({ summary: 'Replies outside the envelope', access: 'admin', answer: answers.data(DeletedView), handle: async () => raw({ id }) }),
  // @ts-expect-error an acknowledgement carries no `data`.
  endpoint({ summary: 'Acknowledges instead', access: 'admin', answer: answers.data(DeletedView), handle: async () => acknowledged() }),
  // @ts-expect-error `unreadCount` is declared beside `data`.
  endpoint({ summary: 'Leaves out a member', access: 'token', answer: answers.data(v.array(DeletedView), { unreadCount: v.number() }), handle: async () => ok([{ id }]) }),
  // @ts-expect-error a 429 is declared by `rateLimit` alone.
  endpoint({ summary: 'Declares a 429 by hand', access: 'public', answer: answers.message, errors: ['RATE_LIMITED'], handle: async () => message('Done.') }),
];
