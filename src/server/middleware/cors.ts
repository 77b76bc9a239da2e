import type { Middleware } from 'koa';

/**
 * CORS of this service's own endpoints, the one place it is written (the REST facade answers
 * WordPress's CORS headers itself, as part of its wire contract: rest-facade/wp/response.ts).
 */

const ALLOW_HEADERS = 'Authorization, Content-Type, Accept, X-GraphQL-Yoga-CSRF, X-Request-Id';

/**
 * CORS of `/graphql`: an origin listed in CAL_CORS_ORIGINS may send credentials
 * (Basic auth) and read the answer; any other origin reads anonymous answers only (`*`, which
 * browsers never combine with credentials). A preflight (`OPTIONS`) is answered here: 204.
 */
export function useGraphQLCors(path: string, credentialed: readonly string[]): Middleware {
  return async function graphqlCors(ctx, next) {
    if (ctx.path !== path) return next();
    ctx.vary('Origin');
    const origin = ctx.get('Origin');
    if (origin) {
      if (credentialed.includes(origin)) {
        ctx.set('Access-Control-Allow-Origin', origin);
        ctx.set('Access-Control-Allow-Credentials', 'true');
      } else {
        ctx.set('Access-Control-Allow-Origin', '*');
      }
      ctx.set('Access-Control-Allow-Methods', 'GET, POST, OPTIONS');
      ctx.set('Access-Control-Allow-Headers', ALLOW_HEADERS);
      ctx.set('Access-Control-Max-Age', '600');
    }
    if (ctx.method === 'OPTIONS') {
      ctx.status = 204;
      return;
    }
    await next();
  };
}

