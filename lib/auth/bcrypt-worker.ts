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
parentPort.on('message', ({ id, operation, password, hashOrRounds }) => {
  try {
    const result = operation === 'hash' ? bcrypt.hashSync(password, hashOrRounds) : bcrypt.compareSync(password, hashOrRounds);
    parentPort.postMessage({ id, result });
  } catch (error) {
    parentPort.postMessage({ id, error: String(error && error.message || error) });
  }
});
`;

interface Job {
  resolve: (value: string | boolean) => void;
  reject: (error: Error) => void;
}

let worker: Worker | undefined;
const jobs = new Map<number, Job>();
let nextId = 0;

function startWorker(): Worker {
  const started = new Worker(WORKER_SOURCE, { eval: true, workerData: { bcryptPath: createRequire(import.meta.url).resolve('bcryptjs') } });
  started.on('message', ({ id, result, error }: { id: number; result?: string | boolean; error?: string }) => {
    const job = jobs.get(id);
    jobs.delete(id);
    if (error !== undefined) job?.reject(new Error(error));
    else job?.resolve(result!);
    if (jobs.size === 0) started.unref();
  });
  // A dead worker fails what it held; the next job starts a new one.
  started.on('error', (error) => {
    worker = undefined;
    for (const job of jobs.values()) job.reject(error);
    jobs.clear();
  });
  started.unref();
  return started;
}

function run<T extends string | boolean>(operation: 'hash' | 'compare', password: string, hashOrRounds: string | number): Promise<T> {
  worker ??= startWorker();
  const current = worker;
  const id = (nextId += 1);
  return new Promise<T>((resolve, reject) => {
    jobs.set(id, { resolve: resolve as Job['resolve'], reject });
    // A job in flight keeps the process (and a function invocation) alive until it is answered.
    current.ref();
    current.postMessage({ id, operation, password, hashOrRounds });
  });
}

export function bcryptHash(password: string, rounds: number): Promise<string> {
  return run<string>('hash', password, rounds);
}

export function bcryptCompare(password: string, hash: string): Promise<boolean> {
  return run<boolean>('compare', password, hash);
}
