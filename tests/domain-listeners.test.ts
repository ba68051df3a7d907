import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Transaction } from '../lib/db/client.js';
import { recordListingEvent } from '../lib/events/listing-events.js';
import { discoverRoutes } from '../lib/local-server/route-table.js';

const projectDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const libDir = path.join(projectDir, 'lib');

/** The lib/ modules that record listing events (the event module itself aside). */
function recordingModules(): string[] {
  return fs
    .readdirSync(libDir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => path.join(entry.parentPath, entry.name))
    .filter((file) => /\brecordListingEvent\(tx, /.test(fs.readFileSync(file, 'utf8')));
}

/** The project modules a source file imports, resolved to their `.ts` files. */
function importsOf(modulePath: string): string[] {
  const source = fs.readFileSync(modulePath, 'utf8');
  return [...source.matchAll(/from '(\.[^']+)'/g)].map((match) => path.resolve(path.dirname(modulePath), match[1]!.replace(/\.js$/, '.ts')));
}

describe('domain listeners', () => {
  it('are registered by every function whose handlers record listing events, as it starts', () => {
    const recording = recordingModules();
    expect(recording.map((file) => path.relative(projectDir, file)).sort()).toEqual(['lib/listings/handlers.ts', 'lib/listings/trash.ts']);
    const writers = discoverRoutes(path.join(projectDir, 'api')).filter((route) => importsOf(route.modulePath).some((imported) => recording.includes(imported)));
    expect(writers.map((route) => route.file).sort()).toEqual(['listings/[id]', 'listings/[id]/restore', 'listings/index']);
    for (const writer of writers) expect(fs.readFileSync(writer.modulePath, 'utf8'), writer.file).toMatch(/^registerDomainListeners\(\);$/m);
  });

  it('must be registered before a listing event is recorded: a write with no one listening is refused, not lost', async () => {
    // Nothing this file imports registers a listener, and the refusal comes before the transaction is used.
    const noTransaction = undefined as unknown as Transaction;
    await expect(recordListingEvent(noTransaction, { type: 'listing.created', listingId: '8f14e45f-ceea-467f-a0e6-13c0b1f3b6a1' })).rejects.toThrow(
      'listing.created recorded with no listener registered: run registerDomainListeners() first',
    );
  });
});
