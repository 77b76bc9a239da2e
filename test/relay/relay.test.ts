import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  commitMutation,
  ConnectionHandler,
  createOperationDescriptor,
  Environment,
  fetchQuery,
  getRequest,
  getSingularSelector,
  Network,
  Observable,
  RecordSource,
  requestSubscription,
  Store,
  type ConcreteRequest,
  type GraphQLResponse,
  type GraphQLResponseWithData,
  type MutationParameters,
  type ReaderFragment,
  type RequestParameters,
  type Variables,
} from 'relay-runtime';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { testBackend } from '../helpers/database.ts';
import { resumeAcrossADroppedSocket, resumingWsClient } from '../helpers/resume.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { compileRelay, type RelayArtifacts } from './compile.ts';

// The API driven the way Relay drives it, in Node without React: relay-compiler compiles the
// documents of test/relay/documents.ts against the committed schema (compile.ts), and relay-runtime
// runs its artifacts against the real server, every operation persisted (`doc_id`, the server's
// trusted documents being relay-compiler's own persist output, read as the compiler writes it).

type Artifact<T> = { default: T };
let compiled: RelayArtifacts;
const artifact = async <T = ConcreteRequest>(name: string): Promise<T> =>
  ((await import(/* @vite-ignore */ pathToFileURL(`${compiled.dir}/${name}.graphql.ts`).href)) as Artifact<T>).default;

let server: TestServer;
let ws: Client;
const ops: Record<string, ConcreteRequest> = {};
let listFragment: ReaderFragment;
let rowFragment: ReaderFragment;
/** Every response the network layer received, by operation (what the server answered each page). */
const answered: { name: string; variables: Variables; json: GraphQLResponseWithData }[] = [];

beforeAll(async () => {
  compiled = compileRelay(testBackend);
  for (const name of ['CalendarPageQuery', 'EventListPaginationQuery', 'EventRowRefetchQuery', 'CreateEventMutation', 'DeleteEventMutation', 'EventChangesSubscription', 'EventResumeSubscription']) {
    ops[name] = await artifact(name);
  }
  listFragment = await artifact<ReaderFragment>('EventList_query');
  rowFragment = await artifact<ReaderFragment>('EventRow_event');
  server = await startTestServer({ env: { CAL_GRAPHQL_TRUSTED_DOCUMENTS: compiled.persisted } });
  ws = createClient({ url: server.base.replace('http', 'ws') + '/graphql', webSocketImpl: WebSocket, retryAttempts: 0 });
}, 600_000);
afterAll(async () => {
  await ws?.dispose();
  await server?.close();
});

/**
 * A Relay environment on the server: queries anonymously, mutations as the administrator, both
 * by `doc_id` alone (no text: the artifacts are persisted); subscriptions over graphql-ws, by ID.
 */
function environment(subscriptions: Client = ws): Environment {
  const fetchFn = async (params: RequestParameters, variables: Variables): Promise<GraphQLResponse> => {
    expect(params.text, `${params.name} is persisted`).toBeNull();
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (params.operationKind === 'mutation') headers.authorization = server.authHeader('admin');
    const res = await fetch(`${server.base}/graphql`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ doc_id: params.id, variables }),
    });
    const json = (await res.json()) as GraphQLResponseWithData;
    answered.push({ name: params.name, variables, json });
    return json;
  };
  const subscribeFn = (params: RequestParameters, variables: Variables) =>
    Observable.create<GraphQLResponse>((sink) => subscriptions.subscribe({ query: params.text ?? '', variables, extensions: { doc_id: params.id } }, sink as never));
  return new Environment({ network: Network.create(fetchFn, subscribeFn), store: new Store(new RecordSource()) });
}

/** Runs a query (as usePaginationFragment's loads do) and keeps its data in the store. */
async function query(env: Environment, name: string, variables: Variables) {
  await fetchQuery(env, ops[name]!, variables).toPromise();
  env.retain(createOperationDescriptor(getRequest(ops[name]!), variables));
}

/** The list as the EventList fragment reads it from the store: each row's title (EventRow fragment). */
function list(env: Environment, variables: Variables) {
  const root = env.lookup(createOperationDescriptor(getRequest(ops.CalendarPageQuery!), variables).fragment).data;
  const events = (env.lookup(getSingularSelector(listFragment, root)).data as { events: ListData }).events;
  const titles = events.edges.map((e) => (e?.node ? (env.lookup(getSingularSelector(rowFragment, e.node)).data as { title: string } | null)?.title : null));
  return { ...events, titles };
}
interface ListData {
  __id: string;
  totalCount: number;
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
  edges: ({ cursor: string; node: { id: string } | null } | null)[];
}

