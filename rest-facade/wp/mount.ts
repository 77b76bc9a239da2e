/**
 * Koa middleware serving route definitions the way the WordPress REST server does:
 *
 *   /wp-json/                                   root index (REC)
 *   /wp-json/cal/events/v1[/]                   namespace index (§9.1)
 *   /wp-json/cal/events/v1/doc                  OpenAPI document (§9.2)
 *   /wp-json/cal/events/v1/<route>              the given routes
 *   /{lang}/wp-json/…                           the same per language (en fr de es it nl pt pl)
 *   /?rest_route=/cal/events/v1/…, /index.php?rest_route=…   plain-permalink form
 *
 * Any other path under `/wp-json` answers `404 rest_no_route` (JSON, never HTML); paths outside
 * the REST prefixes are passed to the next middleware. Mount it before any body parser: it reads
 * the request body itself.
 */
import type { TLSSocket } from 'node:tls';
import type { Context, Middleware, Next } from 'koa';
import { buildDoc, docRoute } from '../doc/build.ts';
import { WpError, forbidden, internalError, isWpError, noRoute, wpError, msg } from './errors.ts';
import { getT, isLang } from './i18n.ts';
import { namespaceIndex, rootIndex } from './index-builder.ts';
import {
  BodyTooLargeError,
  DEFAULT_BODY_LIMIT,
  InvalidValue,
  parseJsonBody,
  parseMultipart,
  parseQueryString,
  percentDecode,
  readRawBody,
} from './params.ts';
import { isValidJsonpCallback, payloadTooLarge, sendWp, wpResponse, type SendOptions } from './response.ts';
import {
  compileRoute,
  matchRoute,
  mergeSources,
  processArgs,
  routeIndexEntry,
  routesForPath,
  type CompiledRoute,
  type ParamSources,
} from './route.ts';
import {
  ANONYMOUS,
  DEFAULT_SETTINGS,
  NAMESPACE,
  type ArgEnv,
  type Caller,
  type EndpointDef,
  type HttpMethod,
  type Lang,
  type RouteDef,
  type WpRequest,
  type WpResponse,
  type WpSettings,
  type WpUrls,
} from './types.ts';

export interface WpLogger {
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
   * `rest_cookie_invalid_nonce` — answered on every route, before routing, like WordPress).
   */
  authenticate?: (ctx: Context) => Caller | WpError | null | undefined | Promise<Caller | WpError | null | undefined>;
  logger?: WpLogger;
  /** Site settings (merged over the defaults), or a function giving the live ones. */
  settings?: Partial<WpSettings> | (() => WpSettings | Promise<WpSettings>);
  /** Clock (tests). */
  now?: () => Date;
  /** Body size limit in bytes (default 1 MiB) → 413 above. */
  bodyLimit?: number;
  /** Serve `/doc` (default true; skipped anyway when `routes` has its own `/doc`). */
  includeDoc?: boolean;
  /** Languages served as `/{lang}/…` (default: all catalogs). */
  langs?: readonly Lang[];
}

const METHODS: readonly HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
const BODY_METHODS: readonly string[] = ['POST', 'PUT', 'PATCH', 'DELETE'];

export function makeUrls(site: string, langPrefix: string): WpUrls {
  const home = site + langPrefix;
  const restRoot = `${home}/wp-json/`;
  const namespaceRoot = `${restRoot}${NAMESPACE}`;
  return {
    site,
    home,
    restRoot,
    namespaceRoot,
    rest: (path = '') => namespaceRoot + path,
    homeUrl: (path = '') => home + path,
  };
}

const HOST_RE = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

function firstHeader(ctx: Context, name: string): string {
  return ctx.get(name).split(',')[0]?.trim() ?? '';
}

interface Located {
  lang: Lang;
  langPrefix: string;
  /** REST route path, percent-encoded (`/cal/events/v1/events/8`). */
  restPath: string;
  query: Record<string, unknown>;
}

