import { createContextKey, valueOf, withValue } from '../telemetry/scope.ts';

/**
 * A bound on the database work one request may start, so that no request holds the database for
 * long whatever it asks: every SQL statement the adapter sends counts against the budget of the
 * request it was started from (the request's context, OpenTelemetry's AsyncLocalStorage, follows it through Prisma). Past the budget the statement is not sent and fails with
 * `QueryBudgetExceeded`, which the GraphQL error masking reports as `REQUEST_TOO_EXPENSIVE`.
 * Works alike for PGlite and PostgreSQL; PostgreSQL's `statement_timeout` bounds each statement.
 */
interface Budget {
  used: number;
  readonly limit: number;
}

const BUDGET = createContextKey('cal-events query budget');

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
  return withValue(BUDGET, { used: 0, limit } satisfies Budget, fn);
}

/**
 * Runs `fn` with a budget of its own, as large as the current one (unbounded when there is none):
 * for work that repeats for as long as one request lasts, such as each delivery of a
 * subscription, whose statements would otherwise add up in the budget of the request that opened
 * it until a long-lived subscription is ended for being too expensive.
 */
export function withRenewedBudget<T>(fn: () => Promise<T>): Promise<T> {
  const budget = valueOf<Budget>(BUDGET);
  return budget ? withQueryBudget(budget.limit, fn) : fn();
}

/** Counts one statement against the current request's budget; throws past it. */
export function chargeStatement(): void {
  const budget = valueOf<Budget>(BUDGET);
  if (!budget) return;
  budget.used += 1;
  if (budget.used > budget.limit) throw new QueryBudgetExceeded(budget.limit);
}
