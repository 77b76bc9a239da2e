import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from 'graphql-ws';
import { countingChangeBus } from '../helpers/changes.ts';
import { startTestServer, passwordOf, type TestServer } from '../helpers/server.ts';
import { subscribeWs, wsClient, type WsSubscription } from '../helpers/ws.ts';

// GraphQL over WebSocket (graphql-transport-ws) on /graphql: the same authentication, limits,
// visibility and change bus as HTTP and SSE, driven by the `graphql-ws` client against the real server.
let server: TestServer;
const clients: Client[] = [];
const subscriptions: WsSubscription[] = [];

// The in-process bus, counting its listeners: a subscription is set up once it listens, and
// let go once closed.
const { bus, settle, subscribers } = countingChangeBus();

const basic = (login: string, password = passwordOf(login)) => 'Basic ' + Buffer.from(`${login}:${password}`).toString('base64');
const client = (opts: Parameters<typeof wsClient>[1] = {}) => {
  const c = wsClient(server.base, opts);
  clients.push(c);
  return c;
};
const subscribe = (c: Client, query: string, variables?: Record<string, unknown>) => {
  const s = subscribeWs(c, query, variables);
  subscriptions.push(s);
  return s;
};
/** Runs a query or mutation over the socket; resolves with its one result. */
const run = async (c: Client, query: string, variables?: Record<string, unknown>) => {
  const s = subscribe(c, query, variables);
  const result = await Promise.race([s.next(10_000), s.ended.then((e) => Promise.reject(e))]);
  return result;
};
const EVENTS = 'subscription { eventChanged { action eventId event { title status } } }';
const gid = (id: number) => Buffer.from(`Event:${id}`).toString('base64');
const event = (title: string, status = 'publish') => ({
  method: 'POST',
  as: 'admin' as const,
  body: { title, start_date: '2030-02-01 19:00:00', end_date: '2030-02-01 22:00:00', status },
});

beforeAll(async () => {
  // A low cost ceiling, so that an ordinary list page exceeds it (the default is 50,000).
  server = await startTestServer({ now: null, changes: bus, env: { CAL_GRAPHQL_MAX_COST: '2000', CAL_GRAPHQL_MAX_DEPTH: '6' } });
  settle();
});
afterEach(async () => {
  for (const s of subscriptions.splice(0)) s.close();
  for (const c of clients.splice(0)) await c.dispose();
  await expect.poll(subscribers, { timeout: 5_000 }).toBe(0);
  await server.reset();
});
afterAll(() => server?.close());

