import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { listings } from '../lib/db/schema.js';
import { buildCategory, buildListing } from './support/catalog-factories.js';
import { useTestServer } from './support/test-server.js';

const server = useTestServer();
const api = server.api;

describe('public detail', () => {
  it('counts a view for GET only: HEAD answers whether the listing is shown, and counts nothing', async () => {
    const category = await buildCategory(server.db);
    const listing = await buildListing(server.db, { categoryId: category.id });
    const head = await api.send('HEAD', `/api/public/listings/${listing.id}`);
    expect(head.status).toBe(200);
    expect((await api.send('HEAD', '/api/public/listings/5b0e5b38-5f6b-4f55-9c55-2d0b7c4e2a11')).status).toBe(404);
    const [stored] = await server.db.select({ viewsCount: listings.viewsCount }).from(listings).where(eq(listings.id, listing.id));
    expect(stored!.viewsCount).toBe(0);
    await api.get(`/api/public/listings/${listing.id}`);
    const [after] = await server.db.select({ viewsCount: listings.viewsCount }).from(listings).where(eq(listings.id, listing.id));
    expect(after!.viewsCount).toBe(1);
  });
});
