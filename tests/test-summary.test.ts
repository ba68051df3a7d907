import { execFile } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

describe("the suite's summary", () => {
  it('names every skipped test with the reason it gave, after the counts', { timeout: 120_000 }, async () => {
    const output = await new Promise<string>((resolve, reject) => {
      execFile(
        path.resolve('node_modules/.bin/vitest'),
        ['run', '--config', 'tests/fixtures/skip-reason/vitest.config.ts'],
        { env: { ...process.env, NO_COLOR: '1' }, timeout: 110_000 },
        (error, stdout, stderr) => (error ? reject(new Error(`${error.message}\n${stdout}${stderr}`)) : resolve(stdout)),
      );
    });
    expect(output).toMatch(/Tests\s+1 passed \| 1 skipped \(2\)/);
    const reasons = output.slice(output.indexOf('Skipped, and why:'));
    expect(reasons.split('\n').filter((line) => line.trim() !== '')).toEqual([
      'Skipped, and why:',
      '   tests/fixtures/skip-reason/skipped.fixture.ts > needs something this machine lacks: the thing is not installed',
    ]);
  });
});
