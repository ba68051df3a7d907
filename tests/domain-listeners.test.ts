import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Transaction } from '../lib/db/client.js';
import { recordListingEvent } from '../lib/events/listing-events.js';
import { discoverRoutes } from '../lib/local-server/route-table.js';

const projectDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const serviceRoute = path.join(projectDir, 'lib/service-route.ts');

/** The module a function's source imports `route` from, resolved to a project file. */
function routeWrapperOf(modulePath: string): string | undefined {
  const source = fs.readFileSync(modulePath, 'utf8');
  const specifier = /import \{[^}]*\broute\b[^}]*\} from '([^']+)'/.exec(source)?.[1];
  return specifier === undefined ? undefined : path.resolve(path.dirname(modulePath), specifier.replace(/\.js$/, '.ts'));
}

describe('domain listeners', () => {
  it('start with every function: each api/ function takes its route wrapper from lib/service-route.ts, which registers them', () => {
    const routes = discoverRoutes(path.join(projectDir, 'api'));
    expect(routes.length).toBeGreaterThan(50);
    const elsewhere = routes.filter((route) => routeWrapperOf(route.modulePath) !== serviceRoute).map((route) => route.file);
    expect(elsewhere).toEqual([]);
    expect(fs.readFileSync(serviceRoute, 'utf8')).toMatch(/^registerDomainListeners\(\);$/m);
  });

  it('must be registered before a listing event is recorded: a write with no one listening is refused, not lost', async () => {
    // Nothing this file imports registers a listener, and the refusal comes before the transaction is used.
    const noTransaction = undefined as unknown as Transaction;
    await expect(recordListingEvent(noTransaction, { type: 'listing.created', listingId: '8f14e45f-ceea-467f-a0e6-13c0b1f3b6a1' })).rejects.toThrow(
      'listing.created recorded with no listener registered: run registerDomainListeners() first',
    );
  });
});
