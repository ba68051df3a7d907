import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { ApiError } from '../http/api-error.js';

/**
 * bcrypt is pure JavaScript here (bcryptjs): on the main thread, a password check at cost 12 takes
 * the event loop for most of a second, and a burst of sign-ins stalls every other request. It runs
 * on worker threads instead, each one job at a time. The background worker takes every client's
 * checks at the lowest priority, so the threads that serve requests keep the CPU they need and
 * sign-ins use what is left. A sign-in with a live device token is the owner's: its check runs on
 * a worker of its own at the normal priority, so a flood that keeps the background worker busy,
 * or a busy machine that leaves it no CPU, does not hold it back.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const bcrypt = require(workerData.bcryptPath);
// On Linux the nice value is per thread: this thread yields the CPU to the one serving requests.
if (workerData.lowestPriority) { try { require('node:os').setPriority(19); } catch {} }
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
 * Clients' password work held at once in an instance, the checks running included: past it a client
 * is told at once to come back (503), instead of waiting behind a queue that grows with a flood.
 */
const MAX_PASSWORD_PLACES = 8;
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
  /** A sign-in with a live device token: its jobs run on the foreground worker, ahead of every other's. */
  first: boolean;
  /** Given up to a sign-in that goes first: its work is refused from then on. */
  givenUp: boolean;
  /** Whether one of its jobs went to the worker. */
  served: boolean;
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

/** A worker thread and the jobs it takes. */
interface Runner {
  lowestPriority: boolean;
  takes: (job: Job) => boolean;
  worker?: Worker;
  running?: Job;
}

/** Every job but a sign-in's with a device token, at the lowest priority. */
const background: Runner = { lowestPriority: true, takes: (job) => !job.first };
/** Sign-ins with a live device token, at the normal priority. */
const foreground: Runner = { lowestPriority: false, takes: (job) => job.first };
const RUNNERS = [background, foreground];

/** Jobs waiting for a worker, in the order they came. */
const waiting: Job[] = [];
/** How many jobs of each lane ran since the lane last had none waiting. */
const servedByLane = new Map<string, number>();
/** The places held, in the order they were taken. */
const places = new Set<Place>();

/** The 503 of a full queue: the envelope, with its own code and when to come back. */
function passwordChecksBusy(): ApiError {
  return new ApiError(503, 'Too many password checks are waiting, try again shortly', undefined, { 'Retry-After': String(BUSY_RETRY_AFTER_SECONDS) }, 'PASSWORD_CHECKS_BUSY');
}

function isRunning(place: Place): boolean {
  return RUNNERS.some((runner) => runner.running?.place === place);
}

function startWorker(runner: Runner): Worker {
  const started = new Worker(WORKER_SOURCE, { eval: true, workerData: { bcryptPath: require.resolve('bcryptjs'), lowestPriority: runner.lowestPriority } });
  started.on('message', ({ result, error }: { result?: string | boolean; error?: string }) => {
    const finished = runner.running;
    runner.running = undefined;
    if (finished) {
      settleLane(finished.lane);
      if (error !== undefined) finished.reject(new Error(error));
      else finished.resolve(result!);
    }
    dispatch();
  });
  // A dead worker fails the job it held; the next job starts a new one.
  started.on('error', (error) => {
    runner.worker = undefined;
    const failed = runner.running;
    runner.running = undefined;
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
 * The job a worker runs next: of those it takes, the job of the lane that ran least since it last
 * had none waiting, the earliest come among equals. A flood in one lane therefore waits behind
 * every other lane's next job.
 */
function nextJob(runner: Runner): Job | undefined {
  let chosen: Job | undefined;
  for (const job of waiting) {
    if (runner.takes(job) && (!chosen || (servedByLane.get(job.lane) ?? 0) < (servedByLane.get(chosen.lane) ?? 0))) chosen = job;
  }
  return chosen;
}

function dispatch(): void {
  for (const runner of RUNNERS) {
    if (runner.running) continue;
    const job = nextJob(runner);
    if (!job) {
      runner.worker?.unref();
      continue;
    }
    waiting.splice(waiting.indexOf(job), 1);
    if (job.place) {
      job.place.waiting = undefined;
      job.place.served = true;
    }
    servedByLane.set(job.lane, (servedByLane.get(job.lane) ?? 0) + 1);
    runner.running = job;
    runner.worker ??= startWorker(runner);
    // A job in flight keeps the process (and a function invocation) alive until it is answered.
    runner.worker.ref();
    runner.worker.postMessage({ operation: job.operation, password: job.password, hashOrRounds: job.hashOrRounds });
  }
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
 * The place a sign-in that goes first takes when all are held: of those that do not go first, the
 * newest whose check has not run yet (its request is refused as a full queue would refuse it), or
 * else the newest whose check is over (its request no longer needs one); never the one running.
 */
function giveUpNewestOrdinaryPlace(): boolean {
  const newestFirst = [...places].reverse().filter((place) => !place.first && !isRunning(place));
  const yielding = newestFirst.find((place) => !place.served) ?? newestFirst[0];
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
 * address's network). Lanes take turns on the background worker, so no lane's checks hold back
 * another's; `first` (a sign-in with a live device token) runs its jobs on the foreground worker,
 * ahead of all others. With every place held, a request is refused at once with 503 and
 * `Retry-After`, except one that goes first, which takes the newest place of one that does not.
 */
export async function withPasswordPlace<T>(lane: string, first: boolean, work: (password: PasswordWork) => Promise<T>): Promise<T> {
  if (places.size >= MAX_PASSWORD_PLACES && !(first && giveUpNewestOrdinaryPlace())) throw passwordChecksBusy();
  const place: Place = { lane, first, givenUp: false, served: false };
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
