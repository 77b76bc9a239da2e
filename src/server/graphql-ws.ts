import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
import type { ExecutionArgs, GraphQLError } from 'graphql';
import { createContext, type Viewer } from '../services/context.ts';
import type { Database } from '../db/database.ts';
import { withQueryBudget } from '../db/request-budget.ts';
import type { ChangeBus } from '../services/changes.ts';
import { authenticate } from './auth.ts';
import type { Config } from './config.ts';
import type { GraphQLServer } from './yoga.ts';
import { isTrustedDocument } from './persisted-operations.ts';
import { live } from '../telemetry/metrics.ts';
import { createGraphQLError } from 'graphql-yoga';

/** What one connection keeps: its caller, authenticated once when the connection opens. */
type ConnectionExtra = {
  viewer?: Viewer | null;
};

type Enveloped = ReturnType<GraphQLServer['getEnveloped']>;

/** Close code of a connection refused for too many failed sign-ins (4400–4999 are the application's). */
const THROTTLED = 4429;

const isGraphQLError = (e: unknown): e is GraphQLError => e instanceof Error && e.name === 'GraphQLError';

/**
 * GraphQL over WebSocket (`graphql-transport-ws`, the `graphql-ws` library) on `/graphql`, next to
 * HTTP and SSE on the same path. Every operation runs through Yoga's envelop chain
 * (`yoga.getEnveloped`: the same limits, masking and context as HTTP); subscriptions
 * listen on the same change bus as SSE, judged with the connection's caller.
 *
 * Authentication is HTTP Basic, once per connection: `connectionParams.authorization`
 * (`'Basic …'`), else the upgrade request's `Authorization` header — the latter only from a page of
 * this host or of an origin in `CAL_CORS_ORIGINS`, since a browser may attach remembered Basic
 * credentials to a cross-site WebSocket (cross-site WebSocket hijacking). Wrong credentials close
 * the connection with 4403 (Forbidden), too many failed sign-ins with 4429.
 */
export function graphqlWebSockets(opts: { yoga: GraphQLServer; db: Database; config: Config; changes: ChangeBus; now?: () => Date }) {
  const { yoga, db, config, changes, now } = opts;
  const wss = new WebSocketServer({ noServer: true, maxPayload: config.bodyLimit });
  // The enveloped functions of each operation, found again by its context in execute/subscribe.
  const enveloped = new WeakMap<object, Enveloped>();

  const clientIp = (request: IncomingMessage) => {
    const forwarded = config.trustProxy ? String(request.headers['x-forwarded-for'] ?? '').split(',')[0]?.trim() : '';
    return forwarded || request.socket.remoteAddress || null;
  };
  const trustedOrigin = (request: IncomingMessage) => {
    const origin = request.headers.origin;
    if (!origin) return true; // not a browser
    if (config.corsOrigins.includes(origin)) return true;
    try {
      return new URL(origin).host === request.headers.host;
    } catch {
      return false;
    }
  };
  const budgeted = <T>(run: () => Promise<T>) => withQueryBudget(config.maxQueriesPerRequest, run);

  useServer<Record<string, unknown> | undefined, ConnectionExtra>(
    {
      onConnect: async (ctx) => {
        const params = ctx.connectionParams ?? {};
        const given = params.authorization ?? params.Authorization;
        const fromHeader = trustedOrigin(ctx.extra.request) ? ctx.extra.request.headers.authorization : undefined;
        const header = typeof given === 'string' ? given : fromHeader;
        const auth = await authenticate(db.prisma, { header: header || undefined, ip: clientIp(ctx.extra.request) });
        if ('error' in auth) {
          if (auth.error === 'throttled') ctx.extra.socket.close(THROTTLED, `Too many failed sign-ins; retry after ${auth.retryAfter} s`);
          return false;
        }
        ctx.extra.viewer = auth.viewer;
        return true;
      },
      onSubscribe: async (ctx, _id, payload) => {
        // GraphQL has no `context=edit`: a caller who may edit a password-protected record sees it whole (as over HTTP).
        const cal = createContext({
          prisma: db.prisma,
          settings: config.site,
          viewer: ctx.extra.viewer ?? null,
          now: now?.(),
          changes,
          imageImport: config.imageImport,
          webhookUrls: config.webhooks.urls,
          editContext: true,
        });
        // Trusted documents: an anonymous caller runs only the manifest's operations, by ID or by their very
        // text; anyone may name one by ID (`extensions.documentId` / `doc_id`: a persisted client sends no text).
        let query = payload.query;
        if (config.trustedDocuments) {
          const trusted = isTrustedDocument(config.trustedDocuments, query, payload.extensions);
          if (trusted !== null) query = trusted;
          else if (!cal.viewer) {
            return [createGraphQLError('Only trusted operations may be run without signing in.', { extensions: { code: 'PERSISTED_QUERY_ONLY' } })];
          }
        }
        const chain = yoga.getEnveloped({ cal });
        // Parse and validation refusals (syntax, unknown fields, Armor's limits, which throw) are the client's: sent as errors.
        let document;
        try {
          document = chain.parse(query);
          const errors = chain.validate(chain.schema, document);
          if (errors.length) return errors;
        } catch (e) {
          if (isGraphQLError(e)) return [e];
          throw e;
        }
        const contextValue = await chain.contextFactory();
        enveloped.set(contextValue, chain);
        const args: ExecutionArgs = {
          schema: chain.schema,
          document,
          operationName: payload.operationName,
          variableValues: payload.variables,
          contextValue,
        };
        return args;
      },
      // Each query or mutation, and each delivery of a subscription, gets its own database budget.
      execute: (args) => budgeted(async () => enveloped.get(args.contextValue as object)!.execute(args)),
      subscribe: async (args) => {
        const result = await budgeted(async () => enveloped.get(args.contextValue as object)!.subscribe(args));
        if (!(Symbol.asyncIterator in result)) return result;
        const iterator = result[Symbol.asyncIterator]();
        // Open until the client completes it, its socket closes (graphql-ws calls return()) or it ends.
        live.subscriptions.inc({ transport: 'websocket' });
        let open = true;
        const closed = () => void (open && ((open = false), live.subscriptions.dec({ transport: 'websocket' })));
        return {
          [Symbol.asyncIterator]() {
            return this;
          },
          next: () =>
            budgeted(() => iterator.next() as Promise<IteratorResult<unknown>>).then(
              (r: IteratorResult<unknown>) => (r.done && closed(), r),
              (e: unknown) => (closed(), Promise.reject(e)),
            ),
          return: () => (closed(), iterator.return?.() ?? Promise.resolve({ done: true as const, value: undefined })),
          throw: (e?: unknown) => iterator.throw?.(e) ?? Promise.reject(e),
        };
      },
    },
    wss,
  );

  return {
    /** Serves WebSocket upgrades of `/graphql` on `server`; other upgrades are refused. */
    attach(server: Server) {
      server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
        const path = (request.url ?? '').split('?')[0];
        if (path !== '/graphql') {
          socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
          return;
        }
        wss.handleUpgrade(request, socket, head, (ws) => wss.emit('connection', ws, request));
      });
    },
    /** Closes every connection (server shutdown). */
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of wss.clients) client.close(1001, 'Server shutting down');
        wss.close(() => resolve());
      }),
  };
}
