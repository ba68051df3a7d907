import type { AuthUser } from '../http/access.js';
import type { Executor } from '../db/client.js';
import { notify, notifyRole, type NewNotification } from '../notifications/notify.js';

interface NotifiedListing {
  id: string;
  title: string;
  agentId: string | null;
  status: string;
}

function toAgent(listing: NotifiedListing, item: Omit<NewNotification, 'userId' | 'data'>): NewNotification[] {
  return listing.agentId ? [{ ...item, userId: listing.agentId, data: { listingId: listing.id } }] : [];
}

/**
 * In the transaction of the insert: the listing's agent is told, and when an agent created it,
 * every administrator too.
 */
export async function notifyListingCreated(executor: Executor, listing: NotifiedListing, creator: AuthUser): Promise<void> {
  await notify(
    executor,
    toAgent(listing, { type: 'LISTING_CREATED', title: 'Listing created', body: `Your listing "${listing.title}" was created.` }),
  );
  if (creator.role !== 'AGENT') return;
  await notifyRole(executor, 'SUPER_ADMIN', {
    type: 'LISTING_CREATED',
    title: 'New listing',
    body: `${creator.name} created the listing "${listing.title}".`,
    data: { listingId: listing.id },
  });
}

/** The listing's agent hears of every update, and of a sale separately. */
export async function notifyListingUpdated(executor: Executor, listing: NotifiedListing, sold: boolean): Promise<void> {
  const items = toAgent(listing, { type: 'LISTING_UPDATED', title: 'Listing updated', body: `Your listing "${listing.title}" was updated.` });
  if (sold) {
    const body =
      listing.status === 'ARCHIVED'
        ? `Your listing "${listing.title}" sold its last item and was archived.`
        : `Your listing "${listing.title}" was marked as sold.`;
    items.push(...toAgent(listing, { type: 'LISTING_SOLD', title: 'Listing sold', body }));
  }
  await notify(executor, items);
}
