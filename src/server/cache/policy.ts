import { createHash } from 'node:crypto';
import type { Middleware } from 'koa';
import type { AppState } from '../../services/context.ts';
import { notModified } from '../../domain/conditional-get.ts';
import { compressible, varyOnEncoding } from '../middleware/compression.ts';

/**
 * The one place that decides whether a read may be kept, and says so: `Cache-Control`, the
 * surrogate keys (`Surrogate-Key` and `xkey`), the weak `ETag` with `If-None-Match` → 304, and the
 * mark the byte cache stores by (`shareable`). For complete 200 answers to GET/HEAD — REST, GraphQL,
 * pages, feeds — whatever route produced them:
 *
 * - a GraphQL answer with errors (HTTP 200 all the same): nothing;
 * - a read with a password (`?password=`): `private, no-store`;
 * - a page or feed that decided a password-protected record (src/services/post-pass.ts) depends on
 *   the post-password cookie: `Vary: Cookie`, and with the cookie `private, no-store` whatever the
 *   route chose (an answer opened by one visitor's password is theirs alone);
 * - signed-in (or a failed sign-in): `private, no-cache`, unless the route chose its own (the REST
 *   facade sends WordPress's `no-cache, must-revalidate, max-age=0`);
 * - anonymous: `public, max-age=<CAL_HTTP_MAX_AGE_S>` (with `Vary: Authorization` when positive:
 *   a shared cache must not hand it to a signed-in caller), plus `s-maxage=<CAL_HTTP_S_MAXAGE_S>`
 *   and the surrogate keys of what the resolvers loaded (src/domain/surrogate-keys.ts) when it
 *   names any: every committed change purges exactly those keys (purge.ts). A route that chose
 *   `private`/`no-store` keeps it and is not shareable; feeds keep their own `public, no-cache`
 *   unless s-maxage applies.
 *
 * Routes that set their own `ETag` (feeds) answer their 304 themselves.
 */
export function useCachePolicy(opts: { maxAgeS: number; sharedMaxAgeS: number }): Middleware<AppState> {
  return async function cachePolicy(ctx, next) {
    await next();
    if ((ctx.method !== 'GET' && ctx.method !== 'HEAD') || ctx.status !== 200) return;
    const type = ctx.response.get('Content-Type');
    const body: unknown = ctx.body;
    if (!READ_TYPES.test(type) || (typeof body !== 'string' && !Buffer.isBuffer(body))) return;
    if (ctx.path === '/graphql' && hasErrors(body)) return;
    const chosen = ctx.response.get('Cache-Control');
    const cal = ctx.state.cal;
    const postPass = cal?.postPass;
    if (postPass?.decided) ctx.vary('Cookie');
    if (typeof ctx.query.password === 'string' && ctx.query.password !== '') {
      if (!chosen) ctx.set('Cache-Control', 'private, no-store');
    } else if (postPass?.decided && postPass.cookie !== null) {
      ctx.set('Cache-Control', 'private, no-store');
    } else if (cal?.viewer || ctx.state.authError || ctx.get('authorization')) {
      if (!chosen) ctx.set('Cache-Control', 'private, no-cache');
    } else if (!/private|no-store/i.test(chosen)) {
      const keys = cal?.surrogateKeys;
      const shared = keys && !keys.empty && opts.sharedMaxAgeS > 0 ? `, s-maxage=${opts.sharedMaxAgeS}` : '';
      if (!chosen || shared) ctx.set('Cache-Control', `public, max-age=${opts.maxAgeS}${shared}`);
      if (opts.maxAgeS > 0) ctx.vary('Authorization');
      if (keys && !keys.empty) {
        const value = keys.header();
        ctx.set('Surrogate-Key', value);
        ctx.set('xkey', value);
      }
      ctx.state.shareable = true;
    }
    if (ctx.response.get('ETag')) return;
    const etag = weakEtag(body);
    ctx.set('ETag', etag);
    if (notModified(ctx, etag, null)) {
      // The 200 would have varied by encoding: so does its 304.
      if (compressible(type, Buffer.byteLength(body))) varyOnEncoding(ctx);
      ctx.body = null;
      ctx.status = 304;
    }
  };
}

/** Answers a policy is written for: JSON, JavaScript, pages, feeds, sitemaps, robots.txt. */
const READ_TYPES = /json|javascript|text\/html|text\/calendar|xml|text\/plain/;

/** `W/"<sha1 of the bytes>"`. */
export function weakEtag(body: string | Buffer): string {
  return `W/"${createHash('sha1').update(body).digest('base64url')}"`;
}

/**
 * Whether a buffered GraphQL answer reports errors. Inside JSON strings every quote is escaped, so
 * the raw bytes `"errors":[` occur only as the response's own `errors` key.
 */
function hasErrors(body: string | Buffer): boolean {
  return body.includes('"errors":[');
}
