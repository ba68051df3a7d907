import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';

/** Debian's Chromium, which playwright-core drives (it downloads no browser of its own). */
const CHROMIUM = '/usr/bin/chromium';
export const hasChromium = fs.existsSync(CHROMIUM);
/** Why a browser test is skipped, printed with it in the run's summary. */
export const NO_CHROMIUM = `${CHROMIUM} is not installed (apt-get install chromium)`;

/** A browser test's time: the reference page alone took 30-40 s to load and run on a loaded two-core machine. */
export const BROWSER_TEST = { timeout: 150_000 };

const BROWSER_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * The file's headless browser, started before its tests and closed after them, with a profile of
 * its own. Each browser test begins `ctx.skip(!hasChromium, NO_CHROMIUM)`: the one skip this suite
 * allows, and it says why.
 */
export function useBrowser(): { readonly context: BrowserContext } {
  let userDataDir: string | undefined;
  let context: BrowserContext | undefined;
  beforeAll(async () => {
    if (!hasChromium) return;
    userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mkt-browser-'));
    context = await chromium.launchPersistentContext(userDataDir, { executablePath: CHROMIUM, headless: true, args: BROWSER_ARGS });
    // Waits for what a test asserts as long as the test may run, not Playwright's 30 s.
    context.setDefaultTimeout(BROWSER_TEST.timeout);
  });
  afterAll(async () => {
    await context?.close();
    if (userDataDir) fs.rmSync(userDataDir, { recursive: true, force: true });
  });
  return {
    get context() {
      if (!context) throw new Error('The browser starts in beforeAll, and only where Chromium is installed');
      return context;
    },
  };
}
