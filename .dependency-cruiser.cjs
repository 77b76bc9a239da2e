/**
 * The import rules of the source tree (`npm run lint:deps`, run by .ci/run): no circle, and every
 * import points down the layers (README, "Architecture"):
 *
 *   src/domain ← src/db ← src/services ← schema ← rest-facade ← src/web ← src/server
 *                                     ↖ src/transfer ← src/cli
 *
 * - src/domain: pure rules; imports nothing of the project.
 * - src/db: opening the database, migrations (and the generated Prisma client).
 * - src/services: every calendar rule; `context.ts` is the per-request Context they all take.
 * - schema: the Pothos GraphQL schema over the services, and `executor.ts`, the interface of
 *   running its operations in-process that the facade and the pages are given.
 * - rest-facade: speaks GraphQL to the core through that executor; never imports the server.
 * - src/web: the public pages; may use the facade's WordPress helpers (URLs, languages, route table).
 * - src/transfer: import/export, on the services.
 * - src/server and src/cli: the two composition roots (the HTTP process, the operator CLI). The
 *   server mounts the facade and the pages through their entry points only (rest-facade/router.ts,
 *   src/web/routes.ts); the CLI reads the server's configuration, cache generation and purger. Nothing
 *   imports a composition root.
 *
 * - src/telemetry: metrics, tracing and the request's telemetry scope; every layer may record into
 *   it, and it imports nothing of the project.
 *
 * `import type` counts (tsPreCompilationDeps). Tests and generated code are not checked.
 */
const layer = {
  domain: '^src/domain/',
  telemetry: '^src/telemetry/',
  db: '^src/db/',
  services: '^src/services/',
  schema: '^schema/',
  facade: '^rest-facade/',
  web: '^src/web/',
  transfer: '^src/transfer/',
  server: '^src/server/',
  cli: '^src/cli/',
};
const any = (...paths) => paths.join('|');

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'A circle of imports (import type included): one of its modules belongs below the others.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'domain-is-pure',
      severity: 'error',
      comment: 'src/domain holds pure rules: it imports only itself and packages.',
      from: { path: layer.domain },
      to: { path: '^(src|schema|rest-facade|prisma)/', pathNot: layer.domain },
    },
    {
      name: 'telemetry-is-a-leaf',
      comment: 'src/telemetry is recorded into by every layer; it imports nothing of the project.',
      severity: 'error',
      from: { path: layer.telemetry },
      to: { path: '^(src|schema|rest-facade|prisma)/', pathNot: layer.telemetry },
    },
    {
      name: 'db-below-services',
      severity: 'error',
      from: { path: layer.db },
      to: { path: any(layer.services, layer.schema, layer.facade, layer.web, layer.transfer, layer.server, layer.cli) },
    },
    {
      name: 'services-below-schema',
      severity: 'error',
      comment: 'The services know nothing of GraphQL, REST, pages, transfer or the processes.',
      from: { path: layer.services },
      to: { path: any(layer.schema, layer.facade, layer.web, layer.transfer, layer.server, layer.cli) },
    },
    {
      name: 'schema-below-its-clients',
      severity: 'error',
      from: { path: layer.schema },
      to: { path: any(layer.facade, layer.web, layer.transfer, layer.server, layer.cli) },
    },
    {
      name: 'facade-below-web-and-server',
      severity: 'error',
      comment: 'The REST facade takes an Executor (schema/executor.ts) and its own options; it never imports the server.',
      from: { path: layer.facade },
      to: { path: any(layer.web, layer.transfer, layer.server, layer.cli) },
    },
    {
      name: 'web-below-server',
      severity: 'error',
      from: { path: layer.web },
      to: { path: any(layer.transfer, layer.server, layer.cli) },
    },
    {
      name: 'transfer-below-cli',
      severity: 'error',
      from: { path: layer.transfer },
      to: { path: any(layer.facade, layer.web, layer.server, layer.cli) },
    },
    {
      name: 'server-mounts-entry-points',
      severity: 'error',
      comment: 'The server mounts the facade and the pages through rest-facade/router.ts and src/web/routes.ts only.',
      from: { path: layer.server },
      to: { path: any(layer.facade, layer.web), pathNot: '^(rest-facade/router|src/web/routes)\\.ts$' },
    },
    {
      name: 'server-is-not-the-cli',
      severity: 'error',
      from: { path: layer.server },
      to: { path: any(layer.transfer, layer.cli) },
    },
    {
      name: 'cli-takes-config-from-server',
      severity: 'error',
      comment: 'The CLI reads the server configuration, bumps its cache generation and purges the shared cache; nothing more of the server, facade or pages.',
      from: { path: layer.cli },
      to: { path: any(layer.facade, layer.web, layer.server), pathNot: '^src/server/(config|cache/freshness|cache/purge)\\.ts$' },
    },
  ],
  options: {
    // Generated code is a leaf: imports of it count, its own are not followed.
    doNotFollow: { path: ['node_modules', '^prisma/generated/', '^rest-facade/generated/'] },
    exclude: { path: ['^dist/', '^test/'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.mjs', '.js', '.cjs', '.json'] },
  },
};
