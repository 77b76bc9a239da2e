/**
 * The WordPress REST server over route definitions: `createWpRestDispatch()` answers one HTTP
 * request (WpHttpRequest → WpHttpResponse, or null when the path is not a REST one), and
 * `createWpRestMiddleware()` is its Koa adapter (request from `ctx`, answer copied onto `ctx`);
 * the pages call `dispatch` in-process (src/web/rest-call.ts). Paths served:
 *
 *   /wp-json/                                   root index (REC)
 *   /wp-json/cal/events/v1[/]                   namespace index (§9.1)
 *   /wp-json/cal/events/v1/doc                  OpenAPI document (§9.2)
 *   /wp-json/cal/events/v1/<route>              the given routes
 *   /{lang}/wp-json/…                           the same per language (en fr de es it nl pt pl)
 *   /?rest_route=/cal/events/v1/…, /index.php?rest_route=…   plain-permalink form
 *
 * Any other path under `/wp-json` answers `404 rest_no_route` (JSON, never HTML); paths outside
 * the REST prefixes get null (Koa: the next middleware). The request body is read here.
 *
 * A request goes through the steps of WordPress's `serve_request()` and `dispatch()`: JSONP
 * check, authentication, method override, route match (OPTIONS answers the route's index entry),
 * body, arguments (§1.3 steps 3–5, route.ts), permission (step 6), handler (step 7); every answer
 * gets the `Allow` header of the matched route.
 */
import type { TLSSocket } from 'node:tls';
import type { Context, Middleware } from 'koa';
import { docRoute } from '../doc/build.ts';
import { DEFAULT_BODY_LIMIT, readBody } from './body.ts';
import { WpError, internalError, isWpError, msg, noRoute, wpError } from './errors.ts';
import { getT } from './i18n.ts';
import { namespaceIndex, rootIndex } from './index-builder.ts';
import { createLocator, makeUrls, requestHeader, type Located } from './locate.ts';
import { allowedMethods, checkPermission } from './permission.ts';
import { InvalidValue, percentDecode } from './query-string.ts';
import { ResponseWriter, isValidJsonpCallback, sendWp, wpResponse, type SendOptions } from './response.ts';
import { compileRoute, matchRoute, mergeSources, processArgs, routeIndexEntry, routesForPath, type CompiledRoute } from './route.ts';
import { routeMatched } from '../../src/telemetry/scope.ts';
import { inSpan } from '../../src/telemetry/tracing.ts';
import {
  ANONYMOUS,
  DEFAULT_SETTINGS,
  NAMESPACE,
  type ArgEnv,
  type Caller,
  type HttpMethod,
  type Lang,
  type RouteDef,
  type WpHttpRequest,
  type WpHttpResponse,
  type WpRequest,
  type WpResponse,
  type WpSettings,
} from './types.ts';

interface WpLogger {
  error(obj: unknown, msg?: string): void;
  warn?(obj: unknown, msg?: string): void;
}

export interface WpRestOptions {
  /** Resource routes of the namespace, in registration order (the index lists them in this order). */
  routes: readonly RouteDef[];
  /** `{scheme}://{host}[:port][/path]` of the site; derived from the request when absent. */
  siteUrl?: string;
  /** Honour `X-Forwarded-Proto` / `X-Forwarded-Host` when deriving the site URL. */
  trustProxy?: boolean;
  /**
   * Who is calling. Return a Caller (`{anonymous: true}` / an authenticated user), `null`/`undefined`
   * for anonymous, or a WpError to refuse the request (e.g. 401 `incorrect_password`, 403
   * `rest_cookie_invalid_nonce` — answered on every route, before routing, like WordPress); it may
   * set headers of the answer (`Retry-After`).
   */
  authenticate?: (request: WpHttpRequest, out: ResponseWriter) => Caller | WpError | null | undefined | Promise<Caller | WpError | null | undefined>;
  logger?: WpLogger;
  /** Site settings (merged over the defaults), or a function giving the live ones. */
  settings?: Partial<WpSettings> | (() => WpSettings | Promise<WpSettings>);
  /** Clock (tests). */
  now?: () => Date;
  /** Body size limit in bytes (default 1 MiB) → 413 above. */
  bodyLimit?: number;
  /**
   * Origins that get `Access-Control-Allow-Credentials`; others get `Access-Control-Allow-Origin: *`.
   * Absent: every origin is echoed with credentials (WordPress's behaviour).
   */
  credentialedOrigins?: readonly string[];
  /** Serve `/doc` (default true; skipped anyway when `routes` has its own `/doc`). */
  includeDoc?: boolean;
  /** Languages served as `/{lang}/…` (default: all catalogs). */
  langs?: readonly Lang[];
}

