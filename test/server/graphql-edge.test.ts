/**
 * The public edge of /graphql: limits refused with 400 in milliseconds, `nodes`
 * bounded, CSRF, CORS, one body limit, security headers — against the real app over HTTP.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';

let s: TestServer;
let suggestionsOff: TestServer;

beforeAll(async () => {
  [s, suggestionsOff] = await Promise.all([
    startTestServer({ env: { CAL_CORS_ORIGINS: 'https://app.example, https://admin.example' } }),
    startTestServer({ env: { CAL_GRAPHQL_SUGGESTIONS: 'false', CAL_GRAPHQL_INTROSPECTION: 'false', CAL_MAX_QUERIES_PER_REQUEST: '2' } }),
  ]);
});
afterAll(async () => {
  await Promise.all([s?.close(), suggestionsOff?.close()]);
});

const post = (srv: TestServer, body: unknown, headers: Record<string, string> = {}) =>
  srv.request('/graphql', { method: 'POST', body, headers: { 'Content-Type': 'application/json', ...headers } });

async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const result = await fn();
  return [result, performance.now() - started];
}

describe('limits', () => {
  it('refuses a cyclic 50-level query by depth (400)', async () => {
    let q = 'databaseId';
    for (let i = 0; i < 25; i++) q = `parent { children { ${q} } }`;
    const r = await post(s, { query: `{ eventCategory(id: 1) { ... on EventCategory { ${q} } } }` });
    expect(r.status).toBe(400);
    expect(r.body.errors[0].message).toMatch(/depth limit of 12 exceeded/);
  });

  it('refuses 1,000 aliased lists (400) quickly, anonymous or not', async () => {
    const query = `{ ${Array.from({ length: 1000 }, (_, i) => `a${i}: events(perPage: 50) { __typename }`).join(' ')} }`;
    const [r] = await timed(() => post(s, { query }));
    expect(r.status).toBe(400);
    expect(r.body.errors.map((e: { message: string }) => e.message).join(' ')).toMatch(/Token limit|Aliases limit/);
    const admin = await s.request('/graphql', { method: 'POST', as: 'admin', body: { query } });
    expect(admin.status).toBe(400);
  });

  it('refuses 31 aliases and accepts 30', async () => {
    const q = (n: number) => `{ ${Array.from({ length: n }, (_, i) => `a${i}: __typename`).join(' ')} }`;
    expect((await post(s, { query: q(30) })).status).toBe(200);
    const r = await post(s, { query: q(31) });
    expect(r.status).toBe(400);
    expect(r.body.errors[0].message).toMatch(/Aliases limit of 30 exceeded/);
  });

  it('counts `perPage`/`first` into the cost: one big page passes, many aliased ones do not', async () => {
    const page = `events(perPage: 50) { ... on EventConnection { totalCount edges { node { id title slug startDate endDate
      venues { id name city } organizers { id name } categories { id name slug } tags { id name } } } } }`;
    const one = await post(s, { query: `{ ${page} }` });
    expect(one.status).toBe(200);
    expect(one.body.errors).toBeUndefined();
    const many = await post(s, { query: `{ ${Array.from({ length: 12 }, (_, i) => `p${i}: ${page}`).join(' ')} }` });
    expect(many.status).toBe(400);
    expect(many.body.errors[0]).toMatchObject({ extensions: { code: 'COST_LIMIT_EXCEEDED' } });
    expect(many.body.errors[0].message).toMatch(/Query cost limit of 50000 exceeded/);
    // A variable page size counts too.
    const viaVariable = await post(s, {
      query: `query ($n: Int) { ${Array.from({ length: 12 }, (_, i) => `p${i}: ${page.replace('perPage: 50', 'perPage: $n')}`).join(' ')} }`,
      variables: { n: 50 },
    });
    expect(viaVariable.status).toBe(400);
  });

  it('refuses a document over the token limit', async () => {
    const query = `{ ${'__typename '.repeat(2100)} }`;
    const r = await post(s, { query });
    expect(r.status).toBe(400);
    expect(r.body.errors[0].message).toMatch(/Token limit of 2000 exceeded/);
  });

  it('bounds batched requests', async () => {
    const ok = await post(s, [{ query: '{ __typename }' }, { query: '{ __typename }' }]);
    expect(ok.status).toBe(200);
    expect(ok.body).toHaveLength(2);
    const tooMany = await post(s, Array.from({ length: 11 }, () => ({ query: '{ __typename }' })));
    expect(tooMany.status).toBeGreaterThanOrEqual(400);
    expect(tooMany.status).toBeLessThan(500);
    expect(tooMany.text).toMatch(/Batching is limited to 10 operations/);
  });

  it('hides field suggestions and introspection from anonymous callers when configured, not from signed-in ones', async () => {
    const bad = '{ evnts { __typename } }';
    expect((await post(s, { query: bad })).body.errors[0].message).toMatch(/Did you mean/);
    const anon = await post(suggestionsOff, { query: bad });
    expect(anon.body.errors[0].message).not.toMatch(/Did you mean/);
    const admin = await suggestionsOff.request('/graphql', { method: 'POST', as: 'admin', body: { query: bad } });
    expect(admin.body.errors[0].message).toMatch(/Did you mean/);
    const introspection = '{ __schema { queryType { name } } }';
    expect((await post(s, { query: introspection })).body.data.__schema.queryType.name).toBe('Query');
    const refused = await post(suggestionsOff, { query: introspection });
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0].extensions.code).toBe('INTROSPECTION_DISABLED');
  });

  it('every REST facade operation passes the public limits (variables at the largest page)', async () => {
    const dir = path.resolve(import.meta.dirname, '../../rest-facade/resources');
    const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.graphql'));
    const source = files.map((f) => readFileSync(path.join(dir, f), 'utf8')).join('\n');
    const names = [...source.matchAll(/^(?:query|mutation)\s+(\w+)/gm)].map((m) => m[1]);
    expect(names.length).toBeGreaterThan(10);
    for (const operationName of names) {
      const r = await s.request('/graphql', { method: 'POST', as: 'admin', body: { query: source, operationName, variables: { perPage: 50 } } });
      const codes = (r.body.errors ?? []).map((e: { message: string }) => e.message).join('; ');
      expect(codes, operationName).not.toMatch(/limit of \d+ exceeded/);
    }
  });

  describe('cost with variables, defaults, fragments and batches', () => {
    const fields = 'id title slug startDate endDate status';
    // 50 events × 1,000 occurrences × 6 fields ≈ 300,000: far over 50,000, however it is written.
    const literal = `{ events(perPage: 50) { ... on EventConnection { nodes { id occurrences(first: 1000) { ${fields} } } } } }`;
    const refusedCost = (r: { status: number; body: { errors?: { extensions?: { code?: string } }[] } }) => {
      expect(r.status).toBe(400);
      expect(r.body.errors?.[0]?.extensions?.code).toBe('COST_LIMIT_EXCEEDED');
    };

    it('costs page sizes given by variable values and by variable defaults like literals', async () => {
      refusedCost(await post(s, { query: literal }));
      const withDefaults = `query ($n: Int = 50, $m: Int = 1000) { events(perPage: $n) { ... on EventConnection { nodes { id occurrences(first: $m) { ${fields} } } } } }`;
      refusedCost(await post(s, { query: withDefaults }));
      refusedCost(await post(s, { query: withDefaults.replace('= 50', '').replace('= 1000', ''), variables: { n: 50, m: 1000 } }));
      // A value given overrides the default: small pages pass.
      const small = await post(s, { query: withDefaults, variables: { n: 5, m: 5 } });
      expect(small.status).toBe(200);
      expect(small.body.errors).toBeUndefined();
    });

    it('costs an argument left out at its real default (occurrences: 100)', async () => {
      const many = `a b c d e f g h i j k`.split(' ').map((a) => `${a}: ${fields.split(' ')[0]}`).join(' ');
      // 50 × 100 × (6 + 11) fields ≈ 85,000 at the real default; the site's page size (10) would allow it.
      refusedCost(await post(s, { query: `{ events(perPage: 50) { ... on EventConnection { nodes { id occurrences { ${fields} ${many} } } } } }` }));
      const explicitSmall = await post(s, { query: `{ events(perPage: 50) { ... on EventConnection { nodes { id occurrences(first: 10) { ${fields} ${many} } } } } }` });
      expect(explicitSmall.status).toBe(200);
      // An explicit null is the default as well.
      refusedCost(
        await post(s, {
          query: `query ($m: Int) { events(perPage: 50) { ... on EventConnection { nodes { id occurrences(first: $m) { ${fields} ${many} } } } } }`,
          variables: { m: null },
        }),
      );
    });

    it('costs variables used inside fragments, and aliases of them add up', async () => {
      const fragment = `fragment Occ on Event { occurrences(first: $m) { ${fields} } }`;
      refusedCost(
        await post(s, { query: `query ($n: Int = 50, $m: Int = 1000) { events(perPage: $n) { ... on EventConnection { nodes { id ...Occ } } } } ${fragment}` }),
      );
      const aliased = Array.from({ length: 11 }, (_, i) => `a${i}: events(perPage: $n) { ... on EventConnection { nodes { id ...Occ } } }`).join(' ');
      refusedCost(await post(s, { query: `query ($n: Int = 5, $m: Int = 200) { ${aliased} } ${fragment}` }));
      const once = await post(s, { query: `query ($n: Int = 5, $m: Int = 200) { ${aliased.split(' a1:')[0]} } ${fragment}` });
      expect(once.status).toBe(200);
    });

    it('costs a batch as a whole', async () => {
      // Each ≈ 50 × 100 × 7 = 35,000 passes alone; two of them in one array are 70,000.
      const op = { query: `query ($n: Int = 50) { events(perPage: $n) { ... on EventConnection { nodes { id occurrences { ${fields} } } } } }` };
      const alone = await post(s, op);
      expect(alone.status).toBe(200);
      expect(alone.body.errors).toBeUndefined();
      const batch = await post(s, [op, op]);
      refusedCost({ status: batch.status, body: Array.isArray(batch.body) ? batch.body[0] : batch.body });
      const small = await post(s, [op, { query: '{ __typename }' }]);
      expect(small.status).toBe(200);
      expect(small.body).toHaveLength(2);
    });
  });
});

describe('nodes', () => {
  it('refuses more IDs than the largest page, in milliseconds', async () => {
    const ids = Array.from({ length: 1000 }, (_, i) => Buffer.from(`Event:${i + 1}`).toString('base64'));
    const [r, ms] = await timed(() => post(s, { query: 'query ($ids: [ID!]!) { nodes(ids: $ids) { id } }', variables: { ids } }));
    expect(r.body.errors[0]).toMatchObject({ extensions: { code: 'TOO_MANY_IDS' } });
    expect(r.body.errors[0].message).toMatch(/at most 50 IDs \(got 1000\)/);
    expect(ms).toBeLessThan(5000); // a generous ceiling: it used to run out of memory
  });

  it('loads a page of mixed IDs, hiding what the caller may not read', async () => {
    const created = await s.graphql(`mutation {
      a: createEvent(input: { title: "Public", startDate: "2026-12-01 10:00", endDate: "2026-12-01 11:00", status: PUBLISH }) { ... on CreateEventSuccess { event { id } } }
      b: createEvent(input: { title: "Draft", startDate: "2026-12-01 10:00", endDate: "2026-12-01 11:00", status: DRAFT }) { ... on CreateEventSuccess { event { id } } }
      v: createVenue(input: { name: "Hall", status: PUBLISH }) { ... on CreateVenueSuccess { venue { id } } }
    }`);
    const { a, b, v } = Object.fromEntries(
      Object.entries(created.data as Record<string, { event?: { id: string }; venue?: { id: string } }>).map(([k, p]) => [k, (p.event ?? p.venue)!]),
    );
    const query = `query ($ids: [ID!]!) { nodes(ids: $ids) { id ... on Event { title } ... on Venue { name } } }`;
    const anon = await post(s, { query, variables: { ids: [a.id, b.id, v.id, a.id] } });
    expect(anon.body.data.nodes).toEqual([{ id: a.id, title: 'Public' }, null, { id: v.id, name: 'Hall' }, { id: a.id, title: 'Public' }]);
    const admin = await s.request('/graphql', { method: 'POST', as: 'admin', body: { query, variables: { ids: [b.id] } } });
    expect(admin.body.data.nodes).toEqual([{ id: b.id, title: 'Draft' }]);
    const one = await post(s, { query: `{ node(id: "${a.id}") { ... on Event { title } } }` });
    expect(one.body.data.node).toEqual({ title: 'Public' });
  });

  it('bounds the statements one request may start (CAL_MAX_QUERIES_PER_REQUEST)', async () => {
    const r = await post(suggestionsOff, { query: '{ a: events { __typename } b: venues { __typename } c: organizers { __typename } }' });
    expect(JSON.stringify(r.body.errors)).toMatch(/REQUEST_TOO_EXPENSIVE/);
    const ok = await post(suggestionsOff, { query: '{ __typename }' });
    expect(ok.body).toEqual({ data: { __typename: 'Query' } });
  });
});

describe('CSRF and CORS', () => {
  const mutation = 'mutation { createEventTag(input: { name: "csrf" }) { __typename } }';

  it('refuses form, multipart, text/plain and untyped POSTs; JSON works', async () => {
    const form = await s.request('/graphql', { method: 'POST', as: 'admin', body: new URLSearchParams({ query: mutation }) });
    expect(form.status).toBe(403);
    const fd = new FormData();
    fd.set('operations', JSON.stringify({ query: mutation }));
    fd.set('map', '{}');
    const multipart = await s.request('/graphql', { method: 'POST', as: 'admin', body: fd });
    expect(multipart.status).toBe(403);
    const text = await s.request('/graphql', { method: 'POST', as: 'admin', body: JSON.stringify({ query: mutation }), headers: { 'Content-Type': 'text/plain' } });
    expect(text.status).toBe(415);
    const none = await fetch(`${s.base}/graphql`, { method: 'POST', body: new Uint8Array(Buffer.from(JSON.stringify({ query: '{ __typename }' }))) });
    expect(none.status).toBe(415);
    expect((await s.api('/tags?search=csrf')).body.tags).toEqual([]);
    const json = await s.request('/graphql', { method: 'POST', as: 'admin', body: { query: mutation } });
    expect(json.body.data.createEventTag.__typename).toBe('CreateEventTagSuccess');
  });

  it('allows credentials only to listed origins, on /graphql and REST', async () => {
    const evil = await post(s, { query: '{ __typename }' }, { Origin: 'https://evil.example' });
    expect(evil.headers.get('access-control-allow-origin')).toBe('*');
    expect(evil.headers.get('access-control-allow-credentials')).toBeNull();
    const app = await post(s, { query: '{ __typename }' }, { Origin: 'https://app.example' });
    expect(app.headers.get('access-control-allow-origin')).toBe('https://app.example');
    expect(app.headers.get('access-control-allow-credentials')).toBe('true');
    const preflight = await s.request('/graphql', { method: 'OPTIONS', headers: { Origin: 'https://evil.example', 'Access-Control-Request-Method': 'POST' } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-credentials')).toBeNull();
    const restEvil = await s.api('/events', { headers: { Origin: 'https://evil.example' } });
    expect(restEvil.headers.get('access-control-allow-origin')).toBe('*');
    expect(restEvil.headers.get('access-control-allow-credentials')).toBeNull();
    expect(restEvil.headers.get('access-control-expose-headers')).toBe('X-WP-Total, X-WP-TotalPages, Link, X-TEC-Total, X-TEC-TotalPages');
    const restApp = await s.api('/events', { headers: { Origin: 'https://admin.example' } });
    expect(restApp.headers.get('access-control-allow-origin')).toBe('https://admin.example');
    expect(restApp.headers.get('access-control-allow-credentials')).toBe('true');
  });
});

describe('HTTP edge', () => {
  it('one body limit for GraphQL and REST (413)', async () => {
    const big = JSON.stringify({ query: '{ __typename }', variables: { pad: 'x'.repeat(1024 * 1024 + 10) } });
    const g = await s.request('/graphql', { method: 'POST', body: big, headers: { 'Content-Type': 'application/json' } });
    expect(g.status).toBe(413);
    const r = await s.request('/wp-json/cal/events/v1/events', { method: 'POST', as: 'admin', body: big, headers: { 'Content-Type': 'application/json' } });
    expect(r.status).toBe(413);
    expect(r.body.data.status).toBe(413);
  });

  it('answers /?rest_route[]=x with a JSON 404', async () => {
    const r = await s.request('/?rest_route[]=x');
    expect(r.status).toBe(404);
    expect(r.headers.get('content-type')).toMatch(/application\/json/);
    expect(r.body.code).toBe('rest_no_route');
  });

  it('sets security headers on GraphQL answers and a CSP on GraphiQL', async () => {
    const g = await post(s, { query: '{ __typename }' });
    expect(g.headers.get('x-content-type-options')).toBe('nosniff');
    expect(g.headers.get('x-frame-options')).toBe('DENY');
    expect(g.headers.get('referrer-policy')).toBe('no-referrer');
    expect(g.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
    const html = await s.request('/graphql', { headers: { Accept: 'text/html' } });
    expect(html.headers.get('content-type')).toMatch(/text\/html/);
    expect(html.headers.get('content-security-policy')).toMatch(/script-src 'self'/);
    expect(html.headers.get('content-security-policy')).toMatch(/frame-ancestors 'none'/);
  });
});
