import { config } from '../config.js';
import { getDb, type Executor } from '../db/client.js';
import { inTransaction } from '../db/transaction.js';
import { log } from '../log.js';
import { notify } from '../notifications/notify.js';
import { findListingWithRules, shareLockListing } from '../listings/queries.js';
import { readSettings } from '../settings/queries.js';
import { assembleCaption, listingCaption } from './caption.js';
import { ChannelError, failureMessage, PartialPostError } from './channel-error.js';
import type { PostContent } from './channel-publisher.js';
import { activeMessengerTarget, MESSENGER, type MessengerTarget } from './configs.js';
import { channelButtons, type LinkButton } from './keyboard.js';
import type { LogRow } from './presenter.js';
import { findPendingLog, finishLog, insertPendingLog, LEFT_THE_SHOP, lastPostedMessage, type PostableListing } from './queries.js';

export type PostAction = 'NEW_POST' | 'EDITED';

/** The buttons under a listing's post, from the store settings and the storefront URL. */
export async function listingButtons(executor: Executor, listingId: string): Promise<LinkButton[]> {
  return channelButtons(listingId, await readSettings(executor), config().storefrontUrl);
}

async function postContent(executor: Executor, listing: PostableListing): Promise<PostContent> {
  return {
    caption: listingCaption(listing),
    buttonsText: assembleCaption([{ separator: '', open: '<b>', text: listing.title, close: '</b>' }]),
    buttons: await listingButtons(executor, listing.id),
    images: listing.images,
  };
}

/** The Bot API's answer to an edit of a message that is no longer in the channel. */
const POST_GONE = /message to edit not found|MESSAGE_ID_INVALID/i;

/** Attempts at one post in all, and the wait before each retry after the first failure. */
const MAX_ATTEMPTS = 5;
const RETRY_DELAYS_SECONDS = [60, 5 * 60, 15 * 60, 60 * 60];

/**
 * When a failed attempt may run again: never for a failure that cannot heal, after the last attempt,
 * or for a send whose outcome is unknown (only a person who sees the channel can tell whether
 * sending it again would post it twice).
 */
function nextRetryAt(error: unknown, attempt: number): Date | null {
  if (!(error instanceof ChannelError) || !error.healable || error.mayHaveSent || attempt >= MAX_ATTEMPTS) return null;
  const seconds = Math.max(RETRY_DELAYS_SECONDS[attempt - 1]!, error.retryAfterSeconds ?? 0);
  return new Date(Date.now() + seconds * 1000);
}

/** The wait the Bot API asked for when flood control refused the attempt (429), kept for posting health. */
function floodControlWait(error: unknown): number | null {
  return error instanceof ChannelError && error.code === 429 ? (error.retryAfterSeconds ?? null) : null;
}

/** A finished attempt: its entry (undefined when it went with its listing), and whether the listing is still in the shop. */
interface FinishedAttempt {
  row: LogRow | undefined;
  inShop: boolean;
}

type AttemptOutcome = Parameters<typeof finishLog>[2];

/**
 * Records an attempt's outcome with its listing share-locked, so that it and a move of the listing
 * to the trash (or its removal) happen one after the other: either the move finds the post recorded
 * and takes it down, or this finds the listing gone and its poster does. A listing out of the shop
 * is never tried again.
 */
async function finishAttempt(tx: Executor, entry: LogRow, outcome: AttemptOutcome): Promise<FinishedAttempt> {
  const state = await shareLockListing(tx, entry.listingId);
  const inShop = state !== undefined && !state.trashed;
  const row = await finishLog(tx, entry.id, inShop ? outcome : { ...outcome, retryAt: null });
  return { row, inShop: inShop && row !== undefined };
}

/**
 * `sentIds`: the messages of a post that went out in part, kept so that a retry completes it. The
 * listing's agent is told, while the listing is in the shop.
 */
async function recordFailure(
  entry: LogRow,
  listing: PostableListing,
  failure: { errorMessage: string; sentIds: number[] | null; retryAt: Date | null; retryAfterSeconds: number | null },
): Promise<FinishedAttempt> {
  const db = await getDb();
  const { errorMessage, sentIds, retryAt, retryAfterSeconds } = failure;
  const outcome = { status: 'FAILED' as const, errorMessage, messageId: sentIds?.[0] ?? null, postMessageIds: sentIds, retryAt, retryAfterSeconds };
  return inTransaction(db, async (tx) => {
    const finished = await finishAttempt(tx, entry, outcome);
    if (!finished.inShop) return finished;
    if (listing.agentId) {
      await notify(tx, [
        {
          userId: listing.agentId,
          type: 'SYNDICATION_FAILED',
          title: `Channel post failed for "${listing.title}"`,
          body: `Posting "${listing.title}" to the channel failed: ${errorMessage}`,
          data: { listingId: listing.id, syndicationLogId: entry.id },
        },
      ]);
    }
    return finished;
  });
}

