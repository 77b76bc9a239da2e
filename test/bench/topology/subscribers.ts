import { createClient as createSseClient } from 'graphql-sse';
import { createClient as createWsClient } from 'graphql-ws';
import WebSocket from 'ws';
import { changeCursor, changedTitle, SUBSCRIPTION } from './operations.ts';

/**
 * A live subscriber of the topology load, as a frontend runs one: graphql-sse or graphql-ws with
 * their own reconnection (retrying for ever, every 500 ms), resuming after the last change's
 * cursor: over SSE the reconnection sends it as `Last-Event-ID` (as an EventSource does), over
 * WebSocket the subscription is made again with `after` once the socket is lost. A subscription the
 * server ends (an error, or completed) is recorded as ended, then subscribed again (from the last
 * cursor too) so that the later faults are still measured. It records when it was connected and
 * every title it received.
 */
export interface Subscriber {
  name: string;
  /** Connected spans (performance.now()); `to` null while connected. */
  spans: { from: number; to: number | null }[];
  /** Titles received, with the time each arrived. */
  received: { title: string; at: number }[];
  /** Subscriptions the server ended (a client would stop there), with the reason. */
  ended: { at: number; reason: string }[];
  close(): void;
}

const RETRY_MS = 500;
const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function recorder(name: string) {
  const sub = { name, spans: [] as Subscriber['spans'], received: [] as Subscriber['received'], ended: [] as Subscriber['ended'] };
  const open = () => {
    const last = sub.spans.at(-1);
    if (!last || last.to !== null) sub.spans.push({ from: performance.now(), to: null });
  };
  const lost = () => {
    const last = sub.spans.at(-1);
    if (last && last.to === null) last.to = performance.now();
  };
  let cursor: string | null = null;
  const next = (payload: unknown) => {
    cursor = changeCursor(payload) ?? cursor;
    const title = changedTitle(payload);
    if (title) sub.received.push({ title, at: performance.now() });
  };
  const end = (reason: string) => sub.ended.push({ at: performance.now(), reason });
  return { sub, open, lost, next, end, cursor: () => cursor };
}

const reasonOf = (err: unknown) => (err instanceof Error ? err.message : JSON.stringify(err));

/** What the two client libraries have in common. */
interface SubscribingClient {
  subscribe(request: { query: string; variables?: Record<string, unknown> }, sink: { next(value: unknown): void; error(error: unknown): void; complete(): void }): () => void;
  dispose(): unknown;
}

/**
 * Subscribes through the client `connect` makes (handed the connection callbacks), and again when
 * the server ends the subscription. `streamPerSubscription`: the subscription is its connection
 * (SSE's distinct connections), so its end is a disconnection too.
 */
function keepSubscribed(
  name: string,
  streamPerSubscription: boolean,
  connect: (on: { open(): void; lost(): void; cursor(): string | null }) => SubscribingClient,
): Subscriber {
  const { sub, open, lost: wasLost, next, end, cursor } = recorder(name);
  let closed = false;
  let dispose = () => {};
  let resubscribing = false;
  const lost = () => {
    wasLost();
    // WebSocket: the client would subscribe again with the request it first sent (its first
    // cursor); a new subscription after the last cursor instead.
    if (streamPerSubscription || closed || resubscribing) return;
    resubscribing = true;
    dispose();
    void wait(RETRY_MS).then(() => {
      resubscribing = false;
      if (!closed) subscribe();
    });
  };
  const client = connect({ open, lost, cursor });
  let current = 0;
  const subscribe = () => {
    // SSE: no `after` in the request, the reconnections' Last-Event-ID header carries the cursor.
    const variables = streamPerSubscription ? {} : { after: cursor() };
    // A subscription disposed here (to make it again) is not one the server ended.
    const mine = ++current;
    const stop = client.subscribe(
      { query: SUBSCRIPTION, variables },
      {
        next: (value) => mine === current && next(value),
        error: (err) => mine === current && again(reasonOf(err)),
        complete: () => mine === current && again('completed by the server'),
      },
    );
    dispose = () => {
      if (mine === current) current++;
      stop();
    };
  };
  const again = (reason: string) => {
    if (closed) return;
    end(reason);
    if (streamPerSubscription) lost();
    void wait(RETRY_MS).then(() => !closed && subscribe());
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

/** Over SSE (`graphql-sse`, distinct connections: one POST stream per subscription). */
export const sseSubscriber = (name: string, base: string): Subscriber =>
  keepSubscribed(name, true, ({ open, lost, cursor }) =>
    createSseClient({
      url: `${base}/graphql`,
      retryAttempts: Infinity,
      retry: () => wait(RETRY_MS),
      on: { connecting: lost, connected: open },
      // Asked at every (re)connection: resume after the last change received.
      headers: (): Record<string, string> => {
        const last = cursor();
        return last ? { 'last-event-id': last } : {};
      },
    }),
  );

/** Over WebSocket (`graphql-ws`, the graphql-transport-ws protocol). */
export const wsSubscriber = (name: string, base: string): Subscriber =>
  keepSubscribed(name, false, ({ open, lost }) =>
    createWsClient({
      url: base.replace(/^http/, 'ws') + '/graphql',
      webSocketImpl: WebSocket,
      retryAttempts: Infinity,
      shouldRetry: () => true,
      retryWait: () => wait(RETRY_MS),
      on: { connected: open, closed: lost },
    }),
  );
