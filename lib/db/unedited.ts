import { sql } from 'drizzle-orm/sql/sql';
import { listings } from './schema.js';

/**
 * The change that keeps a listing's `updatedAt` as it is, for the writes that are not edits of it:
 * a view or an inquiry counted, a move in or out of the trash, a category deleted under it.
 */
export const listingUnedited = { updatedAt: sql`${listings.updatedAt}` };