/** The titles the server answered for the last load. */
const lastPage = () => (answered.at(-1)!.json.data as { events: { edges: { node: { title: string } }[] } }).events.edges.map((e) => e.node.title);

const CONNECTION = ConnectionHandler.getConnectionID('client:root', 'EventList_events');
const loadNext = (env: Environment, count: number) =>
  query(env, 'EventListPaginationQuery', { first: count, after: list(env, {}).pageInfo.endCursor, last: null, before: null });
const loadPrevious = (env: Environment, count: number) =>
  query(env, 'EventListPaginationQuery', { first: null, after: null, last: count, before: list(env, {}).pageInfo.startCursor });

async function rest(path: string, body?: object, method = 'POST') {
  const res = await server.api(path, { method, as: 'admin', body });
  expect(res.status, res.text).toBeLessThan(300);
  return res.body;
}
const create = (title: string, day: string) => rest('/events', { title, start_date: `2026-12-${day}`, end_date: `2026-12-${day}`, status: 'publish' });
const trash = (id: number) => rest(`/events/${id}`, undefined, 'DELETE');
const gid = (id: number) => Buffer.from(`Event:${id}`).toString('base64');

function mutate<T extends MutationParameters>(env: Environment, name: string, variables: T['variables']): Promise<T['response']> {
  return new Promise((resolve, reject) =>
    commitMutation<T>(env, { mutation: ops[name]!, variables, onCompleted: (response) => resolve(response), onError: reject }),
  );
}

