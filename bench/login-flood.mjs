// The sign-in flood of the bench, sent from its own process as an attacker's would be: its
// connections and answers never share an event loop with the latency being measured.
//
//   node bench/login-flood.mjs <login URL> <addresses> <in flight per address> <seconds> <e-mail prefix>
//
// Prints `ready`; when a line arrives on stdin, each of `addresses` addresses keeps `in flight`
// wrong sign-ins under way for `seconds`, every one naming a fresh e-mail (many lanes, none of
// them an account's). An answered sign-in is followed by the next at once, a refused one (429,
// 503) after a short pause, so the flood's own request rate stays bounded. Then prints
// { statuses: { <status>: <count> }, sent, seconds } as one JSON line. The service must trust one
// proxy hop (TRUST_PROXY=1), so X-Forwarded-For names the address.
import readline from 'node:readline';

const [url, addresses, inFlight, seconds, prefix] = process.argv.slice(2);
/** Pause after a refusal, so that refused sign-ins do not turn the flood into a busy loop. */
const PAUSE_AFTER_REFUSAL_MS = 250;

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const lines = readline.createInterface({ input: process.stdin });
lines.once('line', async () => {
  lines.close();
  const started = performance.now();
  const endsAt = started + Number(seconds) * 1000;
  const statuses = {};
  let sent = 0;
  async function keepSending(address) {
    while (performance.now() < endsAt) {
      sent += 1;
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
        body: JSON.stringify({ email: `${prefix}-${sent}@example.com`, password: 'not-the-password' }),
      });
      await response.arrayBuffer();
      statuses[response.status] = (statuses[response.status] ?? 0) + 1;
      if (response.status === 429 || response.status === 503) await pause(PAUSE_AFTER_REFUSAL_MS);
    }
  }
  const senders = [];
  for (let address = 1; address <= Number(addresses); address += 1) {
    for (let lane = 0; lane < Number(inFlight); lane += 1) senders.push(keepSending(`198.51.100.${address}`));
  }
  await Promise.all(senders);
  console.log(JSON.stringify({ statuses, sent, seconds: (performance.now() - started) / 1000 }));
});
console.log('ready');