const METHODS: readonly HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** Answers one request; null when its path is not a REST one. */
export type WpDispatch = (request: WpHttpRequest) => Promise<WpHttpResponse | null>;

/** The Koa adapter: the request from `ctx`, the answer copied onto `ctx` (`Vary` merged into what is there); other paths go to `next`. */
export function createWpRestMiddleware(dispatch: WpDispatch): Middleware {
  return async function wpRest(ctx, next) {
    const answer = await dispatch(koaRequest(ctx));
    if (!answer) return next();
    ctx.status = answer.status;
    for (const [name, value] of Object.entries(answer.headers)) {
      if (name.toLowerCase() === 'vary') ctx.vary(value);
      else ctx.set(name, value);
    }
    // An ASCII body's bytes are its characters: copied once into the buffer that the ETag hashes and
    // the socket sends, instead of a UTF-8 encoding pass for each (1.5 ms of 2 on a 290 KB page).
    const body = answer.body;
    ctx.body = typeof body === 'string' && answer.ascii && body !== '' ? Buffer.from(body, 'latin1') : body;
  };
}

/** The request a Koa context carries (its body stream included). */
export function koaRequest(ctx: Context): WpHttpRequest {
  return {
    method: ctx.method,
    path: ctx.path,
    querystring: ctx.querystring,
    headers: ctx.req.headers,
    body: ctx.req,
    encrypted: Boolean((ctx.req.socket as TLSSocket).encrypted),
    state: ctx.state,
  };
}

