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
import { ResponseCache } from './response-cache.ts';
import type { CacheGeneration } from './cache-generation.ts';
import { graphqlWebSockets } from './graphql-ws.ts';
import { useRequestLog } from './middleware/request-log.ts';
import { useErrorCatch } from './middleware/error-catch.ts';
import { useQueryBudget } from './middleware/query-budget.ts';
import { useCompression } from './middleware/compression.ts';
import { useHealth, useReadiness } from './middleware/health.ts';
import { useSecurityHeaders } from './middleware/security-headers.ts';
import { ByteCache } from './middleware/byte-cache.ts';
import { useAuthentication, useGraphQLAuthAnswers } from './middleware/authentication.ts';
import { useHttpCaching } from './middleware/http-cache.ts';
import { useGraphQLCors } from './middleware/cors.ts';
import { useGraphQLBodyLimit } from './middleware/body-limit.ts';
import { useGraphQL } from './middleware/graphql.ts';
import { useSurrogateKeys } from './middleware/surrogate-keys.ts';
import { usePurgeSettled } from './middleware/purge-settled.ts';
import { createPurger } from './purge.ts';
import { LiveStreams } from './live-streams.ts';

/**
 * The Koa app: health probes, `/graphql` (Yoga + GraphiQL), the pages and the REST facade over one
 * core. Each concern is one small middleware in src/server/middleware/, mounted here in order.
 * `now` replaces the request clock (tests); `changes` is the change bus (default: in-process);
 * `generation` the response cache's generation shared with other processes (PostgreSQL).
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
  generation?: CacheGeneration | null;
}) {
  const app = new Koa<AppState>();
  app.proxy = config.trustProxy;
  // A subscriber closing its SSE stream ends the piping of the response early: not an error.
  app.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'ERR_STREAM_PREMATURE_CLOSE') logger.error({ err }, 'response error');
  });
  // Read results cached in the execution chain both APIs share, emptied by every change on the bus.
  const cache = new ResponseCache({
    ...config.cache,
    shared: generation,
    onError: (err) => logger.error({ err }, 'response cache: shared generation unavailable'),
  });
  const bus = changes ?? processChangeBus;
  cache.follow(bus);
  // The shared HTTP cache in front: the changes this process commits purge the keys they affect.
  const purger = config.purgeUrls.length ? createPurger({ urls: config.purgeUrls, logger }) : null;
  if (purger) bus.onPublish(purger.hook);
  // The final bytes of anonymous reads, valid as long as the response cache's generation is.
  const bytes =
    cache.enabled && config.byteCache.ttlS > 0
      ? new ByteCache({ ...config.byteCache, validity: cache, site: config.site, trustProxy: config.trustProxy, now })
      : null;
  const yoga = createGraphQLServer(schema, { logger, limits: config.graphql, cache, trustedDocuments: config.trustedDocuments });
  const executor = createExecutor(yoga);

  app.use(useRequestLog(logger));
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
  app.use(useAuthentication(db, { settings: config.site, now, changes: bus, imageImport: config.imageImport }));
  // ETag / If-None-Match and Cache-Control of GET reads (REST, GraphQL, pages).
  app.use(useHttpCaching({ maxAgeS: config.httpMaxAgeS }));
  // Surrogate keys and s-maxage of anonymous reads, from what the resolvers loaded.
  app.use(useSurrogateKeys({ maxAgeS: config.httpMaxAgeS, sharedMaxAgeS: config.httpSharedMaxAgeS }));

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
  /** Stopping soon: `/readyz` answers 503 from now on, while requests are still served. */
  const drain = () => void (draining = true);
  return { app, yoga, executor, cache, bytes, changes: bus, websockets, streams, purger, drain };
}
