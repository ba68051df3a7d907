import type { Database } from '../../lib/db/client.js';
import { inTransaction } from '../../lib/db/transaction.js';
import { recordListingEvent, type ListingEvent } from '../../lib/events/listing-events.js';
import { registerDomainListeners } from '../../lib/domain-listeners.js';

/** Records a listing event as a write would (inside a transaction), then runs and awaits its follow-up work. */
export async function emitListingEvent(db: Database, event: ListingEvent): Promise<void> {
  registerDomainListeners();
  const start = await inTransaction(db, (tx) => recordListingEvent(tx, event));
  await start();
}
