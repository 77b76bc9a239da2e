import { createHash } from 'node:crypto';
import type { Context, Middleware } from 'koa';
import type { AppState } from '../../services/context.ts';
import { compressible, varyOnEncoding } from './compression.ts';

/**
 * HTTP validators and cache policy of GET reads, REST, GraphQL and pages alike: a weak `ETag` (hash
 * of the identity body; the same for its gzip and brotli encodings) with `If-None-Match` → 304, and
 * `Cache-Control`: `public, max-age=<CAL_HTTP_MAX_AGE_S>` for anonymous callers (a CDN may keep them
 * that long; default 0: revalidate every time), `private, no-cache` for signed-in ones (a browser
 * may keep them, never a shared cache) unless the route set its own (the REST facade sends
 * WordPress's no-cache headers to signed-in callers). Reads with a password (`?password=`) are
 * `private, no-store`. Only complete JSON and HTML bodies of 200 answers are touched; streams pass
 * as they are, and feeds (which set their own ETag and Last-Modified) keep theirs.
 */
export function useHttpCaching(opts: { maxAgeS: number }): Middleware<AppState> {
  return async function httpCaching(ctx, next) {
    await next();
    if ((ctx.method !== 'GET' && ctx.method !== 'HEAD') || ctx.status !== 200 || ctx.response.get('ETag')) return;
    const type = ctx.response.get('Content-Type');
    if (!/json|javascript|text\/html/.test(type)) return;
    const body: unknown = ctx.body;
    if (typeof body !== 'string' && !Buffer.isBuffer(body)) return;
    // A GraphQL answer with errors (HTTP 200 all the same) is not a read to keep.
    if (ctx.path === '/graphql' && hasErrors(body)) return;
    const etag = weakEtag(body);
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
    if (notModified(ctx, etag, null)) {
      // The 200 would have varied by encoding: so does its 304.
      if (compressible(type, Buffer.byteLength(body))) varyOnEncoding(ctx);
      ctx.body = null;
      ctx.status = 304;
    }
  };
}

/** `W/"<sha1 of the bytes>"`. */
export function weakEtag(body: string | Buffer): string {
  return `W/"${createHash('sha1').update(body).digest('base64url')}"`;
}

/**
 * Whether the client's copy is current: `If-None-Match` by weak comparison (RFC 9110 §13.1.2), by
 * hand: Koa's `ctx.fresh` answers "stale" whenever the request says `Cache-Control: no-cache`,
 * which fetch() adds to every conditional request. Without `If-None-Match`, `If-Modified-Since`
 * against `lastModified` when the answer has one.
 */
export function notModified(ctx: Context, etag: string, lastModified: string | null): boolean {
  const inm = ctx.get('If-None-Match');
  if (inm) {
    const opaque = etag.replace(/^W\//, '');
    return inm.trim() === '*' || inm.split(',').some((t) => t.trim().replace(/^W\//, '') === opaque);
  }
  const ims = Date.parse(ctx.get('If-Modified-Since'));
  return lastModified !== null && Number.isFinite(ims) && Date.parse(lastModified) <= ims;
}

function hasErrors(body: string | Buffer): boolean {
  try {
    return 'errors' in (JSON.parse(body.toString()) as object);
  } catch {
    return true;
  }
}
