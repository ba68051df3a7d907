import { spawn } from 'node:child_process';
import { measureLoad, median, query, SERVICE_URL, startService, table, WARM_UP_SECONDS, type BenchContext } from '../harness.js';

/** Sign-ins at the production cost, one address sending 50 wrong ones at once. */
const FLOOD_LOGINS = 50;
/** The shop's ordinary traffic meanwhile: a steady rate well below what the service can take, so the figure is the flood's effect, not saturation. */
const ORDINARY_TRAFFIC = { connections: 4, rate: 200 };
/**
 * Idle and flooded windows, alternated: one pair's ratio moves with whatever else the machine runs
 * at that moment, the median of a few pairs much less.
 */
const FLOOD_ROUNDS = 3;
/** The most the ordinary traffic's p99 may grow during a flood. */
const P99_TARGET_RATIO = 2;

interface FloodAnswers {
  statuses: Record<string, number>;
  seconds: number;
  /** How long a sign-in from another address took, sent just after the flood. */
  bystanderSeconds: number;
}

/**
 * Starts the flood's own process (bench/login-flood.mjs) and, once it is up, lets it fire:
 * `answered` is the sign-ins' statuses and the time to the last answer.
 */
async function startLoginFlood(emailPrefix: string): Promise<{ answered: Promise<FloodAnswers> }> {
  const child = spawn(process.execPath, ['bench/login-flood.mjs', `${SERVICE_URL}/api/auth/login`, String(FLOOD_LOGINS), emailPrefix], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let output = '';
  let ready: () => void;
  const started = new Promise<void>((resolve) => (ready = resolve));
  child.stdout!.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
    if (output.startsWith('ready\n')) ready();
  });
  const answered = new Promise<FloodAnswers>((resolve, reject) => {
    child.once('exit', (code) =>
      code === 0 ? resolve(JSON.parse(output.slice('ready\n'.length)) as FloodAnswers) : reject(new Error(`login flood exited with ${code}`)),
    );
  });
  // Node's start-up is paid before the flooded window opens, not inside it.
  await started;
  child.stdin!.end('go\n');
  return { answered };
}

/** The latency of ordinary reads while one address floods the sign-in with wrong passwords. */
export async function benchLoginFlood(context: BenchContext): Promise<boolean> {
  const { databaseUrl } = await context.store();
  console.log(
    `\n## Sign-in flood: ${FLOOD_LOGINS} concurrent wrong logins from one address (bcrypt cost 12), against the latency of other requests at ${ORDINARY_TRAFFIC.rate} req/s, ${FLOOD_ROUNDS} rounds\n`,
  );
  // One trusted proxy hop, so the flood and a bystander can speak from different addresses.
  const service = await startService({ ...context.env, BCRYPT_ROUNDS: '12', TRUST_PROXY: '1' });
  const url = `${SERVICE_URL}/api/public/listings?limit=20`;
  const ordinary = (seconds: number) => measureLoad({ url, seconds, ...ORDINARY_TRAFFIC });
  try {
    await measureLoad({ url, seconds: WARM_UP_SECONDS, connections: context.connections });
    // One sign-in first, so the flood is measured on a warm instance: the route's module loaded,
    // the hashing worker started and the dummy hash made (first-use costs, paid once per instance).
    await fetch(`${SERVICE_URL}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: `warm-up-${Date.now()}@example.com`, password: 'not-the-password' }),
    });
    const rows: Array<Array<string | number>> = [];
    const ratios: number[] = [];
    for (let round = 1; round <= FLOOD_ROUNDS; round += 1) {
      // Counters left by an earlier run, round or the warm-up would refuse the flood before any password is checked.
      await query(databaseUrl, 'delete from rate_limits');
      const idle = await ordinary(context.duration);
      const flood = await startLoginFlood(`flood-${Date.now()}-${round}`);
      const flooded = await ordinary(context.duration);
      // The next round's idle window starts once the last sign-in is answered.
      const { statuses, seconds, bystanderSeconds } = await flood.answered;
      const ratio = flooded.p99 / Math.max(idle.p99, 1);
      ratios.push(ratio);
      const answers = Object.entries(statuses).map(([status, count]) => `${count} x ${status}`).join(', ');
      rows.push([round, Math.round(idle.rps), idle.p50, idle.p99, Math.round(flooded.rps), flooded.p50, flooded.p99, ratio.toFixed(2), answers, seconds.toFixed(1), bystanderSeconds.toFixed(1)]);
    }
    table(['round', 'idle req/s', 'p50 ms', 'p99 ms', 'flooded req/s', 'p50 ms', 'p99 ms', 'p99 ratio', 'login answers', 'last answer s', 'other address s'], rows);
    console.log(
      `\np99 during the flood ${median(ratios).toFixed(2)}x idle, median of ${FLOOD_ROUNDS} rounds (${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)}; target <= ${P99_TARGET_RATIO}x)`,
    );
    return median(ratios) <= P99_TARGET_RATIO;
  } finally {
    await service.stop();
  }
}
