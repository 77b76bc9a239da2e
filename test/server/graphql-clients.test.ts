import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApolloClient, gql, HttpLink, InMemoryCache, split, type TypedDocumentNode } from '@apollo/client';
import { GraphQLWsLink } from '@apollo/client/link/subscriptions';
import { getMainDefinition } from '@apollo/client/utilities';
import { Client as UrqlClient, fetchExchange, subscriptionExchange } from '@urql/core';
import { createClient as createSseClient } from 'graphql-sse';
import { createClient as createWsClient } from 'graphql-ws';
import WebSocket from 'ws';
import { resumeAcrossADroppedSocket, resumingWsClient } from '../helpers/resume.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

// The clients frontends use, in Node without a browser, against the real server.
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ now: null });
  for (let i = 1; i <= 3; i++) {
    await server.create('/events', { title: `Event ${i}`, start_date: `2030-02-0${i} 19:00:00`, end_date: `2030-02-0${i} 22:00:00`, status: 'publish' });
  }
});
afterAll(() => server?.close());

interface Upcoming {
  events: { pageInfo: { hasNextPage: boolean; endCursor: string | null }; nodes: { id: string; title: string }[] };
}
const UPCOMING: TypedDocumentNode<Upcoming, { after?: string | null }> = gql`
  query Upcoming($after: String) {
    events(first: 2, after: $after, filter: { startDate: "2030-01-01", endDate: "2031-01-01" }) {
      pageInfo { hasNextPage endCursor }
      nodes { id title }
    }
  }
`;

describe('Apollo Client', () => {
  it('queries, pages with fetchMore into its normalized cache, mutates, and subscribes over graphql-ws', async () => {
    const authorization = server.authHeader('admin');
    const ws = createWsClient({ url: server.base.replace('http', 'ws') + '/graphql', webSocketImpl: WebSocket, connectionParams: { authorization } });
    const link = split(
      ({ query }) => {
        const def = getMainDefinition(query);
        return def.kind === 'OperationDefinition' && def.operation === 'subscription';
      },
      new GraphQLWsLink(ws),
      new HttpLink({ uri: `${server.base}/graphql`, headers: { authorization } }),
    );
    const client = new ApolloClient({
      link,
      cache: new InMemoryCache({
        typePolicies: {
          Query: {
            fields: {
              // One list per filter, pages appended in order (Relay cursors).
              events: {
                keyArgs: ['filter'],
                merge: (existing: { nodes?: unknown[] } | undefined, incoming: { nodes: unknown[] }) => ({ ...incoming, nodes: [...(existing?.nodes ?? []), ...incoming.nodes] }),
              },
            },
          },
        },
      }),
    });
    try {
      const first = await client.query({ query: UPCOMING });
      expect(first.data!.events.nodes.map((n: { title: string }) => n.title)).toEqual(['Event 1', 'Event 2']);

      const watch = client.watchQuery({ query: UPCOMING });
      const watching = watch.subscribe(() => {});
      await watch.fetchMore({ variables: { after: first.data!.events.pageInfo.endCursor } });
      const merged = client.readQuery({ query: UPCOMING })!;
      expect(merged.events.nodes.map((n: { title: string }) => n.title)).toEqual(['Event 1', 'Event 2', 'Event 3']);
      watching.unsubscribe();

      // A mutation's payload updates the normalized record (its global ID, which the argument takes
      // too): the cached list shows the new title.
      const id = merged.events.nodes[0].id as string;
      await client.mutate({
        mutation: gql`mutation Rename($id: ID!) { updateEvent(id: $id, input: { title: "Renamed" }) { ... on UpdateEventSuccess { event { id title } } } }`,
        variables: { id },
      });
      const databaseId = (await server.graphql(`{ node(id: "${id}") { ... on Event { databaseId } } }`)).data.node.databaseId;
      expect(client.readQuery({ query: UPCOMING })!.events.nodes[0].title).toBe('Renamed');

      const changes: unknown[] = [];
      const subscription = client.subscribe({ query: gql`subscription { eventChanged { action event { title } } }` }).subscribe({ next: (r) => changes.push(r.data) });
      await new Promise((resolve) => ws.on('connected', resolve));
      await expect
        .poll(async () => {
          await server.api(`/events/${databaseId}`, { method: 'POST', as: 'admin', body: { title: 'Renamed again' } });
          return changes.length;
        }, { timeout: 15_000, interval: 500 })
        .toBeGreaterThan(0);
      expect(changes[0]).toMatchObject({ eventChanged: { action: 'UPDATED', event: { title: 'Renamed again' } } });
      subscription.unsubscribe();
    } finally {
      client.stop();
      await ws.dispose();
    }
  });
});

