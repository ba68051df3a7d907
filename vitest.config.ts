import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    // Run by `npm run test:deployed`, against the platform's build output.
    exclude: ['tests/deployed/**', 'node_modules/**'],
    globalSetup: ['tests/support/global-setup.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores: more workers only contend for them.
    maxWorkers: 2,
    // The summary says why each skipped test was skipped.
    reporters: ['default', './tests/support/skip-reasons-reporter.ts'],
  },
});
