import type { Middleware } from 'koa';
import type { Logger } from 'pino';
import { databaseUnavailable, RETRY_AFTER_S, UNAVAILABLE_MESSAGE } from '../../db/unavailable.ts';
import { db as dbMetrics } from '../../telemetry/metrics.ts';
import type { AppState } from '../../services/context.ts';

/**
 * An error no handler answered: logged with the request ID, answered in the REST error shape (never
 * a stack): 503 with `Retry-After` when the database is unavailable for a moment (a sign-in's
 * account lookup, before any API handler runs), else 500.
 */
export function useErrorCatch(logger: Logger): Middleware<AppState> {
  return async function errorCatch(ctx, next) {
    try {
      await next();
    } catch (err) {
      if (databaseUnavailable(err)) {
        logger.warn({ requestId: ctx.state.requestId }, 'database unavailable');
        dbMetrics.unavailable.inc();
        ctx.status = 503;
        ctx.set('Retry-After', String(RETRY_AFTER_S));
        ctx.body = { code: 'service_unavailable', message: UNAVAILABLE_MESSAGE, data: { status: 503 } };
        return;
      }
      logger.error({ err, requestId: ctx.state.requestId }, 'unhandled error');
      ctx.status = 500;
      ctx.body = { code: 'internal_server_error', message: 'Internal server error.', data: { status: 500 } };
    }
  };
}
