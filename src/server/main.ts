import { createServer } from 'node:http';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { DatabaseConfigError, openDatabase } from '../db/database.ts';
import { applyMigrations } from '../db/migrate.ts';
import { createLogger } from './logger.ts';
import { configureImageImport } from '../services/image-import.ts';
import { ensureAdmin } from '../services/users.ts';
import { startHorizonTimer } from '../services/recurrence.ts';
import { createContext } from '../context.ts';

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
configureImageImport({ allowPrivate: config.allowPrivateImageUrls });

const db = await openDatabase(config.databaseUrl, { dataDir: config.dataDir }).catch((e: unknown) =>
  fail(e instanceof DatabaseConfigError ? e.message : `cannot open the database: ${(e as Error).message?.split('\n')[0]}`),
);
try {
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

const { app } = buildApp({ config, db, logger });
// Recurring series: materialize occurrences as the horizon moves forward (issue 13).
const stopHorizonTimer = startHorizonTimer(
  () => createContext({ prisma: db.prisma, settings: config.site }),
  (err) => logger.error({ err }, 'recurrence horizon check failed'),
);
const server = createServer(app.callback());
server.keepAliveTimeout = 65_000;
server.on('error', (e: NodeJS.ErrnoException) => fail(`cannot listen on ${config.host}:${config.port}: ${e.code ?? e.message}`));
server.listen(config.port, config.host, () => {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  logger.info({ host: config.host, port, database: db.kind }, `cal-events listening on http://${config.host}:${port}`);
});

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  stopHorizonTimer();
  logger.info({ signal }, 'shutting down: no new connections, finishing in-flight requests');
  const timer = setTimeout(() => {
    logger.warn('in-flight requests did not finish in time; closing connections');
    server.closeAllConnections();
  }, config.shutdownTimeoutMs);
  timer.unref();
  server.closeIdleConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await db.close().catch((e: unknown) => logger.error({ err: e }, 'closing the database failed'));
  logger.info('stopped');
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
