import { isAsyncIterable, type Plugin } from 'graphql-yoga';
import { withRenewedBudget } from '../db/request-budget.ts';

/**
 * Each event of a subscription (over SSE as over WebSocket) is executed with a statement budget of
 * its own, as large as a request's: a subscription lasts as long as its client stays, and its
 * events' reads would otherwise add up in the budget of the request that opened it until it is
 * ended as too expensive. graphql-js executes an event's fields inside the stream's `next()`, in
 * the context of its caller, which is where the renewed budget is set.
 */
export function useDeliveryBudgets(): Plugin {
  return {
    onSubscribe() {
      return {
        onSubscribeResult({ result, setResult }) {
          if (!isAsyncIterable(result)) return;
          const iterator = result[Symbol.asyncIterator]();
          setResult({
            [Symbol.asyncIterator]() {
              return this;
            },
            next: () => withRenewedBudget(() => iterator.next()),
            return: (value?: unknown) => iterator.return?.(value) ?? Promise.resolve({ done: true as const, value: undefined }),
            throw: (error?: unknown) => iterator.throw?.(error) ?? Promise.reject(error),
          } as AsyncIterableIterator<never>);
        },
      };
    },
  };
}
