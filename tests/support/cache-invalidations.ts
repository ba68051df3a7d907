import { captureLog } from './capture-log.js';

/**
 * The tags of each purge a server's request context received, from its JSON log lines (the local
 * and build-output servers log every `invalidateByTag` call, where no CDN keeps anything).
 */
export function cacheInvalidationsIn(lines: Array<Record<string, unknown>>): string[][] {
  return lines.filter((line) => line.msg === 'cache tags invalidated').map((line) => line.tags as string[]);
}

/** What `run` answered, and the tags of each purge the in-process server made while it (and the work it deferred) ran. */
export async function withCacheInvalidations<T>(run: () => Promise<T>): Promise<{ result: T; invalidations: string[][] }> {
  let result: T | undefined;
  const lines = await captureLog(async () => {
    result = await run();
  });
  return { result: result as T, invalidations: cacheInvalidationsIn(lines) };
}
