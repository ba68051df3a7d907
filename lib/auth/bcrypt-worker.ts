import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { ApiError } from '../http/api-error.js';

/**
 * bcrypt is pure JavaScript here (bcryptjs): on the main thread, a password check at cost 12 takes
 * the event loop for most of a second, and a burst of sign-ins stalls every other request. It runs
 * on a worker thread instead, one job at a time and at the lowest priority, so the threads that
 * serve requests keep the CPU they need and sign-ins use what is left.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const bcrypt = require(workerData.bcryptPath);
// On Linux the nice value is per thread: this thread yields the CPU to the one serving requests.
try { require('node:os').setPriority(19); } catch {}
parentPort.on('message', ({ operation, password, hashOrRounds }) => {
  try {
    const result = operation === 'hash' ? bcrypt.hashSync(password, hashOrRounds) : bcrypt.compareSync(password, hashOrRounds);
    parentPort.postMessage({ result });
  } catch (error) {
    parentPort.postMessage({ error: String(error && error.message || error) });
  }
});
`;

/** Resolves the path the worker loads bcryptjs from (a literal the build's tracer follows, to carry the package). */
const require = createRequire(import.meta.url);

/**
 * Clients' password work held at once in an instance, the check running included: past it a client
 * is told at once to come back (503), instead of waiting behind a queue that grows with a flood.
 */
export const MAX_PASSWORD_PLACES = 8;
/** About when a place is free again: a check at cost 12 takes under a second. */
const BUSY_RETRY_AFTER_SECONDS = 1;

/** Password work for one client's request, on the worker: one job at a time. */
export interface PasswordWork {
  hash: (password: string, rounds: number) => Promise<string>;
  compare: (password: string, hash: string) => Promise<boolean>;
}

/** A client's hold on one of the instance's places for password work. */
interface Place {
  lane: string;
  /** A sign-in with a valid device token: its jobs go before every other's. */
  first: boolean;
  /** Given up to a sign-in that goes first: its work is refused from then on. */
  givenUp: boolean;
  /** Its job, while it waits for the worker. */
  waiting?: Job;
}

interface Job {
  lane: string;
  first: boolean;
  place?: Place;
  operation: 'hash' | 'compare';
  password: string;
  hashOrRounds: string | number;
  resolve: (value: string | boolean) => void;
  reject: (error: Error) => void;
}

/** The lane of work with no client behind it (start-up, command-line tools): it holds no place. */
const SERVICE_LANE = 'service';

let worker: Worker | undefined;
let running: Job | undefined;
/** Jobs waiting for the worker, in the order they came. */
const waiting: Job[] = [];
/** How many jobs of each lane ran since the lane last had none waiting. */
const servedByLane = new Map<string, number>();
/** The places held, in the order they were taken. */
const places = new Set<Place>();

/** The 503 of a full queue: the envelope, with its own code and when to come back. */
function passwordChecksBusy(): ApiError {
  return new ApiError(503, 'Too many password checks are waiting, try again shortly', undefined, { 'Retry-After': String(BUSY_RETRY_AFTER_SECONDS) }, 'PASSWORD_CHECKS_BUSY');
}

function startWorker(): Worker {
  const started = new Worker(WORKER_SOURCE, { eval: true, workerData: { bcryptPath: require.resolve('bcryptjs') } });
  started.on('message', ({ result, error }: { result?: string | boolean; error?: string }) => {
    const finished = running;
    running = undefined;
    if (finished) {
      settleLane(finished.lane);
      if (error !== undefined) finished.reject(new Error(error));
      else finished.resolve(result!);
    }
    dispatch();
  });
  // A dead worker fails the job it held; the next job starts a new one.
  started.on('error', (error) => {
    worker = undefined;
    const failed = running;
    running = undefined;
    if (failed) {
      settleLane(failed.lane);
      failed.reject(error);
    }
    dispatch();
  });
  started.unref();
  return started;
}

