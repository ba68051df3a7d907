// The sign-in flood of the bench, sent from its own process as an attacker's would be: its
// connections and answers never share an event loop with the latency being measured.
//
//   node bench/login-flood.mjs <login URL> <count> <e-mail prefix>
//
// Prints `ready`; when a line arrives on stdin, fires `count` wrong sign-ins at once from one
// address and, a moment later, one from another address (a bystander signing in meanwhile); then
// prints { statuses: { <status>: <count> }, seconds, bystanderSeconds } as one JSON line (seconds:
// time to the flood's last answer; bystanderSeconds: how long the bystander's answer took). The
// service must trust one proxy hop (TRUST_PROXY=1), so X-Forwarded-For names the address.
import readline from 'node:readline';

const [url, count, prefix] = process.argv.slice(2);
const FLOOD_ADDRESS = '198.51.100.7';
const BYSTANDER_ADDRESS = '203.0.113.9';
const BYSTANDER_DELAY_MS = 100;

function wrongLogin(email, address) {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
    body: JSON.stringify({ email, password: 'not-the-password' }),
  });
}

const lines = readline.createInterface({ input: process.stdin });
lines.once('line', async () => {
  lines.close();
  const started = performance.now();
  const statuses = {};
  const flood = Promise.all(
    Array.from({ length: Number(count) }, async (_, index) => {
      const response = await wrongLogin(`${prefix}-${index}@example.com`, FLOOD_ADDRESS);
      await response.arrayBuffer();
      statuses[response.status] = (statuses[response.status] ?? 0) + 1;
    }),
  );
  await new Promise((resolve) => setTimeout(resolve, BYSTANDER_DELAY_MS));
  const bystanderStarted = performance.now();
  await (await wrongLogin(`${prefix}-bystander@example.com`, BYSTANDER_ADDRESS)).arrayBuffer();
  const bystanderSeconds = (performance.now() - bystanderStarted) / 1000;
  await flood;
  console.log(JSON.stringify({ statuses, seconds: (performance.now() - started) / 1000, bystanderSeconds }));
});
console.log('ready');