describe('GraphQL over WebSocket', () => {
  it('delivers a REST write to subscribers, drafts only to those who may read them', async () => {
    const anonymous = subscribe(client(), EVENTS);
    const admin = subscribe(client({ connectionParams: { authorization: basic('admin') } }), EVENTS);
    // Credentials in the upgrade request's Authorization header (a Node client, no Origin) work too.
    const author = subscribe(client({ headers: { authorization: basic('author') } }), EVENTS);
    await expect.poll(subscribers, { timeout: 10_000 }).toBe(3);

    const draft = await server.api('/events', event('Secret Draft', 'draft'));
    expect(draft.status).toBe(201);
    const published = await server.api('/events', event('Open Rehearsal'));
    expect(published.status).toBe(201);

    expect((await admin.next()).data).toEqual({ eventChanged: { action: 'CREATED', eventId: gid(draft.body.id), event: { title: 'Secret Draft', status: 'DRAFT' } } });
    expect((await admin.next()).data).toEqual({ eventChanged: { action: 'CREATED', eventId: gid(published.body.id), event: { title: 'Open Rehearsal', status: 'PUBLISH' } } });
    // Changes arrive in order: the anonymous subscriber's first payload is the published event, never the draft.
    expect((await anonymous.next()).data).toEqual({ eventChanged: { action: 'CREATED', eventId: gid(published.body.id), event: { title: 'Open Rehearsal', status: 'PUBLISH' } } });
    // An author may not read the administrator's draft either.
    expect((await author.next()).data.eventChanged.eventId).toBe(gid(published.body.id));
    expect(JSON.stringify([anonymous.received, author.received])).not.toContain('Secret Draft');
  });

  it('resumes a subscription given the last cursor: the changes written meanwhile, then live', async () => {
    const RESUMABLE = 'subscription($after: String) { eventChanged(after: $after) { cursor event { title } } }';
    const first = subscribe(client(), RESUMABLE);
    await expect.poll(subscribers, { timeout: 10_000 }).toBe(1);
    await server.api('/events', event('Before'));
    const before = (await first.next(10_000)).data.eventChanged;
    first.close();
    await expect.poll(subscribers, { timeout: 5_000 }).toBe(0);
    // Written while the client is away (reconnecting).
    await server.api('/events', event('Meanwhile'));
    const again = subscribe(client(), RESUMABLE, { after: before.cursor });
    expect((await again.next(10_000)).data.eventChanged.event.title).toBe('Meanwhile');
    await server.api('/events', event('Live'));
    expect((await again.next(10_000)).data.eventChanged.event.title).toBe('Live');
    expect(again.received.map((r: any) => r.data.eventChanged.event.title)).toEqual(['Meanwhile', 'Live']);
  });

  it('runs queries and mutations with the connection’s caller', async () => {
    const admin = client({ connectionParams: { authorization: basic('admin') } });
    const created = await run(admin, 'mutation { createEvent(input: { title: "Over WS", startDate: "2030-05-01 10:00", endDate: "2030-05-01 11:00", status: DRAFT }) { ... on CreateEventSuccess { event { databaseId } } } }');
    const id = created.data.createEvent.event.databaseId as number;
    expect(id).toBeGreaterThan(0);
    expect((await run(admin, `{ event(id: ${id}) { title } }`)).data).toEqual({ event: { title: 'Over WS' } });
    // Anonymous: the draft is not there; a mutation is refused as over HTTP.
    const anonymous = client();
    expect((await run(anonymous, `{ event(id: ${id}) { title } }`)).data).toEqual({ event: null });
    const refused = await run(anonymous, `mutation { deleteEvent(id: ${id}) { __typename ... on Error { code } } }`);
    expect(refused.data.deleteEvent.__typename).not.toBe('DeleteEventSuccess');
  });

  it('refuses wrong credentials, in connectionParams or in the upgrade request', async () => {
    for (const c of [
      client({ connectionParams: { authorization: basic('admin', 'wrong') } }),
      client({ headers: { authorization: basic('admin', 'wrong') } }),
      client({ connectionParams: { authorization: 'Bearer nonsense' } }),
    ]) {
      const s = subscribe(c, EVENTS);
      const ended = (await s.ended) as { code?: number; reason?: string };
      expect(ended.code).toBe(4403);
    }
    expect(subscribers()).toBe(0);
  });

  it('ignores Basic credentials a browser attaches to a cross-site upgrade', async () => {
    const foreign = client({ headers: { authorization: basic('admin'), origin: 'https://evil.example' } });
    expect((await run(foreign, '{ me { login } }')).data).toEqual({ me: null });
    const same = client({ headers: { authorization: basic('admin'), origin: server.base } });
    expect((await run(same, '{ me { login } }')).data).toEqual({ me: { login: 'admin' } });
  });

  it('applies the limits of HTTP: depth, cost, validation', async () => {
    const c = client();
    const deep = subscribe(c, 'subscription { eventChanged { event { parent { parent { parent { parent { parent { title } } } } } } } }');
    const deepError = (await deep.ended) as { message?: string; extensions?: { code?: string } }[];
    expect(deepError[0]?.extensions?.code).toBe('GRAPHQL_LIMIT_EXCEEDED');

    const costly = await run(c, '{ events(perPage: 50) { nodes { title venues { name } organizers { name } categories { name } tags { name } } } }');
    expect(costly.errors[0].extensions.code).toBe('COST_LIMIT_EXCEEDED');

    // A subscription's cost is checked as a query's (each delivery could load this much).
    const heavy = subscribe(c, 'subscription { eventChanged { event { occurrences(first: 100) { title venues { name } organizers { name } categories { name } tags { name } } } } }');
    expect((await heavy.next()).errors[0].extensions.code).toBe('COST_LIMIT_EXCEEDED');
    expect(await heavy.ended).toBeNull(); // refused, then completed: nothing listens

    const typo = (await subscribe(c, 'subscription { eventChangd { id } }').ended) as { message: string }[];
    expect(typo[0]?.message).toMatch(/eventChangd/);
    expect(subscribers()).toBe(0);
  });
});
