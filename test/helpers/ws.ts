import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';

/**
 * A `graphql-ws` client (the `graphql-transport-ws` protocol, as Apollo Client and urql use it)
 * connected to a test server's `/graphql`; `connectionParams` and upgrade `headers` as given.
 */
export function wsClient(base: string, opts: { connectionParams?: Record<string, unknown>; headers?: Record<string, string> } = {}): Client {
  const headers = opts.headers ?? {};
  return createClient({
    url: base.replace(/^http/, 'ws') + '/graphql',
    webSocketImpl: class extends WebSocket {
      constructor(url: string | URL, protocols?: string | string[]) {
        super(url, protocols, { headers });
      }
    },
    connectionParams: opts.connectionParams,
    retryAttempts: 0,
    lazy: true,
  });
}

export interface WsSubscription {
  /** Resolves with the next payload not yet taken; rejects after `timeoutMs` or with the subscription's error. */
  next(timeoutMs?: number): Promise<any>;
  /** Resolves with the error or close event that ended the subscription. */
  ended: Promise<unknown>;
  received: any[];
  close(): void;
}

/** Subscribes and collects the payloads. */
export function subscribeWs(client: Client, query: string, variables?: Record<string, unknown>): WsSubscription {
  const received: any[] = [];
  let taken = 0;
  let wake: (() => void) | undefined;
  let failure: unknown;
  let endedWith!: (e: unknown) => void;
  const ended = new Promise<unknown>((resolve) => (endedWith = resolve));
  const dispose = client.subscribe(
    { query, variables },
    {
      next: (value) => {
        received.push(value);
        wake?.();
      },
      error: (e) => {
        failure = e;
        endedWith(e);
        wake?.();
      },
      complete: () => {
        endedWith(null);
        wake?.();
      },
    },
  );
  return {
    received,
    ended,
    async next(timeoutMs = 2_000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length <= taken) {
        if (failure) throw failure instanceof Error ? failure : new Error(`subscription failed: ${JSON.stringify(failure)}`);
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`no subscription payload within ${timeoutMs} ms (received ${JSON.stringify(received)})`);
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, left);
        });
      }
      return received[taken++];
    },
    close: dispose,
  };
}
