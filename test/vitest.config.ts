import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Every suite runs on PGlite; with TEST_DATABASE_URL set it runs a second time on PostgreSQL.
// test/helpers/database.ts picks the backend from TEST_BACKEND.
export default defineConfig({
  root: fileURLToPath(new URL('..', import.meta.url)),
  test: {
    include: ['test/**/*.test.ts'],
    globals: false,
    pool: 'forks',
    // Budgets for a shared 2-core machine under load (load average 25–30 beside other runs and
    // builds): a test that takes 1–3 s alone took 10–20 s there, a server start in a hook 30–70 s.
    testTimeout: 60_000,
    hookTimeout: 180_000,
    projects: [
      {
        extends: true,
        test: { name: 'pglite', env: { TEST_BACKEND: 'pglite' }, globalSetup: ['test/helpers/database.ts'] },
      },
      ...(process.env.TEST_DATABASE_URL
        ? [{ extends: true as const, test: { name: 'postgres', env: { TEST_BACKEND: 'postgres' } } }]
        : []),
    ],
  },
});
