import type { Middleware } from 'koa';
import { withQueryBudget } from '../../db/request-budget.ts';

/** Every SQL statement a request starts counts against one budget (src/db/request-budget.ts; 0: unbounded). */
export function useQueryBudget(maxQueriesPerRequest: number): Middleware {
  return function queryBudget(_ctx, next) {
    return withQueryBudget(maxQueriesPerRequest, next);
  };
}
