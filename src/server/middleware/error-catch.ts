import type { Middleware } from 'koa';
import type { Logger } from 'pino';
import type { AppState } from '../../services/context.ts';

/** An error no handler answered: logged with the request ID, answered 500 in the REST error shape (never a stack). */
export function useErrorCatch(logger: Logger): Middleware<AppState> {
  return async function errorCatch(ctx, next) {
    try {
      await next();
    } catch (err) {
      logger.error({ err, requestId: ctx.state.requestId }, 'unhandled error');
      ctx.status = 500;
      ctx.body = { code: 'internal_server_error', message: 'Internal server error.', data: { status: 500 } };
    }
  };
}
