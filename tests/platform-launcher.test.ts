import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { launchFunction, type LaunchedFunction } from '../lib/platform/function-launcher.js';
import { makeTempDir } from './support/databases.js';

/** A `.func` folder as the platform's build writes one: its config and an ES module handler. */
function functionFolder(handlerSource: string): string {
  const dir = makeTempDir('func');
  fs.writeFileSync(path.join(dir, 'package.json'), '{"type":"module"}');
  fs.writeFileSync(path.join(dir, 'handler.js'), handlerSource);
  fs.writeFileSync(path.join(dir, '.vc-config.json'), JSON.stringify({ handler: 'handler.js', launcherType: 'Nodejs', shouldAddHelpers: false }));
  return dir;
}

/** A Node `(req, res)` function alone, which the platform would wrap in its Node helpers. */
const NODE_HANDLER = `
export default async function (req, res) {
  res.end('node');
}`;
/** As the route wrapper exports it: a Node listener carrying the Web `fetch`. */
const WEB_HANDLER = `
async function fetch(request) {
  return Response.json({ method: request.method, streamed: await request.text() });
}
export default Object.assign(async () => undefined, { fetch });`;
/** One Web function per method. */
const METHOD_HANDLERS = `
export async function POST(request) {
  return Response.json({ method: 'POST', streamed: await request.text() });
}`;

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

async function launched(source: string): Promise<LaunchedFunction> {
  const dir = functionFolder(source);
  folders.push(dir);
  return launchFunction(dir);
}

const json = { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"email":"a@example.com"}' };

describe('the platform launcher', () => {
  it('gives a function with a Web `fetch` export the untouched body', async () => {
    const answer = await (await fetch(await serve(await launched(WEB_HANDLER)), json)).json();
    expect(answer).toEqual({ method: 'POST', streamed: '{"email":"a@example.com"}' });
  });

  it('calls the function a module exports for the method, and answers 405 for a method it does not export', async () => {
    const url = await serve(await launched(METHOD_HANDLERS));
    expect(await (await fetch(url, json)).json()).toEqual({ method: 'POST', streamed: '{"email":"a@example.com"}' });
    const get = await fetch(url);
    expect(get.status).toBe(405);
    expect(await get.text()).toBe('');
  });

  it('refuses a module that exports only a Node (req, res) function: every function exports the Web signature', async () => {
    await expect(launched(NODE_HANDLER)).rejects.toThrow('handler.js exports no Web handler (fetch, or one per method)');
  });
});
