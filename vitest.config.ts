import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

/**
 * Test projects, run by `npm test` through the scripts named after them:
 * - unit (`npm run test:unit`, with web): the back-end's and shared code's unit tests, next to the code;
 * - web (`npm run test:unit`): the web app's component tests, in jsdom;
 * - integration (`npm run test:integration`): the HTTP tests in tests/integration (and a wing's own,
 *   `*.integration.test.ts` beside its code), each of which runs
 *   its suites on SQLite and on PostgreSQL (postgres://postgres@127.0.0.1:5432/test; SKIP_POSTGRES=1
 *   leaves PostgreSQL out, and says so).
 * One project alone: `npx vitest run --project integration tests/integration/auth.test.ts`.
 */
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          environment: 'node',
          // bench/lib holds test doubles other tests lean on (the local push service): they are tested too.
          include: ['src/server/**/*.test.ts', 'src/shared/**/*.test.ts', 'bench/lib/**/*.test.ts'],
          exclude: ['**/*.integration.test.ts', '**/node_modules/**'],
          testTimeout: 20_000,
        },
      },
      {
        test: {
          name: 'integration',
          environment: 'node',
          // A wing's own HTTP tests sit in it when they need its inner parts (the public site's fast path).
          include: ['tests/integration/**/*.test.ts', 'src/server/**/*.integration.test.ts'],
          globalSetup: ['tests/support/global-setup.ts'],
          // better-sqlite3 is a native module: separate processes are the safe choice.
          pool: 'forks',
          testTimeout: 20_000,
          hookTimeout: 30_000,
        },
      },
      {
        // The web app's component tests: logic that lives in components (guard, forms, paging, search).
        plugins: [react()],
        test: {
          name: 'web',
          environment: 'jsdom',
          include: ['src/web/**/*.test.tsx', 'src/web/**/*.test.ts'],
          setupFiles: ['src/web/test/dom-test-setup.ts'],
          testTimeout: 20_000,
        },
      },
    ],
  },
});
