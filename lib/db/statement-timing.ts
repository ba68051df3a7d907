import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The database time of one unit of work (a request): the wall time during which at least one of
 * its statements was running. Statements run side by side count once, so the figure never
 * exceeds the time the work took.
 */
export class DatabaseClock {
  elapsedMs = 0;
  private running = 0;
  private since = 0;

  start(): void {
    if (this.running++ === 0) this.since = performance.now();
  }

  stop(): void {
    if (--this.running === 0) this.elapsedMs += performance.now() - this.since;
  }
}

const clocks = new AsyncLocalStorage<DatabaseClock>();

/** Runs `work` with its statements timed on `clock`. */
export function withDatabaseClock<T>(clock: DatabaseClock, work: () => T): T {
  return clocks.run(clock, work);
}

/** Runs one statement, its time counted on the clock of the work it belongs to, if any. */
export async function timedStatement<T>(run: () => Promise<T>): Promise<T> {
  const clock = clocks.getStore();
  if (!clock) return run();
  clock.start();
  try {
    return await run();
  } finally {
    clock.stop();
  }
}

type Query = (...args: never[]) => Promise<unknown>;

/**
 * Makes an object's `query` method timed, in place. A call in callback style (a connection pool
 * querying its own connection) goes through untouched: the pool's call around it is timed.
 */
export function timeQueriesOf<T extends { query: Query }>(target: T): T {
  const query = target.query.bind(target) as Query;
  target.query = ((...args: never[]) => (typeof args.at(-1) === 'function' ? query(...args) : timedStatement(() => query(...args)))) as T['query'];
  return target;
}
