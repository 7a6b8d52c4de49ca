import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

/**
 * Test projects. Run everything with `npx vitest run`, one project with `npx vitest run --project server`.
 *
 * The server project runs the back-end unit tests (next to the code) and the HTTP integration tests
 * (tests/integration), each of which runs its suites on SQLite and on PostgreSQL
 * (postgres://postgres@127.0.0.1:5432/test; set SKIP_POSTGRES=1 to leave PostgreSQL out).
 */
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'server',
          environment: 'node',
          include: ['tests/**/*.test.ts', 'src/server/**/*.test.ts', 'src/shared/**/*.test.ts'],
          // Browser end-to-end tests belong to Playwright, not to Vitest.
          exclude: ['tests/e2e/**', '**/node_modules/**'],
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
          setupFiles: ['src/web/test/setup.ts'],
          testTimeout: 20_000,
        },
      },
    ],
  },
});
