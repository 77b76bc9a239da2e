import type { Context } from 'koa';
import { currentRequest, type RequestRecord, type Surface } from '../telemetry/scope.ts';

/** Paths the server answers itself, outside the REST facade's and the pages' routers. */
const OWN: Record<string, Surface> = { '/graphql': 'graphql', '/healthz': 'other', '/readyz': 'other' };

/**
 * The route template and surface of the request being answered: what the layer that matched it
 * recorded (src/telemetry/scope.ts), else the server's own paths, else `(no route)`: a label
 * never made of the URL, so that any number of distinct URLs adds no series.
 */
export function requestRoute(ctx: Context, record: RequestRecord | undefined = currentRequest()): { route: string; surface: Surface } {
  if (record?.route !== undefined) return { route: record.route, surface: record.surface ?? 'other' };
  const own = OWN[ctx.path];
  if (own) return { route: ctx.path, surface: own };
  if (ctx.path.includes('/wp-content/uploads/')) return { route: '/wp-content/uploads/*', surface: 'other' };
  return { route: '(no route)', surface: 'other' };
}
