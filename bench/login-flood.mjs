// The sign-in flood of the bench, sent from its own process as an attacker's would be: its
// connections and answers never share an event loop with the latency being measured.
//
//   node bench/login-flood.mjs <login URL> <count> <e-mail prefix>
//
// Prints `ready`, fires `count` wrong sign-ins at once when a line arrives on stdin, then prints
// { statuses: { <status>: <count> }, seconds } (time to the last answer) as one JSON line.
import readline from 'node:readline';

const [url, count, prefix] = process.argv.slice(2);

function wrongLogin(email) {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: 'not-the-password' }) });
}

const lines = readline.createInterface({ input: process.stdin });
lines.once('line', async () => {
  lines.close();
  const started = performance.now();
  const statuses = {};
  await Promise.all(
    Array.from({ length: Number(count) }, async (_, index) => {
      const response = await wrongLogin(`${prefix}-${index}@example.com`);
      await response.arrayBuffer();
      statuses[response.status] = (statuses[response.status] ?? 0) + 1;
    }),
  );
  console.log(JSON.stringify({ statuses, seconds: (performance.now() - started) / 1000 }));
});
console.log('ready');
