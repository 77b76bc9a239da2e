import { createHash } from 'node:crypto';
import type { Middleware } from 'koa';
import type { AppState } from '../services/context.ts';

/**
 * HTTP validators and cache policy of GET reads, REST and GraphQL alike: a weak `ETag` (hash of
 * the body) with `If-None-Match` → 304, and `Cache-Control`: `public, max-age=<CAL_HTTP_MAX_AGE_S>`
 * for anonymous callers (a CDN may keep them that long; default 0: revalidate every time),
 * `private, no-cache` for signed-in ones (a browser may keep them, never a shared cache) unless the
 * route set its own (the REST facade sends WordPress's no-cache headers to signed-in callers).
 * Reads with a password (`?password=`) are `private, no-store`. Only complete JSON bodies of 200
 * answers are touched; streams, HTML pages and feeds (which set their own ETag) pass as they are.
 */
export function httpCaching(opts: { maxAgeS: number }): Middleware<AppState> {
  return async (ctx, next) => {
    await next();
    if ((ctx.method !== 'GET' && ctx.method !== 'HEAD') || ctx.status !== 200 || ctx.response.get('ETag')) return;
    if (!/json|javascript/.test(ctx.response.get('Content-Type'))) return;
    const body: unknown = ctx.body;
    if (typeof body !== 'string' && !Buffer.isBuffer(body)) return;
    // A GraphQL answer with errors (HTTP 200 all the same) is not a read to keep.
    if (ctx.path === '/graphql' && hasErrors(body)) return;
    const etag = `W/"${createHash('sha1').update(body).digest('base64url')}"`;
    ctx.set('ETag', etag);
    // A shared cache must not hand an anonymous answer it keeps to a signed-in caller (with
    // max-age=0 it revalidates each time with the caller's credentials: the ETag differs).
    if (opts.maxAgeS > 0 && !ctx.state.cal?.viewer) ctx.vary('Authorization');
    if (!ctx.response.get('Cache-Control')) {
      const withPassword = typeof ctx.query.password === 'string' && ctx.query.password !== '';
      ctx.set(
        'Cache-Control',
        withPassword ? 'private, no-store' : ctx.state.cal?.viewer ? 'private, no-cache' : `public, max-age=${opts.maxAgeS}`,
      );
    }
    // Weak comparison (RFC 9110 §13.1.2), by hand: Koa's `ctx.fresh` answers "stale" whenever the
    // request says `Cache-Control: no-cache`, which fetch() adds to every conditional request.
    const inm = ctx.get('If-None-Match');
    if (inm && (inm.trim() === '*' || inm.split(',').some((t) => t.trim().replace(/^W\//, '') === etag.slice(2)))) {
      ctx.body = null;
      ctx.status = 304;
    }
  };
}

function hasErrors(body: string | Buffer): boolean {
  try {
    return 'errors' in (JSON.parse(body.toString()) as object);
  } catch {
    return true;
  }
}
