import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { launchFunction, type LaunchedFunction } from '../lib/platform/function-launcher.js';
import { makeTempDir } from './support/databases.js';

/** A `.func` folder as the platform's build writes one: its config and an ES module handler. */
function functionFolder(handlerSource: string, shouldAddHelpers: boolean): string {
  const dir = makeTempDir('func');
  fs.writeFileSync(path.join(dir, 'package.json'), '{"type":"module"}');
  fs.writeFileSync(path.join(dir, 'handler.js'), handlerSource);
  fs.writeFileSync(path.join(dir, '.vc-config.json'), JSON.stringify({ handler: 'handler.js', launcherType: 'Nodejs', shouldAddHelpers }));
  return dir;
}

/** Both read the raw body the way the route wrapper does: by iterating the request stream. */
const NODE_HANDLER = `
export default async function (req, res) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify({ streamed: Buffer.concat(chunks).toString(), helperBody: req.body ?? null }));
}`;
const WEB_HANDLER = `
async function fetch(request) {
  return Response.json({ streamed: await request.text(), helperBody: null });
}
export default Object.assign(async () => undefined, { fetch });`;

const folders: string[] = [];
const servers: http.Server[] = [];
afterAll(() => {
  for (const server of servers) server.close();
  for (const dir of folders) fs.rmSync(dir, { recursive: true, force: true });
});

async function serve(fn: LaunchedFunction): Promise<string> {
  const server = http.createServer((req, res) => void fn.invoke(req, res));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function launched(source: string, helpers: boolean): Promise<LaunchedFunction> {
  const dir = functionFolder(source, helpers);
  folders.push(dir);
  return launchFunction(dir);
}

const json = { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"email":"a@example.com"}' };

describe('the platform launcher', () => {
  it('reads the whole body of a Node-signature function before it runs when its config asks for helpers', async () => {
    const fn = await launched(NODE_HANDLER, true);
    expect(fn.signature).toBe('node');
    const answer = await (await fetch(await serve(fn), json)).json();
    expect(answer).toEqual({ streamed: '', helperBody: { email: 'a@example.com' } });
  });

  it('leaves a Node-signature function the stream when helpers are off', async () => {
    const fn = await launched(NODE_HANDLER, false);
    const answer = await (await fetch(await serve(fn), json)).json();
    expect(answer).toEqual({ streamed: '{"email":"a@example.com"}', helperBody: null });
  });

  it('gives a function with a Web `fetch` export the untouched body, helpers or not', async () => {
    const fn = await launched(WEB_HANDLER, true);
    expect(fn.signature).toBe('web');
    const answer = await (await fetch(await serve(fn), json)).json();
    expect(answer).toEqual({ streamed: '{"email":"a@example.com"}', helperBody: null });
  });
});