/** Build the middleware. */
export function createWpRestMiddleware(opts: WpRestOptions): Middleware {
  const logger: WpLogger = opts.logger ?? { error: (o, m) => console.error(m ?? 'wp-rest error', o) };
  const bodyLimit = opts.bodyLimit ?? DEFAULT_BODY_LIMIT;
  const langs = new Set<string>(opts.langs ?? ['en', 'fr', 'de', 'es', 'it', 'nl', 'pt', 'pl']);
  const now = opts.now ?? (() => new Date());
  let basePath = '';
  let fixedSite: string | null = null;
  if (opts.siteUrl) {
    const u = new URL(opts.siteUrl);
    basePath = u.pathname.replace(/\/+$/, '');
    fixedSite = `${u.protocol}//${u.host}${basePath}`;
  }

  // Route table: WP root, namespace root, /doc, then the resource routes.
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

  function envOf(req: WpRequest): ArgEnv {
    return { settings: req.settings, now: req.now };
  }

  async function resolveSettings(): Promise<WpSettings> {
    const s = opts.settings;
    if (typeof s === 'function') return { ...DEFAULT_SETTINGS, ...(await s()) };
    return { ...DEFAULT_SETTINGS, ...(s ?? {}) };
  }

  function siteFor(ctx: Context): string {
    if (fixedSite) return fixedSite;
    let proto = (ctx.req.socket as TLSSocket).encrypted ? 'https' : 'http';
    let host = ctx.get('Host');
    if (opts.trustProxy) {
      const xfp = firstHeader(ctx, 'X-Forwarded-Proto').toLowerCase();
      if (xfp === 'http' || xfp === 'https') proto = xfp;
      const xfh = firstHeader(ctx, 'X-Forwarded-Host');
      if (xfh && HOST_RE.test(xfh)) host = xfh;
    }
    if (!HOST_RE.test(host)) host = 'localhost';
    return `${proto}://${host.toLowerCase()}`;
  }

  function locate(ctx: Context): Located | null {
    let path = ctx.path;
    if (basePath && (path === basePath || path.startsWith(`${basePath}/`))) path = path.slice(basePath.length) || '/';
    let lang: Lang = 'en';
    let langPrefix = '';
    const lm = /^\/([a-z]{2})(?=\/|$)/.exec(path);
    if (lm && langs.has(lm[1] as string) && isLang(lm[1] as string)) {
      lang = lm[1] as Lang;
      langPrefix = `/${lang}`;
      path = path.slice(3) || '/';
    }
    if (path === '/wp-json' || path.startsWith('/wp-json/')) {
      return { lang, langPrefix, restPath: path.slice('/wp-json'.length) || '/', query: parseQueryString(ctx.querystring) };
    }
    if ((path === '/' || path === '/index.php') && /(?:^|&)rest_route=/.test(ctx.querystring)) {
      const query = parseQueryString(ctx.querystring);
      const rr = query.rest_route;
      if (typeof rr !== 'string' || rr === '') return null;
      delete query.rest_route;
      const restPath = '/' + rr.replace(/^\/+/, '').split('/').map(encodeURIComponent).join('/');
      return { lang, langPrefix, restPath, query };
    }
    return null;
  }

  return async function wpRest(ctx: Context, next: Next): Promise<void> {
    const loc = locate(ctx);
    if (!loc) {
      await next();
      return;
    }
    const t = getT(loc.lang);
    const urls = makeUrls(siteFor(ctx), loc.langPrefix);
    const send: SendOptions = { urls, t, user: ANONYMOUS, httpMethod: ctx.method, query: loc.query, fields: loc.query._fields };
    try {
      await serve(ctx, loc, send);
    } catch (err) {
      logger.error({ err, method: ctx.method, url: ctx.url }, 'wp-rest: unhandled error');
      try {
        sendWp(ctx, internalError(), { ...send, allow: undefined });
      } catch {
        ctx.status = 500;
        ctx.type = 'application/json; charset=UTF-8';
        ctx.body = '{"code":"internal_server_error","message":"There has been a critical error on this website.","data":{"status":500}}';
      }
    }
  };

  async function serve(ctx: Context, loc: Located, send: SendOptions): Promise<void> {
    // JSONP callback is checked before anything else (WordPress serve_request()).
    if (loc.query._jsonp !== undefined && !isValidJsonpCallback(loc.query._jsonp)) {
      sendWp(ctx, wpResponse(null), send);
      return;
    }

    // Authentication (pluggable).
    if (opts.authenticate) {
      const who = await opts.authenticate(ctx);
      if (isWpError(who)) {
        sendWp(ctx, who, send);
        return;
      }
      if (who) send.user = who;
    }
    const user = send.user;

    let path = loc.restPath;
    if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);

    // Method and override.
    const httpMethod = ctx.method.toUpperCase();
    let method = httpMethod;
    if (httpMethod === 'POST') {
      const o = typeof loc.query._method === 'string' ? loc.query._method : ctx.get('X-HTTP-Method-Override');
      if (o) method = o.toUpperCase();
    }
    if (method === 'HEAD') method = 'GET';

    const settings = await resolveSettings();
    const nowDate = now();
    const env: ArgEnv = { settings, now: nowDate };

    const makeReq = (route: CompiledRoute, groups: Record<string, string>, m: HttpMethod): [WpRequest, Set<string>] => {
      const pathParams: Record<string, string> = {};
      for (const [k, v] of Object.entries(groups)) {
        const d = percentDecode(v, false);
        pathParams[k] = d instanceof InvalidValue ? v : d;
      }
      const sentNames = new Set<string>();
      const req: WpRequest = {
        method: m,
        httpMethod,
        path: safeDecodePath(path),
        route: route.key,
        params: {},
        pathParams,
        sent: (name: string) => sentNames.has(name),
        rawParams: {},
        query: loc.query,
        body: undefined,
        headers: ctx.req.headers,
        user,
        lang: loc.lang,
        t: send.t,
        urls: send.urls,
        settings,
        now: nowDate,
        ctx,
      };
      return [req, sentNames];
    };

    // OPTIONS: the route's index entry + Allow.
    if (method === 'OPTIONS') {
      const hit = routesForPath(compiled, path)[0];
      if (!hit) {
        sendWp(ctx, noRoute(), send);
        return;
      }
      const [req] = makeReq(hit.route, hit.groups, 'GET');
      send.allow = await allowedMethods(hit.route, req);
      sendWp(ctx, wpResponse(routeIndexEntry(hit.route, env, send.t, send.urls)), send);
      return;
    }

    const match = (METHODS as readonly string[]).includes(method) ? matchRoute(compiled, path, method as HttpMethod) : null;
    if (!match) {
      sendWp(ctx, noRoute(), send);
      return;
    }
    const [req, sentNames] = makeReq(match.route, match.groups, method as HttpMethod);
    let allowComputed = false;
    const finish = async (result: WpResponse | WpError): Promise<void> => {
      if (!allowComputed) {
        send.allow = await allowedMethods(match.route, req);
        allowComputed = true;
      }
      sendWp(ctx, result, send);
    };

    // Body.
    const sources: ParamSources = { query: loc.query, path: {} };
    for (const [k, v] of Object.entries(match.groups)) sources.path[k] = percentDecode(v, false);
    let raw: Buffer;
    try {
      raw = await readRawBody(ctx.req, bodyLimit, (ctx.request as { rawBody?: unknown }).rawBody);
    } catch (e) {
      if (e instanceof BodyTooLargeError) {
        ctx.set('Connection', 'close');
        await finish(payloadTooLarge(bodyLimit));
        return;
      }
      throw e;
    }
    const ctype = (ctx.get('Content-Type').split(';')[0] ?? '').trim().toLowerCase();
    const isJson = ctype === 'application/json' || /^[a-z]+\/[^;]*\+json$/.test(ctype);
    if (isJson && raw.length > 0) {
      const parsed = parseJsonBody(raw);
      if (!parsed.ok) {
        await finish(
          wpError('rest_invalid_json', msg('error.rest_invalid_json'), 400, {
            json_error_code: parsed.code,
            json_error_message: parsed.message,
          }),
        );
        return;
      }
      req.body = parsed.value;
      if (parsed.value && typeof parsed.value === 'object' && !Array.isArray(parsed.value)) {
        const json: Record<string, unknown> = {};
        for (const [k, v] of Object.entries(parsed.value)) if (v !== null) json[k] = v;
        sources.json = json;
      }
    } else if (BODY_METHODS.includes(method) && raw.length > 0) {
      if (ctype === 'application/x-www-form-urlencoded' || (ctype === '' && httpMethod !== 'POST')) {
        sources.form = parseQueryString(raw.toString('latin1'));
      } else if (ctype === 'multipart/form-data' && httpMethod === 'POST') {
        try {
          sources.form = await parseMultipart(raw, ctx.get('Content-Type'));
        } catch {
          sources.form = undefined; // malformed multipart: body ignored
        }
      }
      if (sources.form) req.body = sources.form;
    }
    const merged = mergeSources(sources);
    req.rawParams = merged;
    if (merged._fields !== undefined) send.fields = merged._fields;

    // Arguments (§1.3 steps 3–5).
    const argError = await processArgs(match.endpoint, req, merged, env, sentNames);
    if (argError) {
      await finish(argError);
      return;
    }

    // Permission (step 6).
    const perm = await checkPermission(match.endpoint, req);
    if (perm !== true) {
      await finish(perm);
      return;
    }

    // Handler (step 7).
    let result: WpResponse | WpError;
    try {
      result = await match.endpoint.handler(req);
    } catch (e) {
      if (e instanceof WpError) result = e;
      else throw e;
    }
    if (!result || typeof result !== 'object') throw new Error('handler returned no response');
    await finish(result);
  }

  async function checkPermission(endpoint: EndpointDef, req: WpRequest): Promise<true | WpError> {
    if (!endpoint.permission) return true;
    let r: unknown;
    try {
      r = await endpoint.permission(req);
    } catch (e) {
      if (!isWpError(e)) throw e;
      r = e;
    }
    if (r === true) return true;
    if (isWpError(r)) return r;
    return forbidden(req.user);
  }

  /** Methods of the route whose permission check passes for the caller (WordPress `Allow`). */
  async function allowedMethods(route: CompiledRoute, req: WpRequest): Promise<string[]> {
    const out: string[] = [];
    for (const e of route.def.endpoints) {
      let ok = true;
      if (e.permission) {
        try {
          ok = (await e.permission({ ...req, method: e.methods[0] as HttpMethod, probe: true })) === true;
        } catch (err) {
          logger.warn?.({ err }, 'wp-rest: permission check failed while computing Allow');
          ok = false;
        }
      }
      if (ok) for (const m of e.methods) if (!out.includes(m)) out.push(m);
    }
    return out;
  }
}

function safeDecodePath(p: string): string {
  const d = percentDecode(p, false);
  return d instanceof InvalidValue ? p : d;
}

/** Convenience for tests and for mounting the doc elsewhere. */
export { buildDoc };
