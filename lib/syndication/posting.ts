import { config } from '../config.js';
import { getDb, type Executor } from '../db/client.js';
import { inTransaction } from '../db/transaction.js';
import { log } from '../log.js';
import { notify } from '../notifications/notify.js';
import { readSettings } from '../settings/queries.js';
import { assembleCaption, listingCaption } from './caption.js';
import { ChannelError, failureMessage, PartialPostError } from './channel-error.js';
import type { PostContent } from './channel-publisher.js';
import { MESSENGER, type MessengerTarget } from './configs.js';
import { channelButtons, type LinkButton } from './keyboard.js';
import type { LogRow } from './presenter.js';
import { finishLog, insertPendingLog, lastPostedMessage, type PostableListing } from './queries.js';

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

/**
 * `sentIds`: the messages of a post that went out in part, kept so that a retry completes it.
 * Answers the finished entry, or undefined when it went with its listing meanwhile.
 */
async function recordFailure(entry: LogRow, listing: PostableListing, errorMessage: string, sentIds: number[] | null): Promise<LogRow | undefined> {
  const db = await getDb();
  const outcome = { status: 'FAILED' as const, errorMessage, messageId: sentIds?.[0] ?? null, postMessageIds: sentIds };
  return inTransaction(db, async (tx) => {
    const row = await finishLog(tx, entry.id, outcome);
    if (!row) return undefined;
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
    return row;
  });
}

/**
 * The posting flow (D13): a `PENDING` entry first, then the Bot API calls, then `SUCCESS` with the
 * message id, or `FAILED` with the reason and a notification to the listing's agent. A new post
 * records its first message as the message id and every message it sent (so all can be deleted);
 * an edit changes the listing's latest post in this channel. A post is SUCCESS only when all of it
 * went out: an album whose buttons message failed is FAILED with the album's messages recorded, and
 * `alreadySent` (a retry of such an entry) sends only the buttons. Never throws for a channel
 * failure: the entry says what happened.
 */
export async function postListing(listing: PostableListing, action: PostAction, target: MessengerTarget, alreadySent: number[] = []): Promise<LogRow> {
  const db = await getDb();
  const entry = await insertPendingLog(db, { listingId: listing.id, platform: MESSENGER, action, channelInfo: target.channelId });
  const { channelPublisher } = await import('./channel-publisher.js');
  const publisher = channelPublisher(target.botToken);
  // The entry goes with its listing: a listing deleted while its post was on the way leaves no
  // entry to finish, and its delete could not see this post, so the post is taken down here.
  const takeDownIfListingWent = async (finished: LogRow | undefined, sent: number[] | null) => {
    if (finished || !sent) return;
    await publisher.deleteMessages(target.channelId, sent).catch((error: unknown) =>
      log.warn('could not take down the post of a listing deleted while it was posted', { listingId: listing.id, error: failureMessage(error, target.botToken) }),
    );
  };
  try {
    const content = await postContent(db, listing);
    let outcome: { messageId: number; postMessageIds: number[] | null };
    if (action === 'EDITED') {
      const posted = await lastPostedMessage(db, listing.id, target.channelId);
      if (posted === undefined) throw new ChannelError('The listing has no successful post in this channel to edit');
      await publisher.editPost(target.channelId, posted, content);
      outcome = { messageId: posted, postMessageIds: null };
    } else if (alreadySent.length > 0) {
      const sent = [...alreadySent, await publisher.publishButtons(target.channelId, content)];
      outcome = { messageId: sent[0]!, postMessageIds: sent };
    } else {
      const sent = await publisher.publish(target.channelId, content);
      outcome = { messageId: sent[0]!, postMessageIds: sent };
    }
    const finished = await finishLog(db, entry.id, { status: 'SUCCESS', ...outcome });
    await takeDownIfListingWent(finished, outcome.postMessageIds);
    return finished ?? { ...entry, status: 'SUCCESS', ...outcome };
  } catch (error) {
    const errorMessage = failureMessage(error, target.botToken);
    log.warn('channel posting failed', { listingId: listing.id, action, syndicationLogId: entry.id, errorMessage });
    const onChannel = error instanceof PartialPostError ? error.sentIds : alreadySent;
    const sent = onChannel.length > 0 ? onChannel : null;
    const failed = await recordFailure(entry, listing, errorMessage, sent);
    await takeDownIfListingWent(failed, sent);
    return failed ?? { ...entry, status: 'FAILED', errorMessage, messageId: sent?.[0] ?? null, postMessageIds: sent };
  }
}
