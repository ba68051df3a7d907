import { AsyncLocalStorage } from 'node:async_hooks';
import { DatabaseClock, withDatabaseClock } from '../db/statement-timing.js';

/** What one request's `Server-Timing` header reports. */
export interface RequestTiming {
  readonly started: number;
  readonly database: DatabaseClock;
  /** The read plans the request took, each once. */
  readonly plans: string[];
}

const timings = new AsyncLocalStorage<RequestTiming>();

/** Runs one request's work with its timing: the statements it sends and the plans it names are counted on it. */
export function timeRequest<T>(work: (timing: RequestTiming) => Promise<T>): Promise<T> {
  const timing: RequestTiming = { started: performance.now(), database: new DatabaseClock(), plans: [] };
  return timings.run(timing, () => withDatabaseClock(timing.database, () => work(timing)));
}

/**
 * Names the read path the current request took (`near-page`, `kept-counts`, ...), shown as
 * `plan;desc="<name>"` in its `Server-Timing`. A read that takes several paths (side by side)
 * names each; the header lists them once each, sorted, joined with `+`. Outside a request it does nothing.
 */
export function nameReadPlan(name: string): void {
  const plans = timings.getStore()?.plans;
  if (plans && !plans.includes(name)) plans.push(name);
}

const milliseconds = (value: number) => value.toFixed(1);

/** `db;dur=<ms in the database>, total;dur=<ms>`, and the plan when one was named. */
export function serverTimingHeader(timing: RequestTiming): string {
  const entries = [`db;dur=${milliseconds(timing.database.elapsedMs)}`, `total;dur=${milliseconds(performance.now() - timing.started)}`];
  if (timing.plans.length > 0) entries.push(`plan;desc="${[...timing.plans].sort().join('+')}"`);
  return entries.join(', ');
}
