import type { FormattedExecutionResult } from 'graphql';
import { createClient, type Client, type Sink, type SubscribePayload } from 'graphql-ws';
import WebSocket from 'ws';
import { expect } from 'vitest';
import type { TestServer } from './server.ts';

/**
 * Resuming over graphql-ws as a frontend does it: graphql-ws's own retry (`retryAttempts`,
 * `shouldRetry`) reconnects and re-sends each subscription's subscribe message, the payload object
 * it was given. This client hands it a copy whose `after` variable follows the `cursor` of every
 * payload received, so the retry re-subscribes from the last change seen: the server replays what
 * was written meanwhile, then goes on live. Apollo Client's GraphQLWsLink, urql's
 * subscriptionExchange and a Relay network all take it as they take a plain graphql-ws client.
 *
 * `away`: the socket the client has now is cut (`ws` terminate, as a dropped connection) and the
 * client stays away, retrying only once `whileAway` has run.
 */
export function resumingWsClient(server: TestServer): { client: Client; away(whileAway: () => Promise<void>): Promise<void>; connections: () => number } {
  const sockets: WebSocket[] = [];
  let gate: Promise<void> = Promise.resolve();
  const ws = createClient({
    url: server.base.replace(/^http/, 'ws') + '/graphql',
    webSocketImpl: WebSocket,
    connectionParams: { authorization: server.authHeader('admin') },
    lazy: true,
    retryAttempts: 5,
    // A dropped socket (1006) is retried; graphql-ws's default test, spelled out.
    shouldRetry: (closeEvent) => typeof closeEvent === 'object' && closeEvent !== null && 'code' in closeEvent,
    retryWait: () => gate,
    on: { connected: (socket) => void sockets.push(socket as WebSocket) },
  });
  const client: Client = {
    ...ws,
    subscribe<Data, Extensions>(payload: SubscribePayload, sink: Sink<FormattedExecutionResult<Data, Extensions>>) {
      const live = { ...payload, variables: { ...payload.variables } };
      return ws.subscribe<Data, Extensions>(live, {
        ...sink,
        next(value) {
          const field = Object.values((value.data ?? {}) as Record<string, unknown>)[0] as { cursor?: string } | null | undefined;
          if (field?.cursor) live.variables.after = field.cursor;
          sink.next(value);
        },
      });
    },
  };
  return {
    client,
    connections: () => sockets.length,
    async away(whileAway) {
      let back!: () => void;
      gate = new Promise((resolve) => (back = resolve));
      const closed = new Promise((resolve) => ws.on('closed', resolve));
      sockets.at(-1)!.terminate();
      await closed;
      try {
        await whileAway();
      } finally {
        back();
      }
    },
  };
}

const EVENT_CHANGES = `query ($after: String) { changes(after: $after, first: 100, types: [EVENT]) { edges { cursor node { action recordId } } pageInfo { hasNextPage endCursor } } }`;

type Logged = { cursor: string; node: { action: string; recordId: string } };

/** The event changes in the log after `after` (all pages). */
async function eventChanges(server: TestServer, after: string | null): Promise<Logged[]> {
  const cursors: Logged[] = [];
  for (let from = after; ; ) {
    const r = await server.graphql<any>(EVENT_CHANGES, { after: from });
    expect(r.errors).toBeUndefined();
    cursors.push(...(r.data.changes.edges as Logged[]));
    if (!r.data.changes.pageInfo.hasNextPage) return cursors;
    from = r.data.changes.pageInfo.endCursor;
  }
}

/**
 * The scenario every client goes through: subscribed with `after` (a change written before is
 * replayed), one change live, the socket dropped, two changes written while away, the client's
 * retry back with its last cursor, one change live again. `subscribe` starts the client's own
 * subscription to `eventChanged(after: $after) { cursor … }` and pushes each cursor it receives.
 * Returns what was received and what the log holds since the start, for the caller to compare.
 */
export async function resumeAcrossADroppedSocket(
  server: TestServer,
  resuming: ReturnType<typeof resumingWsClient>,
  subscribe: (after: string, received: string[]) => () => void,
): Promise<{ received: string[]; logged: string[] }> {
  const { id } = await server.create('/events', { title: 'Resumed', start_date: '2030-04-01 19:00:00', end_date: '2030-04-01 22:00:00', status: 'publish' });
  const rename = async (title: string) => {
    const r = await server.api(`/events/${id}`, { method: 'POST', as: 'admin', body: { title } });
    expect(r.status).toBe(200);
  };
  // The record's creation, once the log shows it (on PostgreSQL a change becomes readable a moment
  // after its commit, behind the log's visibility horizon): the start, with nothing of ours before.
  const created = { action: 'CREATED', recordId: Buffer.from(`Event:${id}`).toString('base64') };
  let start: string | undefined;
  await expect
    .poll(async () => (start = (await eventChanges(server, null)).find((c) => c.node.action === created.action && c.node.recordId === created.recordId)?.cursor), { timeout: 15_000 })
    .toBeDefined();
  await rename('before subscribing');
  const received: string[] = [];
  const unsubscribe = subscribe(start!, received);
  try {
    await expect.poll(() => received.length, { timeout: 15_000 }).toBe(1);
    await rename('live');
    await expect.poll(() => received.length, { timeout: 15_000 }).toBe(2);
    await resuming.away(async () => {
      await rename('while away 1');
      await rename('while away 2');
    });
    await expect.poll(() => received.length, { timeout: 15_000 }).toBe(4);
    await rename('live again');
    await expect.poll(() => received.length, { timeout: 15_000 }).toBe(5);
    // Nothing more trickles in (a repeat would).
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(resuming.connections()).toBe(2);
    return { received, logged: (await eventChanges(server, start!)).map((c) => c.cursor) };
  } finally {
    unsubscribe();
    await resuming.client.dispose();
  }
}
