import { createServer } from 'node:http';
import { ConfigError, loadConfig, retiredVariables, type Config } from './config.ts';
import { DatabaseConfigError, openDatabase } from '../db/database.ts';
import { applyMigrations } from '../db/migrate.ts';
import { createLogger } from './logger.ts';

function fail(message: string): never {
  process.stderr.write(`cal-events: ${message}\n`);
  process.exit(1);
}

let config: Config;
try {
  config = loadConfig();
} catch (e) {
  if (e instanceof ConfigError) fail(`invalid configuration: ${e.message}`);
  throw e;
}
const logger = createLogger(config.logLevel);
// Telemetry first, before the database's client exists: Prisma's spans need the instrumentation in place.
const { startTracing, stopTracing } = await import('../telemetry/tracing.ts');
const traced = await startTracing().catch((e: unknown) => fail(`tracing: ${(e as Error).message}`));
if (traced) logger.info({ endpoint: process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || process.env.OTEL_EXPORTER_OTLP_ENDPOINT }, 'tracing: exporting spans over OTLP/HTTP');
if (config.metrics) {
  const [{ enableRequestScope }, { startMetricsListener }] = await Promise.all([import('../telemetry/scope.ts'), import('./metrics-listener.ts')]);
  enableRequestScope();
  await startMetricsListener(config.metrics, logger);
}
for (const retired of retiredVariables()) logger.warn(retired, `${retired.variable} is no longer read: ${retired.instead}`);

// The database opens while the rest of the server loads and builds: an embedded one spends much of
// its start compiling PostgreSQL's WebAssembly, which V8 does on background threads. A failure ends
// the process as soon as it is known.
const opening = openDatabase(config.databaseUrl, {
  dataDir: config.dataDir,
  statementTimeoutMs: config.statementTimeoutMs,
  log: (msg) => logger.info(msg),
}).catch((e: unknown) =>
  fail(e instanceof DatabaseConfigError ? e.message : `cannot open the database: ${(e as Error).message?.split('\n')[0]}`),
);
const [{ buildApp }, { ensureAdmin }, { configureLoginThrottle }, { startHorizonTimer }, { openChangeBus }, { createContext }, { openSharedGeneration }, { startChangePruning }] =
  await Promise.all([
    import('./app.ts'),
    import('../services/users.ts'),
    import('../services/throttle.ts'),
    import('../services/recurrence.ts'),
    import('../services/changes.ts'),
    import('../services/context.ts'),
    import('./cache/freshness.ts'),
    import('../services/change-log.ts'),
  ]);
const db = await opening;
try {
  // Printed before any migration runs: an operator sees where a slow first start spends its time,
  // and test/db/killed-first-start.test.ts aims its kills after it.
  logger.info({ database: db.kind }, 'applying pending migrations');
  const applied = await applyMigrations(db);
  if (applied.length) logger.info({ applied }, 'migrations applied');
  if (config.admin) {
    const result = await ensureAdmin(db.prisma, config.admin.login, config.admin.password);
    logger.info({ login: config.admin.login, result }, 'bootstrap administrator');
  }
} catch (e) {
  await db.close().catch(() => {});
  fail(`database setup failed: ${(e as Error).message?.split('\n')[0]}`);
}

const closeThrottle = configureLoginThrottle({ ...config.authThrottle, redis: config.redis, logger });
if (!config.redis && config.authThrottle.limit > 0) logger.info('sign-in throttling counts per process (set REDIS_URL to share it between instances)');