const RESUMABLE = gql`
  subscription Resumable($after: String) {
    eventChanged(after: $after) { cursor action event { title } }
  }
`;

describe('Apollo Client, resuming', () => {
  it('resumes after a dropped socket with graphql-ws\'s retry and the last cursor: nothing missed, nothing repeated', async () => {
    const resuming = resumingWsClient(server);
    const client = new ApolloClient({ link: new GraphQLWsLink(resuming.client), cache: new InMemoryCache() });
    try {
      const { received, logged } = await resumeAcrossADroppedSocket(server, resuming, (after, cursors) => {
        const subscription = client
          .subscribe({ query: RESUMABLE, variables: { after } })
          .subscribe({ next: (r) => cursors.push((r.data as { eventChanged: { cursor: string } }).eventChanged.cursor) });
        return () => subscription.unsubscribe();
      });
      expect(logged).toHaveLength(5);
      expect(received).toEqual(logged);
    } finally {
      client.stop();
    }
  });
});

describe('urql, resuming', () => {
  it('resumes after a dropped socket with graphql-ws\'s retry and the last cursor: nothing missed, nothing repeated', async () => {
    const resuming = resumingWsClient(server);
    const client = new UrqlClient({
      url: `${server.base}/graphql`,
      exchanges: [
        subscriptionExchange({
          forwardSubscription: (request) => ({
            subscribe: (sink) => ({ unsubscribe: resuming.client.subscribe({ ...request, query: request.query ?? '' }, sink) }),
          }),
        }),
      ],
    });
    const { received, logged } = await resumeAcrossADroppedSocket(server, resuming, (after, cursors) => {
      const { unsubscribe } = client.subscription(RESUMABLE, { after }).subscribe((r) => {
        if (r.data) cursors.push((r.data as { eventChanged: { cursor: string } }).eventChanged.cursor);
      });
      return unsubscribe;
    });
    expect(logged).toHaveLength(5);
    expect(received).toEqual(logged);
  });

  it('queries over HTTP and subscribes over SSE (graphql-sse)', async () => {
    const sse = createSseClient({ url: `${server.base}/graphql` });
    const client = new UrqlClient({
      url: `${server.base}/graphql`,
      exchanges: [
        fetchExchange,
        subscriptionExchange({
          forwardSubscription: (request) => ({
            subscribe: (sink) => ({ unsubscribe: sse.subscribe({ ...request, query: request.query ?? '' }, sink) }),
          }),
        }),
      ],
    });
    const result = await client.query(UPCOMING, {}).toPromise();
    expect(result.error).toBeUndefined();
    expect(result.data?.events.nodes).toHaveLength(2);

    const changes: unknown[] = [];
    const { unsubscribe } = client.subscription(gql`subscription { eventChanged { action event { title } } }`, {}).subscribe((r) => changes.push(r.data));
    try {
      await expect
        .poll(async () => {
          await server.create('/events', { title: 'Live', start_date: '2030-03-01 19:00:00', end_date: '2030-03-01 22:00:00', status: 'publish' });
          return changes.length;
        }, { timeout: 15_000, interval: 500 })
        .toBeGreaterThan(0);
      expect(changes[0]).toMatchObject({ eventChanged: { action: 'CREATED', event: { title: 'Live' } } });
    } finally {
      unsubscribe();
      sse.dispose();
    }
  });
});