/**
 * The posting flow for an entry already recorded as `PENDING`: the Bot API calls, then
 * `SUCCESS` with the message id, or `FAILED` with the reason, a notification to the listing's agent
 * and, when the failure can heal, when the sweeper may try again. A new post records its
 * first message as the message id and every message it sent (so all can be deleted); an edit
 * changes the listing's latest post in this channel (or, when that post was removed from the
 * channel, posts the listing anew and records the new post). A post is SUCCESS only when all of it went
 * out: an album whose buttons message failed is FAILED with the album's messages recorded, and
 * `alreadySent` (a retry of such an entry) sends only the buttons. Never throws for a channel
 * failure: the entry says what happened.
 */
async function runPost(entry: LogRow, listing: PostableListing, target: MessengerTarget, alreadySent: number[]): Promise<LogRow> {
  const db = await getDb();
  const { channelPublisher } = await import('./channel-publisher.js');
  const publisher = channelPublisher(target.botToken);
  // A listing moved to the trash or removed while its post was on the way: its move could not see
  // this post (see finishAttempt()), so the post is taken down here.
  const takeDownIfListingWent = async ({ inShop }: FinishedAttempt, sent: number[] | null) => {
    if (inShop || !sent) return;
    await publisher.deleteMessages(target.channelId, sent).catch((error: unknown) =>
      log.warn('could not take down the post of a listing deleted while it was posted', { listingId: listing.id, error: failureMessage(error, target.botToken) }),
    );
  };
  try {
    const content = await postContent(db, listing);
    let outcome: { messageId: number; postMessageIds: number[] | null };
    if (entry.action === 'EDITED') {
      const posted = await lastPostedMessage(db, listing.id, target.channelId);
      if (posted === undefined) throw new ChannelError('The listing has no successful post in this channel to edit');
      try {
        await publisher.editPost(target.channelId, posted, content);
        outcome = { messageId: posted, postMessageIds: null };
      } catch (error) {
        if (!(error instanceof ChannelError) || !POST_GONE.test(error.description ?? '')) throw error;
        // The post was removed from the channel by hand: the listing is posted anew, and the entry records that post.
        const sent = await publisher.publish(target.channelId, content);
        outcome = { messageId: sent[0]!, postMessageIds: sent };
      }
    } else if (alreadySent.length > 0) {
      const sent = [...alreadySent, await publisher.publishButtons(target.channelId, content)];
      outcome = { messageId: sent[0]!, postMessageIds: sent };
    } else {
      const sent = await publisher.publish(target.channelId, content);
      outcome = { messageId: sent[0]!, postMessageIds: sent };
    }
    const finished = await inTransaction(db, (tx) => finishAttempt(tx, entry, { status: 'SUCCESS', ...outcome }));
    await takeDownIfListingWent(finished, outcome.postMessageIds);
    return finished.row ?? { ...entry, status: 'SUCCESS', ...outcome };
  } catch (error) {
    const errorMessage = failureMessage(error, target.botToken);
    log.warn('channel posting failed', { listingId: listing.id, action: entry.action, syndicationLogId: entry.id, attempt: entry.attempt, errorMessage });
    const onChannel = error instanceof PartialPostError ? error.sentIds : alreadySent;
    const sent = onChannel.length > 0 ? onChannel : null;
    const retryAt = nextRetryAt(error, entry.attempt);
    const retryAfterSeconds = floodControlWait(error);
    const failed = await recordFailure(entry, listing, { errorMessage, sentIds: sent, retryAt, retryAfterSeconds });
    await takeDownIfListingWent(failed, sent);
    return failed.row ?? { ...entry, status: 'FAILED', errorMessage, messageId: sent?.[0] ?? null, postMessageIds: sent, retryAt, retryAfterSeconds };
  }
}

/** A new attempt at a listing's post, recorded as its own entry (a trigger, and every retry). */
export async function postListing(listing: PostableListing, action: PostAction, target: MessengerTarget, retryOf?: LogRow): Promise<LogRow> {
  const db = await getDb();
  const entry = await insertPendingLog(db, {
    listingId: listing.id,
    platform: MESSENGER,
    action,
    channelInfo: target.channelId,
    attempt: retryOf ? retryOf.attempt + 1 : 1,
  });
  // A post that went out in part, in this channel, is completed rather than posted again.
  const alreadySent = retryOf?.action === 'NEW_POST' && retryOf.channelInfo === target.channelId ? (retryOf.postMessageIds ?? []) : [];
  return runPost(entry, listing, target, alreadySent);
}

/**
 * Posts an entry recorded as `PENDING` in the transaction of a listing write (the outbox), after
 * the commit or, when that invocation died, from the sweeper. Nothing happens when the entry is no
 * longer pending (done meanwhile) or went with its listing; one whose listing is in the trash fails.
 */
export async function postPendingEntry(entryId: string): Promise<LogRow | undefined> {
  const db = await getDb();
  const entry = await findPendingLog(db, entryId);
  if (!entry) return undefined;
  const listing = await findListingWithRules(db, entry.listingId);
  if (!listing) return (await finishLog(db, entry.id, { status: 'FAILED', errorMessage: LEFT_THE_SHOP })) ?? undefined;
  const target = await activeMessengerTarget(db);
  if (!target) {
    return (await finishLog(db, entry.id, { status: 'FAILED', errorMessage: 'Channel posting was switched off before the post went out' })) ?? undefined;
  }
  return runPost(entry, listing, { ...target, channelId: entry.channelInfo }, []);
}
