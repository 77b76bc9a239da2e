import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphiqlExamples } from '../../src/server/graphiql-examples.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

// @defer / @stream over HTTP (multipart/mixed), with the limits still applied; GraphiQL's first query and examples.
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ now: new Date('2030-01-15T12:00:00Z'), env: { CAL_GRAPHQL_MAX_DEPTH: '6' } });
  for (const title of ['First', 'Second', 'Third']) {
    await server.create('/events', { title, start_date: '2030-02-01 19:00:00', end_date: '2030-02-01 22:00:00', status: 'publish', categories: ['Jazz'] });
  }
});
afterAll(() => server?.close());

/** The JSON parts of a multipart/mixed body. */
function parts(text: string, boundary: string): any[] {
  return text
    .split(`--${boundary}`)
    .map((p) => p.split('\r\n\r\n').slice(1).join('\r\n\r\n').trim())
    .filter((p) => p.startsWith('{'))
    .map((p) => JSON.parse(p));
}

const post = (query: string) =>
  fetch(`${server.base}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'multipart/mixed' }, body: JSON.stringify({ query }) });

describe('incremental delivery', () => {
  it('answers @defer as multipart/mixed: the page first, the deferred fields after', async () => {
    const res = await post('{ events(perPage: 3) { nodes { title ... @defer(label: "slow") { categories { name } } } } }');
    expect(res.status).toBe(200);
    const type = res.headers.get('content-type')!;
    expect(type).toMatch(/^multipart\/mixed/);
    const boundary = /boundary="?([^";]+)"?/.exec(type)![1]!;
    const [first, ...rest] = parts(await res.text(), boundary);
    expect(first.data.events.nodes.map((n: { title: string }) => n.title)).toEqual(['First', 'Second', 'Third']);
    expect(first.data.events.nodes[0].categories).toBeUndefined();
    expect(first.hasNext).toBe(true);
    const incremental = rest.flatMap((p) => p.incremental ?? []);
    expect(incremental).toHaveLength(3);
    expect(incremental.every((i: { label: string; data: unknown }) => i.label === 'slow' && JSON.stringify(i.data) === '{"categories":[{"name":"Jazz"}]}')).toBe(true);
    expect(rest.at(-1).hasNext).toBe(false);
  });

  it('streams a list with @stream', async () => {
    const res = await post('{ events(perPage: 3) { nodes @stream(initialCount: 1) { title } } }');
    const boundary = /boundary="?([^";]+)"?/.exec(res.headers.get('content-type')!)![1]!;
    const [first, ...rest] = parts(await res.text(), boundary);
    expect(first.data.events.nodes).toEqual([{ title: 'First' }]);
    expect(rest.flatMap((p) => p.incremental ?? []).flatMap((i: { items: unknown[] }) => i.items)).toEqual([{ title: 'Second' }, { title: 'Third' }]);
  });

  it('keeps the depth and cost limits for deferred selections', async () => {
    const deep = await post('{ event(id: 1) { ... @defer { parent { parent { parent { parent { parent { title } } } } } } } }');
    expect(deep.status).toBe(400);
    expect(await deep.text()).toContain('GRAPHQL_LIMIT_EXCEEDED');
    const page = 'events(perPage: 50) { nodes { title venues { name city } organizers { name email } categories { name slug } tags { name slug } } }';
    const costly = await post(`{ ... @defer { ${Array.from({ length: 20 }, (_, i) => `e${i}: ${page}`).join(' ')} } }`);
    expect(await costly.text()).toContain('COST_LIMIT_EXCEEDED');
  });
});

describe('GraphiQL', () => {
  it('opens on a real example, with saved examples that all run', async () => {
    const page = await server.request('/graphql', { headers: { accept: 'text/html' } });
    expect(page.text).toContain('UpcomingEvents');
    expect(page.text).toContain('EventChanges');
    for (const { query } of graphiqlExamples.defaultTabs) {
      if (query.includes('subscription ')) continue; // validated below without running
      const r = await server.graphql(query, {}, 'admin');
      expect(r.errors, query).toBeUndefined();
    }
    const upcoming = await server.graphql(graphiqlExamples.defaultQuery, {}, 'admin');
    expect(upcoming.data.events.nodes.length).toBeGreaterThan(0);
    const next = await server.graphql(graphiqlExamples.defaultQuery, { after: upcoming.data.events.pageInfo.endCursor }, 'admin');
    expect(next.errors).toBeUndefined();
    // The subscription example validates (a syntax or field error would answer at once, without a stream).
    const sub = await fetch(`${server.base}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ query: graphiqlExamples.defaultTabs.at(-1)!.query }),
    });
    const reader = sub.body!.getReader();
    const { value } = await reader.read();
    await reader.cancel();
    expect(new TextDecoder().decode(value)).not.toContain('errors');
  });
});