const changes = await openChangeBus({ redisUrl: config.redisUrl, databaseUrl: config.databaseUrl, channel: config.changesChannel, logger }).catch(
  async (e: unknown) => {
    await db.close().catch(() => {});
    return fail(`change bus: ${(e as Error).message?.split('\n')[0]}`);
  },
);
logger.info({ transport: changes.transport }, 'change bus ready');
// Several processes on one PostgreSQL: cached reads are exact across them (src/server/cache/freshness.ts).
const generation = config.cache.ttlS > 0 ? openSharedGeneration(config.databaseUrl, logger) : null;
const { app, freshness, changes: bus, websockets, streams, purger, drain, webhooks } = buildApp({ config, db, logger, changes, generation });
if (config.metrics) {
  // Read on scrape only, one cheap query each: how far this process's log tailer (its subscribers'
  // feed) is behind the change log, and the webhook queue.
  const [metrics, { changeLogTailer }, { webhookQueueStats }] = await Promise.all([
    import('../telemetry/metrics.ts'),
    import('../services/change-log.ts'),
    import('../services/webhook-delivery.ts'),
  ]);
  metrics.sampleOnScrape(async () => {
    const backlog = await changeLogTailer(db.prisma, bus).backlog();
    metrics.changeLog.backlogRows.set(backlog.rows);
    metrics.changeLog.backlogSeconds.set(backlog.seconds);
  });
  metrics.sampleOnScrape(async () => {
    const queue = await webhookQueueStats(db.prisma);
    metrics.webhooks.pending.set(queue.pending);
    metrics.webhooks.oldestPending.set(queue.oldestPendingSeconds);
    metrics.webhooks.endpoints.set({ state: 'enabled' }, queue.enabled);
    metrics.webhooks.endpoints.set({ state: 'disabled' }, queue.disabled);
  });
}
// Recurring series: materialize occurrences as the horizon moves forward. The first
// check waits a second after the server listens: compiling its queries (Prisma's query compiler,
// WebAssembly) was about a tenth of the CPU of a start, and a check made hourly loses nothing by
// starting a second late.
let stopHorizonTimer = () => {};
const startHorizonChecks = () => {
  const delay = setTimeout(() => {
    stopHorizonTimer = startHorizonTimer(
      () => createContext({ prisma: db.prisma, settings: config.site, changes: bus }),
      (err) => logger.error({ err }, 'recurrence horizon check failed'),
      undefined,
      () => freshness?.written() ?? Promise.resolve(),
    );
    // The change log keeps CAL_CHANGES_RETENTION_DAYS; older cursors are refused (CURSOR_EXPIRED).
    const stopPruning = startChangePruning(db.prisma, config.changesRetentionDays, (err) => logger.error({ err }, 'change log prune failed'));
    const stopChecks = stopHorizonTimer;
    stopHorizonTimer = () => {
      stopChecks();
      stopPruning();
    };
  }, 1000);
  delay.unref();
  stopHorizonTimer = () => clearTimeout(delay);
};
const server = createServer({ headersTimeout: config.headersTimeoutMs, requestTimeout: config.requestTimeoutMs }, app.callback());
server.keepAliveTimeout = 65_000;
websockets.attach(server);
server.on('error', (e: NodeJS.ErrnoException) => fail(`cannot listen on ${config.host}:${config.port}: ${e.code ?? e.message}`));
server.listen(config.port, config.host, () => {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  logger.info({ host: config.host, port, database: db.kind }, `cal-events listening on http://${config.host}:${port}`);
  startHorizonChecks();
  webhooks.setOrigin(`http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`);
  if (config.webhooks.deliver) webhooks.start();
});

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  stopHorizonTimer();
  const webhooksStopped = webhooks.stop();
  if (config.drainDelayMs > 0) {
    // Out of the load balancer's rotation first (its probe of /readyz fails), still serving
    // whatever it sends meanwhile; then the listener closes.
    drain();
    logger.info({ signal, drainDelayMs: config.drainDelayMs }, 'draining: /readyz answers 503, requests are still served');
    await new Promise((resolve) => setTimeout(resolve, config.drainDelayMs));
  }
  logger.info({ signal }, 'shutting down: no new connections, finishing in-flight requests');
  const timer = setTimeout(() => {
    logger.warn('in-flight requests did not finish in time; closing connections');
    server.closeAllConnections();
  }, config.shutdownTimeoutMs);
  timer.unref();
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  // Subscriptions last as long as their clients: ended now, their clients reconnect elsewhere.
  await websockets.close();
  const broken = streams.breakAll();
  if (broken) logger.info({ streams: broken }, 'subscriptions over SSE ended; their clients reconnect');
  await closed;
  await webhooksStopped;
  await closeThrottle();
  await purger?.close();
  await changes.close().catch((e: unknown) => logger.error({ err: e }, 'closing the change bus failed'));
  await generation?.close().catch(() => {});
  await db.close().catch((e: unknown) => logger.error({ err: e }, 'closing the database failed'));
  await stopTracing().catch(() => {});
  logger.info('stopped');
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
