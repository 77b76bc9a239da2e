import type { Middleware } from 'koa';
import type { AppState } from '../../services/context.ts';
import type { Purger } from '../purge.ts';

/** A write answers once the proxy has dropped what it changed (bounded to 1 s: see `settled`). */
export function usePurgeSettled(purger: Purger): Middleware<AppState> {
  return async function purgeSettled(ctx, next) {
    try {
      await next();
    } finally {
      if (ctx.method !== 'GET' && ctx.method !== 'HEAD') await purger.settled(1_000);
    }
  };
}
