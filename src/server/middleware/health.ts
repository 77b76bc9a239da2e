import type { Middleware } from 'koa';
import type { Database } from '../../db/database.ts';

/** Liveness: `/healthz` answers while the process runs, without touching the database (no security headers: mounted before them). */
export function useHealth(): Middleware {
  return async function health(ctx, next) {
    if (ctx.path !== '/healthz') return next();
    ctx.body = { status: 'ok' };
  };
}

/**
 * Readiness: `/readyz` is 200 when the database answers, 503 when it does not or while the process
 * drains before it stops (`draining()`): a load balancer probing it (deploy/varnish/) stops sending
 * it requests in both cases.
 */
export function useReadiness(db: Pick<Database, 'ping' | 'kind'>, draining: () => boolean): Middleware {
  return async function readiness(ctx, next) {
    if (ctx.path !== '/readyz') return next();
    if (draining()) {
      ctx.status = 503;
      ctx.body = { status: 'draining', database: db.kind };
      return;
    }
    try {
      await db.ping();
      ctx.body = { status: 'ok', database: db.kind };
    } catch {
      ctx.status = 503;
      ctx.body = { status: 'unavailable', database: db.kind };
    }
  };
}