/** A lane with nothing waiting is forgotten, so its next job starts afresh. */
function settleLane(lane: string): void {
  if (!waiting.some((job) => job.lane === lane)) servedByLane.delete(lane);
}

/**
 * The job to run next: a sign-in with a device token before all others; among the rest, the job of
 * the lane that ran least since it last had none waiting, the earliest come among equals. A flood in
 * one lane therefore waits behind every other lane's next job.
 */
function nextJob(): Job | undefined {
  const candidates = waiting.some((job) => job.first) ? waiting.filter((job) => job.first) : waiting;
  let chosen: Job | undefined;
  for (const job of candidates) {
    if (!chosen || (servedByLane.get(job.lane) ?? 0) < (servedByLane.get(chosen.lane) ?? 0)) chosen = job;
  }
  return chosen;
}

function dispatch(): void {
  if (running) return;
  const job = nextJob();
  if (!job) {
    worker?.unref();
    return;
  }
  waiting.splice(waiting.indexOf(job), 1);
  if (job.place) job.place.waiting = undefined;
  servedByLane.set(job.lane, (servedByLane.get(job.lane) ?? 0) + 1);
  running = job;
  worker ??= startWorker();
  // A job in flight keeps the process (and a function invocation) alive until it is answered.
  worker.ref();
  worker.postMessage({ operation: job.operation, password: job.password, hashOrRounds: job.hashOrRounds });
}

function run<T extends string | boolean>(lane: string, place: Place | undefined, operation: Job['operation'], password: string, hashOrRounds: string | number): Promise<T> {
  if (place?.givenUp) return Promise.reject(passwordChecksBusy());
  return new Promise<T>((resolve, reject) => {
    const job: Job = { lane, first: place?.first ?? false, place, operation, password, hashOrRounds, resolve: resolve as Job['resolve'], reject };
    if (place) place.waiting = job;
    waiting.push(job);
    dispatch();
  });
}

/**
 * The place a sign-in that goes first takes when all are held: the newest of those that do not go
 * first and whose job is not running. Its waiting job, if any, is refused as a full queue would be.
 */
function giveUpNewestOrdinaryPlace(): boolean {
  const yielding = [...places].reverse().find((place) => !place.first && running?.place !== place);
  if (!yielding) return false;
  yielding.givenUp = true;
  places.delete(yielding);
  const job = yielding.waiting;
  if (job) {
    yielding.waiting = undefined;
    waiting.splice(waiting.indexOf(job), 1);
    settleLane(job.lane);
    job.reject(passwordChecksBusy());
  }
  return true;
}

/**
 * Runs `work` holding one of the instance's places for password work, in the client's lane (its
 * address's network). Lanes take turns on the one worker, so no lane's checks hold back another's;
 * `first` (a sign-in with a valid device token) runs its jobs before all others'. With every place
 * held, a request is refused at once with 503 and `Retry-After`, except one that goes first, which
 * takes the newest place of one that does not (that request is answered 503 in its stead).
 */
export async function withPasswordPlace<T>(lane: string, first: boolean, work: (password: PasswordWork) => Promise<T>): Promise<T> {
  if (places.size >= MAX_PASSWORD_PLACES && !(first && giveUpNewestOrdinaryPlace())) throw passwordChecksBusy();
  const place: Place = { lane, first, givenUp: false };
  places.add(place);
  try {
    return await work({
      hash: (password, rounds) => run<string>(lane, place, 'hash', password, rounds),
      compare: (password, hash) => run<boolean>(lane, place, 'compare', password, hash),
    });
  } finally {
    places.delete(place);
  }
}

/** Password work with no client behind it (start-up, command-line tools): it holds no place. */
export const servicePasswordWork: PasswordWork = {
  hash: (password, rounds) => run<string>(SERVICE_LANE, undefined, 'hash', password, rounds),
  compare: (password, hash) => run<boolean>(SERVICE_LANE, undefined, 'compare', password, hash),
};

export function bcryptHash(password: string, rounds: number): Promise<string> {
  return servicePasswordWork.hash(password, rounds);
}