describe('Relay: a paginated list, its rows, writes and the change feed', () => {
  const ids: Record<string, number> = {};
  beforeAll(async () => {
    for (const [title, day] of [
      ['A', '01 10:00'],
      ['B1', '02 10:00'],
      ['B2', '02 10:00'],
      ['C', '03 10:00'],
      ['D', '04 10:00'],
      ['E', '05 10:00'],
      ['F', '06 10:00'],
      ['G', '07 10:00'],
    ]) {
      ids[title!] = (await create(title!, day!)).id;
    }
  });

  it('pages forward and back with a deletion and an insertion between loads: no skip, no repeat', async () => {
    const env = environment();
    await query(env, 'CalendarPageQuery', { first: 3 });
    expect(list(env, { first: 3 }).titles).toEqual(['A', 'B1', 'B2']);

    // Between the loads a record of the loaded page is trashed and one is inserted before the cursor:
    // with offsets the next page would lose C (trash) and repeat B2 (insertion).
    await trash(ids.A!);
    ids.Early = (await create('Early', '01 09:00')).id;
    await loadNext(env, 3);
    expect(lastPage()).toEqual(['C', 'D', 'E']);
    await trash(ids.D!);
    await create('Late', '08 10:00');
    await loadNext(env, 3);
    expect(lastPage()).toEqual(['F', 'G', 'Late']);
    const forward = list(env, {});
    // The store holds what each page answered, in order (A and D as loaded before their trash).
    expect(forward.titles).toEqual(['A', 'B1', 'B2', 'C', 'D', 'E', 'F', 'G', 'Late']);
    expect(forward.pageInfo.hasNextPage).toBe(false);

    // Back from the end of the list (`last` alone), with the same kind of writes between loads.
    const back = environment();
    await query(back, 'CalendarPageQuery', { last: 3 });
    expect(list(back, {}).titles).toEqual(['F', 'G', 'Late']);
    await trash(ids.G!);
    await create('Later', '09 10:00');
    await loadPrevious(back, 3);
    expect(lastPage()).toEqual(['B2', 'C', 'E']);
    await trash(ids.B1!);
    await create('Earliest', '01 08:00');
    await loadPrevious(back, 3);
    expect(lastPage()).toEqual(['Earliest', 'Early']);
    const backward = list(back, {});
    expect(backward.titles).toEqual(['Earliest', 'Early', 'B2', 'C', 'E', 'F', 'G', 'Late']);
    expect(backward.pageInfo).toMatchObject({ hasPreviousPage: false, hasNextPage: false });

    // Every load answered records once: no record came twice in one walk.
    const loads = answered.filter((a) => a.name === 'EventListPaginationQuery' || a.name === 'CalendarPageQuery').slice(-6);
    const seen = loads.flatMap((a) => (a.json.data as { events: { edges: { node: { id: string } }[] } }).events.edges.map((e) => e.node.id));
    expect(new Set(seen.slice(0, 9)).size).toBe(9);
    expect(new Set(seen.slice(9)).size).toBe(seen.length - 9);
  });

  it('refetches one row through node(id), and merges a create (appendEdge) but never a failed one', async () => {
    const env = environment();
    await query(env, 'CalendarPageQuery', { first: 20 });
    const before = list(env, {});
    const row = before.edges[0]!.node!;
    await rest(`/events/${Buffer.from(row.id, 'base64').toString().split(':')[1]}`, { title: 'Renamed over REST' });
    await query(env, 'EventRowRefetchQuery', { id: row.id });
    expect(list(env, {}).titles[0]).toBe('Renamed over REST');

    const made = await mutate(env, 'CreateEventMutation', {
      input: { title: 'Made in Relay', startDate: '2026-12-20 19:00', endDate: '2026-12-20 21:00', status: 'PUBLISH' },
      connections: [CONNECTION],
    });
    expect(made).toMatchObject({ createEvent: { __typename: 'CreateEventSuccess' } });
    const after = list(env, {});
    expect(after.titles).toEqual([...before.titles.map((t, i) => (i === 0 ? 'Renamed over REST' : t)), 'Made in Relay']);

    const failed = await mutate(env, 'CreateEventMutation', { input: { title: 'No dates', startDate: '', endDate: '' }, connections: [CONNECTION] });
    expect(failed).toMatchObject({ createEvent: { __typename: 'ValidationError' } });
    const unchanged = list(env, {});
    expect(unchanged.titles).toEqual(after.titles);
    expect(unchanged.edges.every((e) => e?.node?.id)).toBe(true);
  });

  it('removes a deleted edge (deleteEdge), and a record deleted elsewhere through the change feed (deleteRecord)', async () => {
    const env = environment();
    await query(env, 'CalendarPageQuery', { first: 20 });
    const [first, second, third] = list(env, {}).edges.map((e) => e!.node!.id);

    const deleted = await mutate(env, 'DeleteEventMutation', { id: first, connections: [CONNECTION] });
    expect(deleted).toEqual({ deleteEvent: { __typename: 'DeleteEventSuccess', deletedId: first } });
    expect(list(env, {}).edges.map((e) => e?.node?.id)).not.toContain(first);

    const changes: { action: string }[] = [];
    const subscription = requestSubscription(env, {
      subscription: ops.EventChangesSubscription!,
      variables: {},
      onNext: (response) => changes.push((response as { eventChanged: { action: string } }).eventChanged),
      onError: (e) => changes.push({ action: `error ${String(e)}` }),
    });
    try {
      // An update elsewhere merges into the record the list shows; a deletion removes it from the store.
      await expect
        .poll(async () => {
          await rest(`/events/${Buffer.from(second!, 'base64').toString().split(':')[1]}`, { title: 'Renamed live' });
          return list(env, {}).titles;
        }, { timeout: 15_000, interval: 500 })
        .toContain('Renamed live');
      const thirdId = Number(Buffer.from(third!, 'base64').toString().split(':')[1]);
      expect(env.getStore().getSource().get(gid(thirdId))).toBeTruthy();
      await trash(thirdId);
      await expect.poll(() => env.getStore().getSource().get(gid(thirdId)), { timeout: 15_000 }).toBeNull();
      expect(changes.map((c) => c.action)).toContain('DELETED');
      expect(list(env, {}).edges.find((e) => e?.node?.id === third)?.node ?? null).toBeNull();
    } finally {
      subscription.dispose();
    }
  });

  it("anonymous callers run the persisted operations only: Relay's doc_id (GET too), and nothing else", async () => {
    const refetch = ops.EventRowRefetchQuery!.params;
    const variables = encodeURIComponent(JSON.stringify({ id: gid(ids.C!) }));
    const byGet = await server.request(`/graphql?doc_id=${refetch.id}&variables=${variables}`);
    expect([byGet.status, byGet.body.data?.node?.title]).toEqual([200, 'C']);
    const other = await server.request('/graphql', { method: 'POST', body: { query: '{ events { totalCount } }' } });
    expect(other.body.errors[0].extensions.code).toBe('PERSISTED_QUERY_ONLY');
    const unknown = await server.request('/graphql', { method: 'POST', body: { doc_id: 'f'.repeat(64) } });
    expect(unknown.body.errors[0].extensions.code).toBe('PERSISTED_QUERY_NOT_IN_LIST');
  });

  it("requestSubscription resumes after a dropped socket from the last cursor: nothing missed, nothing repeated", async () => {
    const resuming = resumingWsClient(server);
    const env = environment(resuming.client);
    const { received, logged } = await resumeAcrossADroppedSocket(server, resuming, (after, cursors) => {
      const subscription = requestSubscription(env, {
        subscription: ops.EventResumeSubscription!,
        variables: { after },
        onNext: (response) => cursors.push((response as { eventChanged: { cursor: string } }).eventChanged.cursor),
        onError: (e) => cursors.push(`error ${String(e)}`),
      });
      return () => subscription.dispose();
    });
    expect(logged).toHaveLength(5);
    expect(received).toEqual(logged);
  });
});
