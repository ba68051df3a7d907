import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const README = fs.readFileSync('README.md', 'utf8');
const DOCUMENTS = ['README.md', ...fs.readdirSync('docs').filter((file) => file.endsWith('.md')).map((file) => `docs/${file}`)];

/** The text outside fenced code blocks and inline code, where a link or a heading is one. */
function prose(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, (code) => code.replace(/[[\]()#]/g, ' '));
}

/** The anchors a page's headings get, as the repository host makes them (`## Read plans` is `#read-plans`). */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  for (const [, heading] of markdown.replace(/^```[\s\S]*?^```/gm, '').matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm)) {
    const slug = heading!
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    let anchor = slug;
    for (let count = 1; anchors.has(anchor); count += 1) anchor = `${slug}-${count}`;
    anchors.add(anchor);
  }
  return anchors;
}

/** Every relative link of a page, `[text](target#anchor)`, as the file and anchor it points at. */
function linksOf(document: string): Array<{ target: string; file: string; anchor: string | undefined }> {
  return [...prose(fs.readFileSync(document, 'utf8')).matchAll(/\]\(([^)\s]+)\)/g)]
    .map((match) => match[1]!)
    .filter((target) => !/^[a-z]+:/i.test(target))
    .map((target) => {
      const [file, anchor] = target.split('#') as [string, string | undefined];
      return { target, file: file === '' ? document : path.join(path.dirname(document), file), anchor };
    });
}

describe('README.md', () => {
  it('stays a front page of at most 250 lines, the depth living in docs/', () => {
    expect(README.split('\n').length).toBeLessThanOrEqual(250);
  });
});

describe('links in README.md and docs/', () => {
  it.each(DOCUMENTS)('%s links only to files that exist, and to sections those files have', (document) => {
    for (const link of linksOf(document)) {
      expect(fs.existsSync(link.file), `${document}: ${link.target}`).toBe(true);
      if (link.anchor !== undefined) expect(anchorsOf(fs.readFileSync(link.file, 'utf8')), `${document}: ${link.target}`).toContain(link.anchor);
    }
  });

  it('are found where they are written: the README links to most pages of docs/, and to a section of one', () => {
    const targets = linksOf('README.md').map((link) => link.target);
    expect(targets.filter((target) => target.startsWith('docs/')).length).toBeGreaterThan(10);
    expect(targets).toContain('docs/performance.md#read-plans');
    expect(anchorsOf('## Channel posting that survives the Bot API, frozen functions and retries\n## Images: `npm run images:backfill`\n## A\n## A')).toEqual(
      new Set(['channel-posting-that-survives-the-bot-api-frozen-functions-and-retries', 'images-npm-run-imagesbackfill', 'a', 'a-1']),
    );
  });
});
