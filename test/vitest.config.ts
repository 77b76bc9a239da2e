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
    testTimeout: 15_000,
    hookTimeout: 60_000,
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
