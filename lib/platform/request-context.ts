import type { PurgeApi } from '@vercel/functions';
import { log } from '../log.js';

/**
 * What the platform's runtime hands `@vercel/functions` through
 * `globalThis[Symbol.for('@vercel/request-context')]`, the parts this service uses: `waitUntil`
 * for work after the answer, and the CDN's purge API for writes. `@vercel/otel` also reads the
 * request's `headers` from it (for a root span's attributes) and calls its `waitUntil`
 * unconditionally: a server without the platform's front end has no headers to give, and a
 * process that is never frozen need not wait for anything (the telemetry is flushed after each
 * answer by the route wrapper).
 */
interface PlatformRequestContext {
  waitUntil?: (promise: Promise<unknown>) => void;
  purge: Pick<PurgeApi, 'invalidateByTag'>;
}

const NO_PLATFORM_HEADERS: Readonly<Record<string, string>> = Object.freeze({});
const NOTHING_TO_WAIT_FOR = (): void => undefined;

/**
 * The purge API of a server without a CDN in front: nothing is kept, so nothing is purged, and each
 * invalidation is logged with its tags (`cache tags invalidated`), showing what a deployment's
 * write would purge.
 */
export const loggedPurge: PlatformRequestContext['purge'] = {
  invalidateByTag: async (tag) => {
    log.info('cache tags invalidated', { tags: typeof tag === 'string' ? [tag] : tag });
  },
};

/** Installs the context as the platform does, for every function module in this process, whichever module graph it loaded. */
export function installRequestContext(context: PlatformRequestContext): void {
  Object.defineProperty(globalThis, Symbol.for('@vercel/request-context'), {
    configurable: true,
    enumerable: false,
    value: { get: () => ({ headers: NO_PLATFORM_HEADERS, waitUntil: NOTHING_TO_WAIT_FOR, ...context }) },
  });
}
