import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const README = fs.readFileSync('README.md', 'utf8');

describe('README.md', () => {
  it('stays a front page of at most 250 lines, the depth living in docs/', () => {
    expect(README.split('\n').length).toBeLessThanOrEqual(250);
  });

  it('links only to documentation files that exist', () => {
    const links = [...README.matchAll(/\]\((docs\/[^)#]+)(?:#[^)]*)?\)/g)].map((match) => match[1]!);
    expect(links.length).toBeGreaterThan(5);
    for (const link of links) expect(fs.existsSync(path.resolve(link)), link).toBe(true);
  });
});
