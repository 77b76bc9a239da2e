import type { Middleware } from 'koa';
import type { AppState } from '../../services/context.ts';

/**
 * Surrogate keys and shared-cache lifetime of anonymous GET/HEAD reads: REST (every
 * language variant), GraphQL queries by GET, iCal feeds and pages. What a response contains was
 * collected while it was resolved (`ctx.state.cal.surrogateKeys`, src/domain/surrogate-keys.ts);
 * here it becomes the `Surrogate-Key` header (Fastly-style tag purges) and the same value in `xkey`
 * (Varnish's xkey vmod, deploy/varnish/), and `Cache-Control` becomes
 * `public, max-age=<CAL_HTTP_MAX_AGE_S>, s-maxage=<CAL_HTTP_S_MAXAGE_S>`: browsers revalidate
 * (default max-age 0: nothing can purge a browser), the shared cache keeps the answer long because
 * every committed change purges exactly the keys it affects (src/server/purge.ts).
 *
 * Only complete 200 answers that named at least one key are marked; anything signed in, with a
 * password or credentials, a GraphQL answer with errors, and routes that chose `private`/`no-store`
 * keep what they had (signed-in REST answers keep WordPress's `no-cache, must-revalidate, max-age=0`,
 * other signed-in reads `private, no-cache`; the VCL never shares a request with credentials anyway).
 */
export function useSurrogateKeys(opts: { maxAgeS: number; sharedMaxAgeS: number }): Middleware<AppState> {
  return async (ctx, next) => {
    await next();
    if ((ctx.method !== 'GET' && ctx.method !== 'HEAD') || ctx.status !== 200) return;
    const cal = ctx.state.cal;
    const keys = cal?.surrogateKeys;
    if (!keys || keys.empty || cal.viewer || ctx.get('authorization') || ctx.state.authError) return;
    if (typeof ctx.query.password === 'string' && ctx.query.password !== '') return;
    if (ctx.path === '/graphql' && graphqlErrors(ctx.body)) return;
    const chosen = ctx.response.get('Cache-Control');
    if (/private|no-store/i.test(chosen)) return;
    const value = keys.header();
    ctx.set('Surrogate-Key', value);
    ctx.set('xkey', value);
    if (opts.sharedMaxAgeS > 0) ctx.set('Cache-Control', `public, max-age=${opts.maxAgeS}, s-maxage=${opts.sharedMaxAgeS}`);
  };
}

/**
 * Whether a buffered GraphQL answer reports errors. Inside JSON strings every quote is escaped, so
 * the raw bytes `"errors":[` occur only as the response's own `errors` key; streams (not buffered)
 * are never marked.
 */
function graphqlErrors(body: unknown): boolean {
  if (typeof body === 'string') return body.includes('"errors":[');
  if (Buffer.isBuffer(body)) return body.includes('"errors":[');
  return true;
}
