import { settleDeferredWork } from '../../lib/http/deferred-work.js';

/** The service's JSON log lines at `level` and above written to stdout while `run` (and the work it deferred) ran. */
export async function captureLog(run: () => Promise<void>, level: 'debug' | 'info' = 'info'): Promise<Array<Record<string, unknown>>> {
  const lines: string[] = [];
  const write = process.stdout.write;
  process.env.LOG_LEVEL = level;
  process.stdout.write = ((chunk: string | Uint8Array) => lines.push(String(chunk)) > 0) as typeof process.stdout.write;
  try {
    await run();
    await settleDeferredWork();
  } finally {
    process.stdout.write = write;
    process.env.LOG_LEVEL = 'silent';
  }
  return lines.flatMap((chunk) => chunk.split('\n')).filter((line) => line.startsWith('{')).map((line) => JSON.parse(line));
}
