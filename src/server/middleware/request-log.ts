import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import type { Logger } from 'pino';
import type { AppState } from '../../services/context.ts';

/** The request's ID (`X-Request-Id`, or a new UUID) in `ctx.state.requestId`, and one debug line per answered request. */
export function useRequestLog(logger: Logger): Middleware<AppState> {
  return async function requestLog(ctx, next) {
    const started = performance.now();
    ctx.state.requestId = ctx.get('x-request-id') || randomUUID();
    await next();
    logger.debug(
      { requestId: ctx.state.requestId, method: ctx.method, url: ctx.url, status: ctx.status, ms: +(performance.now() - started).toFixed(1) },
      'request',
    );
  };
}
