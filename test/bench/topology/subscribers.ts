import { createClient as createSseClient } from 'graphql-sse';
import { createClient as createWsClient } from 'graphql-ws';
import WebSocket from 'ws';
import { changedTitle, SUBSCRIPTION } from './operations.ts';

/**
 * A live subscriber of the topology load, as a frontend runs one: graphql-sse or graphql-ws with
 * their own reconnection (retrying for ever, every 500 ms), and a new subscription when the server
 * ends one. It records when it was connected and every title it received.
 */
export interface Subscriber {
  name: string;
  /** Connected spans (performance.now()); `to` null while connected. */
  spans: { from: number; to: number | null }[];
  /** Titles received, with the time each arrived. */
  received: { title: string; at: number }[];
  /** Errors the client reported (a subscription it could not keep). */
  errors: string[];
  close(): void;
}

const RETRY_MS = 500;
const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function recorder(name: string) {
  const sub = { name, spans: [] as Subscriber['spans'], received: [] as Subscriber['received'], errors: [] as string[] };
  const open = () => {
    const last = sub.spans.at(-1);
    if (!last || last.to !== null) sub.spans.push({ from: performance.now(), to: null });
  };
  const lost = () => {
    const last = sub.spans.at(-1);
    if (last && last.to === null) last.to = performance.now();
  };
  const next = (payload: unknown) => {
    const title = changedTitle(payload);
    if (title) sub.received.push({ title, at: performance.now() });
  };
  return { sub, open, lost, next };
}

/** Over SSE (`graphql-sse`, distinct connections: one POST stream per subscription). */
export function sseSubscriber(name: string, base: string): Subscriber {
  const { sub, open, lost, next } = recorder(name);
  let closed = false;
  const client = createSseClient({
    url: `${base}/graphql`,
    retryAttempts: Infinity,
    retry: () => wait(RETRY_MS),
    on: { connecting: lost, connected: open },
  });
  let dispose = () => {};
  const subscribe = () => {
    dispose = client.subscribe(
      { query: SUBSCRIPTION },
      {
        next,
        error: (err) => {
          sub.errors.push(String((err as Error)?.message ?? JSON.stringify(err)));
          again();
        },
        complete: () => again(),
      },
    );
  };
  const again = () => {
    lost();
    if (!closed) void wait(RETRY_MS).then(() => !closed && subscribe());
  };
  subscribe();
  return {
    ...sub,
    close: () => {
      closed = true;
      dispose();
      client.dispose();
      lost();
    },
  };
}

/** Over WebSocket (`graphql-ws`, the graphql-transport-ws protocol). */
export function wsSubscriber(name: string, base: string): Subscriber {
  const { sub, open, lost, next } = recorder(name);
  let closed = false;
  const client = createWsClient({
    url: base.replace(/^http/, 'ws') + '/graphql',
    webSocketImpl: WebSocket,
    retryAttempts: Infinity,
    shouldRetry: () => true,
    retryWait: () => wait(RETRY_MS),
    on: { connected: open, closed: lost },
  });
  let dispose = () => {};
  const subscribe = () => {
    dispose = client.subscribe(
      { query: SUBSCRIPTION },
      {
        next,
        error: (err) => {
          sub.errors.push(String((err as Error)?.message ?? JSON.stringify(err)));
          again();
        },
        complete: () => again(),
      },
    );
  };
  const again = () => {
    if (!closed) void wait(RETRY_MS).then(() => !closed && subscribe());
  };
  subscribe();
  return {
    ...sub,
    close: () => {
      closed = true;
      dispose();
      void client.dispose();
      lost();
    },
  };
}
