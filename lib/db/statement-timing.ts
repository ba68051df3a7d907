import { AsyncLocalStorage } from 'node:async_hooks';
import { inSpan, telemetryEnabled } from '../telemetry.js';

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

/** The text of a statement as a driver's `query` is given it: a string, or a config with `text`. */
function statementText(first: unknown): string {
  if (typeof first === 'string') return first;
  const text = (first as { text?: unknown } | null)?.text;
  return typeof text === 'string' ? text : '';
}

/** The longest statement text a span carries; parameters are never recorded. */
const MAX_TRACED_STATEMENT = 2_000;

/** With telemetry on, a statement is also a span, named by its first word, holding its text. */
function observedStatement<T>(first: unknown, run: () => Promise<T>): Promise<T> {
  if (!telemetryEnabled()) return timedStatement(run);
  const text = statementText(first);
  const operation = /^\s*(\w+)/.exec(text)?.[1]?.toUpperCase() ?? 'QUERY';
  return inSpan(`db ${operation}`, { 'db.system.name': 'postgresql', 'db.operation.name': operation, 'db.query.text': text.slice(0, MAX_TRACED_STATEMENT) }, () =>
    timedStatement(run),
  );
}

/**
 * Makes an object's `query` method timed (and traced), in place. A call in callback style (a
 * connection pool querying its own connection) goes through untouched: the pool's call around it is.
 */
export function timeQueriesOf<T extends { query: Query }>(target: T): T {
  const query = target.query.bind(target) as Query;
  target.query = ((...args: never[]) => (typeof args.at(-1) === 'function' ? query(...args) : observedStatement(args[0], () => query(...args)))) as T['query'];
  return target;
}
