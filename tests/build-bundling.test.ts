import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { assertNoDefaultOnlyDynamicChunks } from '../lib/platform/commonjs-named-exports.js';
import { writeBuildOutput } from '../lib/platform/build-output-writer.js';
import { callInBareProcess } from './support/bare-function.js';

const PROJECT_DIR = path.resolve('.');
const FIXTURE = path.resolve('tests/fixtures/bundling/dynamic-commonjs.ts');
const fixture = (name: string) => ({ file: name, pattern: `/api/${name}`, modulePath: path.resolve(`tests/fixtures/bundling/${name}.ts`) });
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

  it('carries the one file a module resolves by path at run time, which no import names, and the function reads it under plain Node', async () => {
    const outputDir = path.join(workDir, 'run-time-file');
    await writeBuildOutput(PROJECT_DIR, outputDir, [fixture('run-time-file')]);
    const funcDir = path.join(outputDir, 'functions', 'api', 'run-time-file.func');
    const answer = await callInBareProcess(funcDir, { method: 'GET', url: 'http://localhost/api/run-time-file' }, { PATH: process.env.PATH });
    const original = createRequire(import.meta.url).resolve('swagger-ui-dist/favicon-32x32.png');
    expect(answer).toEqual({ status: 200, body: String(fs.statSync(original).size), stderr: '' });
    const carried = fs.readdirSync(path.join(funcDir, 'node_modules', 'swagger-ui-dist')).sort();
    expect(carried).toEqual(['favicon-32x32.png', 'package.json']);
  });

  it('keeps a package with native code out of the bundle, found by the build, and carries it with its addon', async () => {
    const outputDir = path.join(workDir, 'native-package');
    await writeBuildOutput(PROJECT_DIR, outputDir, [fixture('native-package')]);
    const funcDir = path.join(outputDir, 'functions', 'api', 'native-package.func');
    expect(fs.readFileSync(path.join(funcDir, 'index.mjs'), 'utf8')).toMatch(/^import \w+ from "sharp";$/m);
    const addons = fs.readdirSync(path.join(funcDir, 'node_modules', '@img'), { recursive: true }).map(String).filter((file) => file.endsWith('.node'));
    expect(addons).toHaveLength(1);
    const answer = await callInBareProcess(funcDir, { method: 'GET', url: 'http://localhost/api/native-package' }, { PATH: process.env.PATH });
    expect(answer).toEqual({ status: 200, body: '3x2', stderr: '' });
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
