import { eq, sql } from 'drizzle-orm';
import type { AuthUser } from '../auth/authenticate.js';
import type { Executor } from '../db/client.js';
import { notifications, users } from '../db/schema.js';
import { notify, type NewNotification } from '../notifications/notify.js';

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
 * D16, in the transaction of the insert: the listing's agent is told, and when an agent created it,
 * every administrator too (one insert from a select of the administrators).
 */
export async function notifyListingCreated(executor: Executor, listing: NotifiedListing, creator: AuthUser): Promise<void> {
  await notify(
    executor,
    toAgent(listing, { type: 'LISTING_CREATED', title: 'Listing created', body: `Your listing "${listing.title}" was created.` }),
  );
  if (creator.role !== 'AGENT') return;
  // An insert from a select names every column of the table, in order.
  await executor.insert(notifications).select(
    executor
      .select({
        id: sql<string>`gen_random_uuid()`.as('id'),
        userId: users.id,
        title: sql<string>`${'New listing'}`.as('title'),
        body: sql<string>`${`${creator.name} created the listing "${listing.title}".`}`.as('body'),
        type: sql<string>`${'LISTING_CREATED'}`.as('type'),
        data: sql`${JSON.stringify({ listingId: listing.id })}::jsonb`.as('data'),
        isRead: sql<boolean>`false`.as('isRead'),
        createdAt: sql<Date>`now()`.as('createdAt'),
      })
      .from(users)
      .where(eq(users.role, 'SUPER_ADMIN')),
  );
}

/** D16: the agent hears of every update, and of a sale separately. */
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
