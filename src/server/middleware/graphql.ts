import type { Middleware } from 'koa';
import type { AppState } from '../../services/context.ts';
import type { GraphQLServer } from '../yoga.ts';
import type { LiveStreams } from '../live-streams.ts';
import { sseEventIds } from '../change-cursors.ts';

/**
 * `/graphql` over HTTP: Yoga answers with the request's calendar context. Subscriptions over SSE
 * are tracked in `streams` (a stopping process breaks them).
 */
export function useGraphQL(path: string, yoga: GraphQLServer, streams: LiveStreams): Middleware<AppState> {
  return async function graphql(ctx, next) {
    if (ctx.path !== path) return next();
    // GraphQL has no `context=edit`: a caller who may edit a password-protected record sees it whole.
    // A reconnecting EventSource sends the last event's `id:` (a change cursor): its subscription resumes after it.
    const resumeAfter = ctx.get('last-event-id') || undefined;
    const response = await yoga.handleNodeRequestAndResponse(ctx.req, ctx.res, { cal: { ...ctx.state.cal, editContext: true, resumeAfter } });
    ctx.status = response.status;
    response.headers.forEach((value, key) => ctx.append(key, value));
    // Complete JSON answers (never event streams or incremental delivery) are buffered: GET reads
    // get an ETag and can be kept by the byte cache, and any of them can be sent compressed.
    const type = response.headers.get('content-type') ?? '';
    const json = /json/.test(type);
    const sse = type.startsWith('text/event-stream');
    if (sse) streams.track(ctx.res);
    ctx.body = json ? Buffer.from(await response.arrayBuffer()) : sse && response.body ? sseEventIds(response.body) : response.body;
  };
}
