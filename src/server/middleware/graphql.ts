import type { Middleware } from 'koa';
import type { AppState } from '../../services/context.ts';
import type { GraphQLServer } from '../yoga.ts';
import type { LiveStreams } from '../live-streams.ts';

/**
 * `/graphql` over HTTP: Yoga answers with the request's calendar context. Subscriptions over SSE
 * are tracked in `streams` (a stopping process breaks them).
 */
export function useGraphQL(path: string, yoga: GraphQLServer, streams: LiveStreams): Middleware<AppState> {
  return async function graphql(ctx, next) {
    if (ctx.path !== path) return next();
    // GraphQL has no `context=edit`: a caller who may edit a password-protected record sees it whole.
    const response = await yoga.handleNodeRequestAndResponse(ctx.req, ctx.res, { cal: { ...ctx.state.cal, editContext: true } });
    ctx.status = response.status;
    response.headers.forEach((value, key) => ctx.append(key, value));
    // Complete JSON answers (never event streams or incremental delivery) are buffered: GET reads
    // get an ETag and can be kept by the byte cache, and any of them can be sent compressed.
    const type = response.headers.get('content-type') ?? '';
    const json = /json/.test(type);
    if (type.startsWith('text/event-stream')) streams.track(ctx.res);
    ctx.body = json ? Buffer.from(await response.arrayBuffer()) : response.body;
  };
}