/** The server over `opts.routes`: one function answering a request. */
export function createWpRestDispatch(opts: WpRestOptions): WpDispatch {
  const logger: WpLogger = opts.logger ?? { error: (o, m) => console.error(m ?? 'wp-rest error', o) };
  const warn = (o: unknown, m?: string) => logger.warn?.(o, m);
  const bodyLimit = opts.bodyLimit ?? DEFAULT_BODY_LIMIT;
  const now = opts.now ?? (() => new Date());
  const locator = createLocator({
    siteUrl: opts.siteUrl,
    trustProxy: opts.trustProxy,
    langs: new Set<string>(opts.langs ?? ['en', 'fr', 'de', 'es', 'it', 'nl', 'pt', 'pl']),
  });
  const compiled = compileRoutes(opts, (req) => ({ settings: req.settings, now: req.now }));

  async function resolveSettings(): Promise<WpSettings> {
    const s = opts.settings;
    if (typeof s === 'function') return { ...DEFAULT_SETTINGS, ...(await s()) };
    return { ...DEFAULT_SETTINGS, ...(s ?? {}) };
  }

  return async function dispatch(request) {
    const loc = locator.locate(request);
    if (!loc) return null;
    const t = getT(loc.lang);
    const urls = makeUrls(locator.siteFor(request), loc.langPrefix);
    const send: SendOptions = {
      urls,
      t,
      user: ANONYMOUS,
      httpMethod: request.method,
      origin: requestHeader(request, 'Origin'),
      query: loc.query,
      fields: loc.query._fields,
      credentialedOrigins: opts.credentialedOrigins,
    };
    const out = new ResponseWriter();
    try {
      await serve(request, out, loc, send);
    } catch (err) {
      const url = request.querystring ? `${request.path}?${request.querystring}` : request.path;
      logger.error({ err, method: request.method, url }, 'wp-rest: unhandled error');
      try {
        sendWp(out, internalError(), { ...send, allow: undefined });
      } catch {
        out.status = 500;
        out.set('Content-Type', 'application/json; charset=UTF-8');
        out.body = '{"code":"internal_server_error","message":"There has been a critical error on this website.","data":{"status":500}}';
      }
    }
    return out.result();
  };

  /**
   * Cross-site request forgery: a browser sends a form, multipart or
   * query-string-only POST to another site without a preflight, with the Basic credentials it
   * holds for it. A signed-in write is refused when its `Origin` is neither this server's own nor
   * one of `credentialedOrigins` (`null` included), or, without an `Origin`, when the browser says
   * `Sec-Fetch-Site: cross-site`. Clients that send neither (server-side ones) are unaffected.
   * Without `credentialedOrigins` (WordPress's behaviour, any origin trusted) nothing is refused.
   */
  function crossSiteRequest(request: WpHttpRequest): boolean {
    const trusted = opts.credentialedOrigins;
    if (!trusted) return false;
    const origin = requestHeader(request, 'Origin').trim();
    if (!origin) return requestHeader(request, 'Sec-Fetch-Site').trim().toLowerCase() === 'cross-site';
    return !trusted.includes(origin) && !locator.ownOrigins(request).includes(origin.toLowerCase());
  }

  async function serve(request: WpHttpRequest, out: ResponseWriter, loc: Located, send: SendOptions): Promise<void> {
    // JSONP callback is checked before anything else (WordPress serve_request()).
    if (loc.query._jsonp !== undefined && !isValidJsonpCallback(loc.query._jsonp)) {
      sendWp(out, wpResponse(null), send);
      return;
    }

    if (opts.authenticate) {
      const who = await opts.authenticate(request, out);
      if (isWpError(who)) {
        sendWp(out, who, send);
        return;
      }
      if (who) send.user = who;
    }

    let path = loc.restPath;
    if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
    const method = effectiveMethod(request, loc);
    if (!send.user.anonymous && method !== 'GET' && method !== 'OPTIONS' && crossSiteRequest(request)) {
      sendWp(out, wpError('rest_cross_origin_write', msg('error.cross_origin_write'), 403), send);
      return;
    }
    const settings = await resolveSettings();
    const env: ArgEnv = { settings, now: now() };
    const wpRequest = (route: CompiledRoute, groups: Record<string, string>, m: HttpMethod) => buildRequest(request, loc, send, { path, route, groups, method: m, env });

    // OPTIONS: the route's index entry + Allow.
    if (method === 'OPTIONS') {
      const hit = routesForPath(compiled, path)[0];
      if (!hit) {
        sendWp(out, noRoute(), send);
        return;
      }
      const [req] = wpRequest(hit.route, hit.groups, 'GET');
      send.allow = await allowedMethods(hit.route, req, warn);
      sendWp(out, wpResponse(routeIndexEntry(hit.route, env, send.t, send.urls)), send);
      return;
    }

    const match = (METHODS as readonly string[]).includes(method) ? matchRoute(compiled, path, method as HttpMethod) : null;
    if (!match) {
      routeMatched('(no route)', 'rest');
      sendWp(out, noRoute(), send);
      return;
    }
    // Metrics, logs and traces name the request by its route's template, never its URL.
    routeMatched(match.route.key, 'rest');
    const [req, sentNames] = wpRequest(match.route, match.groups, method as HttpMethod);
    const result = await inSpan(`REST ${method} ${match.route.key}`, { 'http.route': match.route.key, 'http.request.method': method }, () =>
      runEndpoint(request, out, req, sentNames, match, env, send),
    );
    send.allow = await allowedMethods(match.route, req, warn);
    sendWp(out, result, send);
  }

  /** Body, arguments, permission, handler: the first error met, or the handler's response. */
  async function runEndpoint(
    request: WpHttpRequest,
    out: ResponseWriter,
    req: WpRequest,
    sentNames: Set<string>,
    match: NonNullable<ReturnType<typeof matchRoute>>,
    env: ArgEnv,
    send: SendOptions,
  ): Promise<WpResponse | WpError> {
    const body = await readBody(request, out, req.method, bodyLimit);
    if (isWpError(body)) return body;
    req.body = body.body;
    const path: Record<string, string | InvalidValue> = {};
    for (const [k, v] of Object.entries(match.groups)) path[k] = percentDecode(v, false);
    const merged = mergeSources({ query: req.query, path, json: body.json, form: body.form });
    req.rawParams = merged;
    if (merged._fields !== undefined) send.fields = merged._fields;

    const argError = await processArgs(match.endpoint, req, merged, env, sentNames);
    if (argError) return argError;
    const perm = await checkPermission(match.endpoint, req);
    if (perm !== true) return perm;
    let result: WpResponse | WpError;
    try {
      result = await match.endpoint.handler(req);
    } catch (e) {
      if (e instanceof WpError) result = e;
      else throw e;
    }
    if (!result || typeof result !== 'object') throw new Error('handler returned no response');
    return result;
  }
}

