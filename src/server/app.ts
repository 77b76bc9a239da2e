import { randomUUID } from 'node:crypto';
import Koa from 'koa';
import type { Logger } from 'pino';
import { schema } from '../../schema/index.ts';
import { createRestDispatch, createRestMiddleware } from '../../rest-facade/router.ts';
import { authenticate } from './auth.ts';
import type { Config } from './config.ts';
import { createContext, type AppState } from '../services/context.ts';
import type { Database } from '../db/database.ts';
import { processChangeBus, type ChangeBus } from '../services/changes.ts';
import { createExecutor, createGraphQLServer } from './yoga.ts';
import { createWebRouter } from '../web/routes.ts';
import { withQueryBudget } from '../db/request-budget.ts';
import { corsHeaders, securityHeaders } from './http-headers.ts';
import { graphiqlAssets } from './graphiql.ts';
import { uploadsMiddleware } from './uploads.ts';
import { ResponseCache } from './response-cache.ts';
import type { CacheGeneration } from './cache-generation.ts';
import { httpCaching } from './http-cache.ts';
import { graphqlWebSockets } from './graphql-ws.ts';
import { SurrogateKeys } from '../domain/surrogate-keys.ts';
import { surrogateHeaders } from './surrogate-headers.ts';
import { createPurger } from './purge.ts';

/**
 * The Koa app: health probes, `/graphql` (Yoga + GraphiQL) and the REST facade over one core.
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
  const purger = config.purgeUrl ? createPurger({ url: config.purgeUrl, logger }) : null;
  if (purger) bus.onPublish(purger.hook);
  const yoga = createGraphQLServer(schema, { logger, limits: config.graphql, cache, trustedDocuments: config.trustedDocuments });
  const executor = createExecutor(yoga);

  app.use(async (ctx, next) => {
    const started = performance.now();
    ctx.state.requestId = ctx.get('x-request-id') || randomUUID();
    try {
      // Every SQL statement this request starts counts against one budget (src/db/request-budget.ts).
      await withQueryBudget(config.maxQueriesPerRequest, next);
    } catch (err) {
      logger.error({ err, requestId: ctx.state.requestId }, 'unhandled error');
      ctx.status = 500;
      ctx.body = { code: 'internal_server_error', message: 'Internal server error.', data: { status: 500 } };
    }
    // A write answers once the proxy has dropped what it changed (bounded: src/server/purge.ts).
    if (purger && ctx.method !== 'GET' && ctx.method !== 'HEAD') await purger.settled(1_000);
    logger.debug(
      { requestId: ctx.state.requestId, method: ctx.method, url: ctx.url, status: ctx.status, ms: +(performance.now() - started).toFixed(1) },
      'request',
    );
  });

  app.use(async (ctx, next) => {
    if (ctx.path === '/healthz') {
      ctx.body = { status: 'ok' };
      return;
    }
    securityHeaders(ctx);
    if (ctx.path === '/readyz') {
      try {
        await db.ping();
        ctx.body = { status: 'ok', database: db.kind };
      } catch {
        ctx.status = 503;
        ctx.body = { status: 'unavailable', database: db.kind };
      }
      return;
    }
    await next();
  });

  app.use(graphiqlAssets);
  // Image files kept by this service, public as WordPress's uploads (no sign-in read).
  app.use(uploadsMiddleware(db, { uploadsDir: config.imageImport.uploadsDir, siteUrl: config.siteUrl }));

  app.use(async (ctx, next) => {
    const auth = await authenticate(db.prisma, { header: ctx.get('authorization') || undefined, ip: ctx.ip });
    if ('error' in auth) ctx.state.authError = auth;
    ctx.state.cal = createContext({
      prisma: db.prisma,
      settings: config.site,
      viewer: 'viewer' in auth ? auth.viewer : null,
      now: now?.(),
      changes: bus,
      imageImport: config.imageImport,
      surrogateKeys: new SurrogateKeys(),
    });
    await next();
  });

  // ETag / If-None-Match and Cache-Control of GET reads (REST and GraphQL).
  app.use(httpCaching({ maxAgeS: config.httpMaxAgeS }));
  // Surrogate keys and s-maxage of anonymous reads, from what the resolvers loaded.
  app.use(surrogateHeaders({ maxAgeS: config.httpMaxAgeS, sharedMaxAgeS: config.httpSharedMaxAgeS }));

  app.use(async (ctx, next) => {
    if (ctx.path !== '/graphql') return next();
    corsHeaders(ctx, config.corsOrigins);
    if (ctx.method === 'OPTIONS') {
      ctx.status = 204;
      return;
    }
    const declared = Number(ctx.get('content-length'));
    if (declared > config.bodyLimit || (ctx.get('transfer-encoding') && !ctx.get('content-length') && ctx.method === 'POST')) {
      ctx.status = declared > config.bodyLimit ? 413 : 411;
      ctx.body = {
        errors: [{ message: declared > config.bodyLimit ? `Request body over ${config.bodyLimit} bytes.` : 'POST /graphql needs a Content-Length.', extensions: { code: 'BAD_REQUEST' } }],
      };
      return;
    }
    const failure = ctx.state.authError;
    if (failure?.error === 'throttled') {
      ctx.status = 429;
      ctx.set('Retry-After', String(failure.retryAfter));
      ctx.body = { errors: [{ message: 'Too many failed sign-ins; try again later.', extensions: { code: 'THROTTLED' } }] };
      return;
    }
    if (failure) {
      ctx.status = 401;
      ctx.set('WWW-Authenticate', 'Basic realm="cal-events"');
      ctx.body = { errors: [{ message: 'Invalid credentials.', extensions: { code: 'UNAUTHENTICATED' } }] };
      return;
    }
    // GraphQL has no `context=edit`: a caller who may edit a password-protected record sees it whole.
    const response = await yoga.handleNodeRequestAndResponse(ctx.req, ctx.res, { cal: { ...ctx.state.cal, editContext: true } });
    ctx.status = response.status;
    response.headers.forEach((value, key) => ctx.append(key, value));
    // GET reads (never event streams) are buffered so that they get an ETag (src/server/http-cache.ts).
    const json = /json/.test(response.headers.get('content-type') ?? '');
    ctx.body = (ctx.method === 'GET' || ctx.method === 'HEAD') && json ? Buffer.from(await response.arrayBuffer()) : response.body;
  });

  // One REST facade: served over HTTP below, and called in-process by the pages and feeds.
  const rest = createRestDispatch({ executor, config, logger, now });
  app.use(createWebRouter({ rest, executor, config, now }));
  app.use(createRestMiddleware(rest));
  // GraphQL over WebSocket on /graphql: the HTTP server hands its upgrades to `websockets.attach(server)`.
  const websockets = graphqlWebSockets({ yoga, db, config, changes: bus, now });
  return { app, yoga, executor, cache, changes: bus, websockets, purger };
}
