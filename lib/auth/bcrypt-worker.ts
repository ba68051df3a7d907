import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

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

interface Job {
  operation: 'hash' | 'compare';
  password: string;
  hashOrRounds: string | number;
  resolve: (value: string | boolean) => void;
  reject: (error: Error) => void;
}

/** The jobs waiting in one lane, and how many of its jobs ran since it was last empty. */
interface Lane {
  waiting: Job[];
  served: number;
}

/** The lane of work with no account or client behind it (start-up, command-line tools). */
export const SERVICE_LANE = 'service';

let worker: Worker | undefined;
let running: { job: Job; lane: string } | undefined;
const lanes = new Map<string, Lane>();

function startWorker(): Worker {
  const started = new Worker(WORKER_SOURCE, { eval: true, workerData: { bcryptPath: require.resolve('bcryptjs') } });
  started.on('message', ({ result, error }: { result?: string | boolean; error?: string }) => {
    const finished = running;
    running = undefined;
    if (finished) {
      settleLane(finished.lane);
      if (error !== undefined) finished.job.reject(new Error(error));
      else finished.job.resolve(result!);
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
      failed.job.reject(error);
    }
    dispatch();
  });
  started.unref();
  return started;
}

/** A lane with nothing waiting and nothing running is forgotten, so its next job starts afresh. */
function settleLane(name: string): void {
  const lane = lanes.get(name);
  if (lane && lane.waiting.length === 0) lanes.delete(name);
}

/**
 * The lane to serve next: the one whose jobs ran least since it was last empty, the earliest come
 * among equals. A flood of checks in one lane therefore waits behind every other lane's next job.
 */
function nextLane(): [string, Lane] | undefined {
  let chosen: [string, Lane] | undefined;
  for (const entry of lanes) {
    if (entry[1].waiting.length > 0 && (!chosen || entry[1].served < chosen[1].served)) chosen = entry;
  }
  return chosen;
}

function dispatch(): void {
  if (running) return;
  const next = nextLane();
  if (!next) {
    worker?.unref();
    return;
  }
  const [name, lane] = next;
  const job = lane.waiting.shift()!;
  lane.served += 1;
  running = { job, lane: name };
  worker ??= startWorker();
  // A job in flight keeps the process (and a function invocation) alive until it is answered.
  worker.ref();
  worker.postMessage({ operation: job.operation, password: job.password, hashOrRounds: job.hashOrRounds });
}

/**
 * Queues a job in its lane (an account, a device, a client address): lanes take turns on the one
 * worker, so no lane's checks can hold back another lane's.
 */
function run<T extends string | boolean>(lane: string, operation: Job['operation'], password: string, hashOrRounds: string | number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const queued = lanes.get(lane) ?? { waiting: [], served: 0 };
    queued.waiting.push({ operation, password, hashOrRounds, resolve: resolve as Job['resolve'], reject });
    lanes.set(lane, queued);
    dispatch();
  });
}

export function bcryptHash(password: string, rounds: number, lane = SERVICE_LANE): Promise<string> {
  return run<string>(lane, 'hash', password, rounds);
}

export function bcryptCompare(password: string, hash: string, lane = SERVICE_LANE): Promise<boolean> {
  return run<boolean>(lane, 'compare', password, hash);
}
