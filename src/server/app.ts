import Koa from 'koa';
import type { Logger } from 'pino';
import { schema } from '../../schema/index.ts';
import { createRestDispatch, createRestMiddleware } from '../../rest-facade/router.ts';
import type { Config } from './config.ts';
import type { AppState } from '../services/context.ts';
import type { Database } from '../db/database.ts';
import { processChangeBus, type ChangeBus } from '../services/changes.ts';
import { createExecutor, createGraphQLServer } from './yoga.ts';
import { createWebRouter } from '../web/routes.ts';
import { graphiqlAssets } from './graphiql.ts';
import { uploadsMiddleware } from './uploads.ts';
import { Freshness, type SharedGeneration } from './cache/freshness.ts';
import { ByteCache } from './cache/byte-cache.ts';
import { useCachePolicy } from './cache/policy.ts';
import { createPurger, usePurgeSettled } from './cache/purge.ts';
import { graphqlWebSockets } from './graphql-ws.ts';
import { useRequestLog } from './middleware/request-log.ts';
import { useErrorCatch } from './middleware/error-catch.ts';
import { useQueryBudget } from './middleware/query-budget.ts';
import { useCompression } from './middleware/compression.ts';
import { useHealth, useReadiness } from './middleware/health.ts';
import { useSecurityHeaders } from './middleware/security-headers.ts';
import { useAuthentication, useGraphQLAuthAnswers } from './middleware/authentication.ts';
import { useGraphQLCors } from './middleware/cors.ts';
import { useGraphQLBodyLimit } from './middleware/body-limit.ts';
import { useGraphQL } from './middleware/graphql.ts';
import { LiveStreams } from './live-streams.ts';
import { createServerWebhooks } from './webhooks.ts';
import { changeLogFeed } from '../services/webhook-delivery.ts';

/**
 * The Koa app: health probes, `/graphql` (Yoga + GraphiQL), the pages and the REST facade over one
 * core. Each concern is one small middleware in src/server/middleware/, mounted here in order.
 * `now` replaces the request clock (tests); `changes` is the change bus (default: in-process);
 * `generation` the cache generation shared with other processes (PostgreSQL: src/server/cache/freshness.ts).
 */
export function buildApp({
  config,
  db,
  logger,
  now,
  changes,
  generation,
}: {
  config: Config;
  db: Database;
  logger: Logger;
  now?: () => Date;
  changes?: ChangeBus;
  generation?: SharedGeneration | null;
}) {
  const app = new Koa<AppState>();
  app.proxy = config.trustProxy;
  // A subscriber closing its SSE stream ends the piping of the response early: not an error.
  app.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'ERR_STREAM_PREMATURE_CLOSE') logger.error({ err }, 'response error');
  });
  // Caching (src/server/cache/): the byte cache of anonymous reads, valid while the freshness
  // value is unchanged (every committed write, from any process, moves it on); its policy; purges.
  const bus = changes ?? processChangeBus;
  const freshness = config.cache.ttlS > 0 ? new Freshness(generation ?? null, (err) => logger.error({ err }, 'cache: shared generation unavailable')) : null;
  freshness?.follow(bus);
  const bytes = freshness ? new ByteCache({ ...config.cache, freshness, site: config.site, trustProxy: config.trustProxy, now }) : null;
  // The shared HTTP cache in front: the changes this process commits purge the keys they affect.
  const purger = config.purgeUrls.length ? createPurger({ urls: config.purgeUrls, logger }) : null;
  if (purger) bus.onPublish(purger.hook);
  const yoga = createGraphQLServer(schema, {
    logger,
    limits: config.graphql,
    freshness,
    trustedDocuments: config.trustedDocuments,
    compile: config.compileOperations,
    metrics: config.metrics !== null,
    traceResolvers: config.traceResolvers,
  });
  const executor = createExecutor(yoga);

  app.use(useRequestLog(logger, { metrics: config.metrics !== null }));
  app.use(useErrorCatch(logger));
  if (purger) app.use(usePurgeSettled(purger));
  app.use(useQueryBudget(config.maxQueriesPerRequest));
  app.use(useCompression());
  app.use(useHealth());
  app.use(useSecurityHeaders());
  let draining = false;
  app.use(useReadiness(db, () => draining));
  app.use(graphiqlAssets);
  // Image files kept by this service, public as WordPress's uploads (no sign-in read).
  app.use(uploadsMiddleware(db, { uploadsDir: config.imageImport.uploadsDir, siteUrl: config.siteUrl }));
  if (bytes) app.use(bytes.middleware());
  app.use(useAuthentication(db, { settings: config.site, now, changes: bus, imageImport: config.imageImport, webhookUrls: config.webhooks.urls }));
  // Cache-Control, surrogate keys, ETag / If-None-Match of GET reads (REST, GraphQL, pages, feeds).
  app.use(useCachePolicy({ maxAgeS: config.httpMaxAgeS, sharedMaxAgeS: config.httpSharedMaxAgeS }));

  app.use(useGraphQLCors('/graphql', config.corsOrigins));
  app.use(useGraphQLBodyLimit('/graphql', config.bodyLimit));
  app.use(useGraphQLAuthAnswers('/graphql'));
  const streams = new LiveStreams();
  app.use(useGraphQL('/graphql', yoga, streams));

  // One REST facade: served over HTTP below, and called in-process by the pages and feeds.
  const rest = createRestDispatch({ executor, config, logger, now });
  app.use(createWebRouter({ rest, executor, config, now }));
  app.use(createRestMiddleware(rest));
  // GraphQL over WebSocket on /graphql: the HTTP server hands its upgrades to `websockets.attach(server)`.
  const websockets = graphqlWebSockets({ yoga, db, config, changes: bus, now });
  // Webhooks: a reader of the change log, sending through the facade's JSON. Started by the process
  // (main.ts) once it listens, when CAL_WEBHOOK_DELIVERY is on.
  let origin = `http://${config.host}:${config.port}`;
  const webhooks = createServerWebhooks({ db, config, rest, feed: changeLogFeed(db.prisma, bus), logger, origin: () => origin });
  const setOrigin = (value: string) => void (origin = value);
  /** Stopping soon: `/readyz` answers 503 from now on, while requests are still served. */
  const drain = () => void (draining = true);
  return { app, yoga, executor, freshness, bytes, changes: bus, websockets, streams, purger, drain, webhooks: Object.assign(webhooks, { setOrigin }) };
}
