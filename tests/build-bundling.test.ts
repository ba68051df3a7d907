import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { assertNoDefaultOnlyDynamicChunks } from '../lib/platform/commonjs-named-exports.js';
import { writeBuildOutput } from '../lib/platform/build-output-writer.js';
import { callInBareProcess } from './support/bare-function.js';

const PROJECT_DIR = path.resolve('.');
const FIXTURE = path.resolve('tests/fixtures/bundling/dynamic-commonjs.ts');
const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'build-bundling-'));
afterAll(() => fs.rmSync(workDir, { recursive: true, force: true }));

describe('bundling a function for the platform', () => {
  it("keeps a CommonJS package's named exports when the function reaches it through import(), under plain Node", async () => {
    const outputDir = path.join(workDir, 'output');
    await writeBuildOutput(PROJECT_DIR, outputDir, [{ file: 'dynamic-commonjs', pattern: '/api/dynamic-commonjs', modulePath: FIXTURE }]);
    const answer = await callInBareProcess(path.join(outputDir, 'functions', 'api', 'dynamic-commonjs.func'), { method: 'GET', url: 'http://localhost/api/dynamic-commonjs' }, {
      PATH: process.env.PATH,
    });
    expect(answer).toEqual({ status: 200, body: 'function', stderr: '' });
  });

  it('refuses an output in which such a package is a default-only chunk, naming the function', async () => {
    const outdir = path.join(workDir, 'unguarded');
    const result = await build({
      absWorkingDir: PROJECT_DIR,
      entryPoints: { index: FIXTURE },
      outdir,
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      outExtension: { '.js': '.mjs' },
      metafile: true,
      logLevel: 'silent',
    });
    expect(() => assertNoDefaultOnlyDynamicChunks('dynamic-commonjs', result.metafile, PROJECT_DIR)).toThrow(
      /^api\/dynamic-commonjs: functions-\w+\.mjs is a CommonJS package reached by import\(\) whose named exports are lost under plain Node$/,
    );
  });
});
