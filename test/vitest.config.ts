import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Files that open no database, or only an embedded one whatever the project, run once (PGlite
 * project): on the PostgreSQL project they would repeat the very same work.
 */
const PGLITE_ONLY = [
  // Pure functions and data: no database at all.
  'test/unit/**',
  'test/rest/presenters.test.ts',
  // The facade's sources type-checked in memory against renamed generated types.
  'test/rest/typed-variables.test.ts',
  'test/rest/wp-i18n.test.ts',
  'test/rest/wp-params.test.ts',
  'test/transfer/progress.test.ts',
  // The committed SDL: printed, linted and diffed from the code, no database.
  'test/schema/**',
  // Chromium driving GraphiQL, /docs and the pages: what they check is the browser side; the API
  // under them runs on PostgreSQL in test/server and test/graphql.
  'test/browser/**',
  // Embedded database in a temporary directory (DATABASE_URL unset) on either project; cli.test.ts
  // and process.test.ts already skipped their tests on PostgreSQL, after paying for the imports.
  'test/cli/cli.test.ts',
  'test/cli/import-terminal.test.ts',
  'test/server/process.test.ts',
  // HTTP behaviour over a fixture, the same whatever database answers the reads under it: CORS and
  // CSRF refusals, WordPress envelope headers and parameters, the namespace index and /doc, the
  // graphql-http conformance audit, every URL the pages hand out answering 200. The SQL behind those
  // reads runs on PostgreSQL in test/rest, test/graphql and test/web (a second run here
  // only repeated the same HTTP work).
  'test/rest/cross-origin-writes.test.ts',
  'test/rest/wp-envelope.test.ts',
  'test/rest/wp-index.test.ts',
  'test/server/graphql-http-audit.test.ts',
  'test/web/crawl.test.ts',
  // Tools run over the published document (openapi-typescript, Prism): what they check is the
  // document against the HTTP answers; the answers themselves are validated against it on both
  // databases by every other REST test (helpers/openapi-check.ts).
  'test/rest/generated-client.test.ts',
  'test/rest/prism-proxy.test.ts',
];

// Every suite runs on PGlite; with TEST_DATABASE_URL set it runs a second time on PostgreSQL.
// test/helpers/database.ts picks the backend from TEST_BACKEND.
export default defineConfig({
  root: fileURLToPath(new URL('..', import.meta.url)),
  test: {
    include: ['test/**/*.test.ts'],
    globals: false,
    pool: 'forks',
    // vitest's default on a 2-core machine is one worker (cores − 1), so the whole run was
    // sequential, though most files spend their time waiting on server processes, PostgreSQL or
    // Chromium. Two forks overlap those waits; more would only add memory (each fork holds PGlite
    // instances) on two cores. Files share nothing that would collide: every file has its own
    // database (PGlite in memory, or a uniquely named PostgreSQL database), ephemeral ports,
    // temporary directories and Redis prefixes/channels named after its process.
    maxWorkers: 2,
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
        ? [
            {
              extends: true as const,
              test: { name: 'postgres', env: { TEST_BACKEND: 'postgres' }, exclude: [...configDefaults.exclude, ...PGLITE_ONLY] },
            },
          ]
        : []),
    ],
  },
});
