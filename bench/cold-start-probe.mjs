// Runs in a fresh Node process: imports one compiled function, serves one request, prints timings as JSON.
import http from 'node:http';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

const [modulePath, requestPath, method] = process.argv.slice(2);
const HEAVY = ['sharp', 'grammy', 'cloudinary', 'resend'];

const importStarted = performance.now();
const { default: handler } = await import(pathToFileURL(modulePath).href);
const importMs = performance.now() - importStarted;

const server = http.createServer((req, res) => void handler(req, res));
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const requestStarted = performance.now();
const response = await fetch(`http://127.0.0.1:${server.address().port}${requestPath}`, { method });
await response.arrayBuffer();
const firstRequestMs = performance.now() - requestStarted;
server.close();

await new Promise((resolve) => setImmediate(resolve));
const loaded = [...(globalThis.resolvedModuleUrls ?? []), ...Object.keys(createRequire(import.meta.url).cache)];
const heavy = HEAVY.filter((name) => loaded.some((url) => url.includes(`/node_modules/${name}/`)));
process.stdout.write(`${JSON.stringify({ importMs, firstRequestMs, status: response.status, heavy })}\n`);
process.exit(0);
