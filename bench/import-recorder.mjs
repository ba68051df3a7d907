// Preloaded with --import: records every module URL the process resolves, for the heavy-package report.
import { register } from 'node:module';
import { MessageChannel } from 'node:worker_threads';

const { port1, port2 } = new MessageChannel();
globalThis.resolvedModuleUrls = new Set();
port1.on('message', (url) => globalThis.resolvedModuleUrls.add(url));
port1.unref();
register('./import-hooks.mjs', { parentURL: import.meta.url, data: { port: port2 }, transferList: [port2] });