/** WP root, namespace root, `/doc`, then the resource routes (the index lists them in this order). */
function compileRoutes(opts: WpRestOptions, envOf: (req: WpRequest) => ArgEnv): CompiledRoute[] {
  const userRoutes = [...opts.routes];
  const hasDoc = userRoutes.some((r) => r.pattern === '/doc');
  const nsIndexDef: RouteDef = {
    pattern: '',
    endpoints: [
      {
        methods: ['GET'],
        args: { namespace: { default: NAMESPACE }, context: { default: 'view' } },
        handler: (req) => wpResponse(namespaceIndex(compiled, envOf(req), req.t, req.urls)),
      },
    ],
  };
  const rootDef: RouteDef = {
    pattern: '/',
    endpoints: [
      {
        methods: ['GET'],
        args: { context: { default: 'view' } },
        handler: (req) => wpResponse(rootIndex(compiled, envOf(req), req.t, req.urls)),
      },
    ],
  };
  const nsDefs: RouteDef[] = [nsIndexDef, ...(opts.includeDoc !== false && !hasDoc ? [docRoute] : []), ...userRoutes];
  const compiled: CompiledRoute[] = [compileRoute(rootDef, ''), ...nsDefs.map((d) => compileRoute(d, NAMESPACE))];
  return compiled;
}

/** The method to serve: `_method` / `X-HTTP-Method-Override` on POST; `HEAD` is served as `GET`. */
function effectiveMethod(request: WpHttpRequest, loc: Located): string {
  const httpMethod = request.method.toUpperCase();
  let method = httpMethod;
  if (httpMethod === 'POST') {
    const o = typeof loc.query._method === 'string' ? loc.query._method : requestHeader(request, 'X-HTTP-Method-Override');
    if (o) method = o.toUpperCase();
  }
  return method === 'HEAD' ? 'GET' : method;
}

/** The request handlers and permission checks see (params are filled in by the argument step). */
function buildRequest(
  request: WpHttpRequest,
  loc: Located,
  send: SendOptions,
  at: { path: string; route: CompiledRoute; groups: Record<string, string>; method: HttpMethod; env: ArgEnv },
): [WpRequest, Set<string>] {
  const pathParams: Record<string, string> = {};
  for (const [k, v] of Object.entries(at.groups)) {
    const d = percentDecode(v, false);
    pathParams[k] = d instanceof InvalidValue ? v : d;
  }
  const sentNames = new Set<string>();
  const req: WpRequest = {
    method: at.method,
    httpMethod: request.method.toUpperCase(),
    path: safeDecodePath(at.path),
    route: at.route.key,
    params: {},
    pathParams,
    sent: (name: string) => sentNames.has(name),
    rawParams: {},
    query: loc.query,
    body: undefined,
    headers: request.headers,
    user: send.user,
    lang: loc.lang,
    t: send.t,
    urls: send.urls,
    settings: at.env.settings,
    now: at.env.now,
    state: request.state,
  };
  return [req, sentNames];
}

function safeDecodePath(p: string): string {
  const d = percentDecode(p, false);
  return d instanceof InvalidValue ? p : d;
}
