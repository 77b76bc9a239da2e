import type { Middleware } from 'koa';
import type { AppState } from '../../context.ts';
import type { GraphQLServer } from '../yoga.ts';

/**
 * `/graphql` over HTTP: Yoga answers with the request's calendar context. GET reads (never event
 * streams) are buffered so that they get an ETag and can be kept by the byte cache.
 */
export function useGraphQL(path: string, yoga: GraphQLServer): Middleware<AppState> {
  return async function graphql(ctx, next) {
    if (ctx.path !== path) return next();
    // GraphQL has no `context=edit`: a caller who may edit a password-protected record sees it whole.
    const response = await yoga.handleNodeRequestAndResponse(ctx.req, ctx.res, { cal: { ...ctx.state.cal, editContext: true } });
    ctx.status = response.status;
    response.headers.forEach((value, key) => ctx.append(key, value));
    const json = /json/.test(response.headers.get('content-type') ?? '');
    ctx.body = (ctx.method === 'GET' || ctx.method === 'HEAD') && json ? Buffer.from(await response.arrayBuffer()) : response.body;
  };
}
