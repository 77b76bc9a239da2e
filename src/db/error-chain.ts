/** What the error chain walk reads of each error (any of it may be absent). */
export interface ChainedError {
  code?: unknown;
  kind?: unknown;
  message?: unknown;
  cause?: unknown;
  meta?: { driverAdapterError?: unknown };
  originalError?: unknown;
}

/**
 * `e` and the errors it wraps, breadth first: `cause`, Prisma's `meta.driverAdapterError` (where
 * the driver's code and message survive) and GraphQL's `originalError`. Bounded (12 errors), as a
 * chain may loop.
 */
export function* errorChain(e: unknown): Generator<ChainedError> {
  const pending: unknown[] = [e];
  for (let seen = 0; pending.length && seen < 12; seen++) {
    const cur = pending.shift() as ChainedError | null | undefined;
    if (!cur || typeof cur !== 'object') continue;
    yield cur;
    pending.push(cur.cause, cur.meta?.driverAdapterError, cur.originalError);
  }
}
