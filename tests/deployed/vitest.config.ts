import { defineConfig } from 'vitest/config';

/**
 * The works-as-deployed suite: the platform's build output (`npm run build:vercel`) served as the
 * platform serves it, side by side with the local server. `npm run test:deployed` builds and runs it.
 */
export default defineConfig({
  test: {
    include: ['tests/deployed/**/*.test.ts'],
    globalSetup: ['tests/support/global-setup.ts'],
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 120_000,
    maxWorkers: 1,
  },
});
