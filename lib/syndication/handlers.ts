import type { AuthUser } from '../http/access.js';
import { getDb } from '../db/client.js';
import { ApiError, notFoundError } from '../http/api-error.js';
import { ok, type DataReply } from '../http/reply.js';
import type { RequestContext } from '../http/endpoint.js';
import { findListingWithRules } from '../listings/queries.js';
import { plainCaption } from './caption.js';
import { logPresenter } from './presenter.js';
import { ChannelError } from './channel-error.js';
import { activeMessengerTargetOrThrow, MESSENGER, messengerChannelOrThrow } from './configs.js';
import { throttlePosting } from './manual-posting-limits.js';
import { listingButtons, postListing } from './posting.js';
import { clearRetry, findLogWithListing, listingOfMessage, type PostableListing } from './queries.js';
import type { LogView, MessageDeletedView, MessageEditedView, TriggeredView } from './view.js';

/** An agent acts on the channel posts of their own listings only (403 otherwise); administrators on all. */
function assertMayPost(user: AuthUser, listing: { agentId: string | null }): void {
  if (user.role !== 'SUPER_ADMIN' && listing.agentId !== user.id) throw ApiError.forbidden();
}

async function postableListingOrThrow(listingId: string): Promise<PostableListing> {
  const listing = await findListingWithRules(await getDb(), listingId);
  if (!listing) throw notFoundError('Listing', listingId);
  return listing;
}

/** Posts the listing now, always as a new post, and answers with the outcome. */
export async function triggerSyndication({ params }: { params: { listingId: string } }, { user }: RequestContext<'token'>): Promise<DataReply<TriggeredView>> {
  const listing = await postableListingOrThrow(params.listingId);
  assertMayPost(user, listing);
  await throttlePosting(listing.id, user);
  const target = await activeMessengerTargetOrThrow(await getDb());
  const entry = await postListing(listing, 'NEW_POST', target);
  if (entry.status !== 'SUCCESS' || entry.messageId === null) {
    throw new ApiError(502, `Posting to the channel failed: ${entry.errorMessage ?? 'no message id was returned'}`);
  }
  return ok({ listingId: listing.id, messageId: entry.messageId, message: 'Listing posted to the channel' });
}

/** A new attempt at a failed entry, with the same action, logged as a new entry. */
export async function retrySyndication({ params }: { params: { id: string } }, { user }: RequestContext<'token'>): Promise<DataReply<LogView>> {
  const db = await getDb();
  const found = await findLogWithListing(db, params.id);
  if (!found) throw notFoundError('Syndication log', params.id);
  assertMayPost(user, found.listing);
  const { log } = found;
  if (log.status !== 'FAILED') throw ApiError.conflict(`Only a FAILED entry can be retried; this one is ${log.status}`);
  if (log.platform !== MESSENGER || log.action === 'DELETED') throw ApiError.conflict(`A ${log.platform} ${log.action} entry cannot be retried`);
  const target = await activeMessengerTargetOrThrow(db);
  await throttlePosting(log.listingId, user);
  const listing = await postableListingOrThrow(log.listingId);
  await clearRetry(db, log.id);
  const entry = await postListing(listing, log.action, target, log);
  return ok(logPresenter(entry, listing));
}

/** A Bot API failure as a client-facing error: a message the channel does not have is a 404. */
function channelFailure(error: unknown, messageId: number): never {
  if (!(error instanceof ChannelError)) throw error;
  if (error.code === 400 && /message to (?:delete|edit) not found|message_id_invalid/i.test(error.description ?? '')) {
    throw ApiError.notFound(`Message ${messageId} not found in the channel`);
  }
  throw new ApiError(502, error.message);
}

export async function deleteChannelMessage({ params }: { params: { messageId: number } }): Promise<DataReply<MessageDeletedView>> {
  const target = await messengerChannelOrThrow(await getDb());
  const { channelPublisher } = await import('./channel-publisher.js');
  await channelPublisher(target.botToken)
    .deleteMessage(target.channelId, params.messageId)
    .catch((error: unknown) => channelFailure(error, params.messageId));
  return ok({ messageId: params.messageId, deleted: true });
}

/** Sets a channel message's caption; a message posted for a listing keeps that listing's buttons. */
export async function editChannelMessage({ params, body }: { params: { messageId: number }; body: { caption: string } }): Promise<DataReply<MessageEditedView>> {
  const db = await getDb();
  const target = await messengerChannelOrThrow(db);
  const listingId = await listingOfMessage(db, target.channelId, params.messageId);
  const listing = listingId ? await findListingWithRules(db, listingId) : undefined;
  const buttons = listing ? await listingButtons(db, listing.id) : undefined;
  const caption = plainCaption(body.caption);
  const { channelPublisher } = await import('./channel-publisher.js');
  await channelPublisher(target.botToken)
    .editCaption(target.channelId, params.messageId, caption, buttons, listing ? listing.images.length > 0 : true)
    .catch((error: unknown) => channelFailure(error, params.messageId));
  return ok({ messageId: params.messageId, caption: body.caption, edited: true });
}
