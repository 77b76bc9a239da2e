import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * A bound on the database work one request may start, so that no request holds the database for
 * long whatever it asks: every SQL statement the adapter sends counts against the budget of the
 * request it was started from (AsyncLocalStorage follows it through Prisma). Past the budget the statement is not sent and fails with
 * `QueryBudgetExceeded`, which the GraphQL error masking reports as `REQUEST_TOO_EXPENSIVE`.
 * Works alike for PGlite and PostgreSQL; PostgreSQL's `statement_timeout` bounds each statement.
 */
interface Budget {
  used: number;
  readonly limit: number;
}

const storage = new AsyncLocalStorage<Budget>();

export const QUERY_BUDGET_MESSAGE = 'request exceeded its database statement budget';

export class QueryBudgetExceeded extends Error {
  override name = 'QueryBudgetExceeded';
  constructor(limit: number) {
    super(`${QUERY_BUDGET_MESSAGE} (${limit} statements)`);
  }
}

/** Runs `fn` with a budget of `limit` statements (0: unbounded). */
export function withQueryBudget<T>(limit: number, fn: () => Promise<T>): Promise<T> {
  if (limit <= 0) return fn();
  return storage.run({ used: 0, limit }, fn);
}

/** Counts one statement against the current request's budget; throws past it. */
export function chargeStatement(): void {
  const budget = storage.getStore();
  if (!budget) return;
  budget.used += 1;
  if (budget.used > budget.limit) throw new QueryBudgetExceeded(budget.limit);
}
