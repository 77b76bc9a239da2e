import http from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testBackend } from '../helpers/database.ts';
import { useDeafServerPair } from '../helpers/server-pair.ts';
import { ADMIN_LOGIN, startTestServer, type TestServer } from '../helpers/server.ts';

// The HTTP byte cache (src/server/middleware/byte-cache.ts) and content negotiation
// (src/server/middleware/compression.ts) on the real server: anonymous reads are answered from
// stored bytes (X-Cache: HIT) in every encoding, writes through either API make the next read
// fresh, signed-in callers never share it; across two processes on PostgreSQL too.

const NS = '/wp-json/cal/events/v1';

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The bytes on the wire (not decompressed). */
  body: Buffer;
}

/** A request with node:http, which (unlike fetch) neither adds `Accept-Encoding` nor decompresses. */
function raw(base: string, path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = http.request(base + path, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const decoded = (r: Raw) => {
  const enc = r.headers['content-encoding'];
  return (enc === 'br' ? brotliDecompressSync(r.body) : enc === 'gzip' ? gunzipSync(r.body) : r.body).toString('utf8');
};
const titles = (r: Raw) => (JSON.parse(decoded(r)).events as { title: string }[]).map((e) => e.title);
/** Headers an answer's meaning depends on (not its framing or encoding). */
const meaning = (r: Raw) => {
  const { date: _d, 'content-length': _l, 'content-encoding': _e, 'x-cache': _x, connection: _c, 'keep-alive': _k, ...rest } = r.headers;
  return rest;
};

const event = (title: string, extra: Record<string, unknown> = {}) => ({
  title,
  description: 'A long enough description to make the list worth compressing. '.repeat(8),
  start_date: '2026-12-20 10:00:00',
  end_date: '2026-12-20 11:00:00',
  status: 'publish',
  ...extra,
});

describe('HTTP byte cache and content encoding', { timeout: 120_000 }, () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
    for (const t of ['Alpha', 'Beta', 'Gamma']) await s.create('/events', event(t));
  });
  afterAll(() => s?.close());

  it('the second anonymous read is served from the cache with the same status, headers and body', async () => {
    const first = await raw(s.base, `${NS}/events?per_page=50`);
    const second = await raw(s.base, `${NS}/events?per_page=50`);
    expect([first.status, first.headers['x-cache']]).toEqual([200, 'MISS']);
    expect([second.status, second.headers['x-cache']]).toEqual([200, 'HIT']);
    expect(second.body.equals(first.body)).toBe(true);
    expect(meaning(second)).toEqual(meaning(first));
    expect(first.headers['x-tec-total']).toBe('3');
    expect(first.headers['content-encoding']).toBeUndefined(); // no Accept-Encoding: identity
    expect(first.headers.vary).toBe('Origin, Accept-Encoding');
    expect(Number(first.headers['content-length'])).toBe(first.body.length);
    // Parameters in another order are the same read.
    const reordered = await raw(s.base, `${NS}/events?status=publish&per_page=50`);
    const ordered = await raw(s.base, `${NS}/events?per_page=50&status=publish`);
    expect([reordered.headers['x-cache'], ordered.headers['x-cache']]).toEqual(['MISS', 'HIT']);
    expect(ordered.body.equals(reordered.body)).toBe(true);
    // A language variant is its own entry.
    expect((await raw(s.base, `/fr${NS}/events?per_page=50`)).headers['x-cache']).toBe('MISS');
  });

  it('gzip and brotli bodies, cached or not, decompress to the identity body; tiny bodies stay as they are', async () => {
    const identity = decoded(await raw(s.base, `${NS}/events?per_page=50`));
    for (const [accept, expected] of [
      ['br', 'br'],
      ['gzip', 'gzip'],
      ['gzip, deflate, br', 'br'],
      ['gzip;q=1, br;q=0.5', 'gzip'],
      ['identity', undefined],
    ] as const) {
      for (let round = 0; round < 2; round++) {
        const r = await raw(s.base, `${NS}/events?per_page=50`, { 'accept-encoding': accept });
        expect([r.headers['x-cache'], r.headers['content-encoding']], accept).toEqual(['HIT', expected]);
        expect(decoded(r)).toBe(identity);
        if (expected) expect(r.body.length).toBeLessThan(Buffer.byteLength(identity) / 2);
      }
    }
    // Signed in (never cached): negotiated all the same, without `Vary` (no shared cache keeps an
    // answer to a request with credentials; WordPress's signed-in answers carry none).
    const admin = await raw(s.base, `${NS}/events?per_page=50`, { 'accept-encoding': 'br', authorization: s.authHeader('admin') });
    expect([admin.headers['x-cache'], admin.headers['content-encoding']]).toEqual([undefined, 'br']);
    expect(admin.headers.vary ?? '').not.toContain('Accept-Encoding');
    expect(JSON.parse(decoded(admin)).events).toHaveLength(3);
    // A tiny answer is not compressed.
    const small = await raw(s.base, `${NS}/events/999999`, { 'accept-encoding': 'br, gzip' });
    expect(small.status).toBe(404);
    expect(small.headers['content-encoding']).toBeUndefined();
  });

  it('ETag and If-None-Match → 304, from the cache and without it; HEAD', async () => {
    const first = await raw(s.base, `${NS}/events?per_page=50`, { 'accept-encoding': 'gzip' });
    const etag = first.headers.etag!;
    expect(etag).toMatch(/^W\/"/);
    const again = await raw(s.base, `${NS}/events?per_page=50`, { 'if-none-match': etag, 'accept-encoding': 'br' });
    expect([again.status, again.headers['x-cache'], again.body.length]).toEqual([304, 'HIT', 0]);
    expect(again.headers.etag).toBe(etag);
    // Signed in: computed, and 304 all the same.
    const mine = await raw(s.base, `${NS}/events?per_page=50`, { authorization: s.authHeader('admin') });
    const mine304 = await raw(s.base, `${NS}/events?per_page=50`, { authorization: s.authHeader('admin'), 'if-none-match': mine.headers.etag! });
    expect([mine304.status, mine304.headers['x-cache']]).toEqual([304, undefined]);
    // HEAD: the GET's headers, no body.
    const head = await raw(s.base, `${NS}/events?per_page=50`, { 'accept-encoding': 'br' }, 'HEAD');
    expect([head.status, head.headers['x-cache'], head.headers['x-tec-total'], head.headers['content-encoding'], head.body.length]).toEqual([200, 'HIT', '3', 'br', 0]);
  });

  it('a write through REST or GraphQL makes the next read fresh', async () => {
    await raw(s.base, `${NS}/events?per_page=50`);
    expect((await raw(s.base, `${NS}/events?per_page=50`)).headers['x-cache']).toBe('HIT');
    const created = await s.create('/events', event('Delta'));
    const afterRest = await raw(s.base, `${NS}/events?per_page=50`, { 'accept-encoding': 'br' });
    expect(afterRest.headers['x-cache']).toBe('MISS');
    expect(titles(afterRest)).toContain('Delta');
    expect((await raw(s.base, `${NS}/events?per_page=50`, { 'accept-encoding': 'br' })).headers['x-cache']).toBe('HIT');

    const renamed = await s.graphql(`mutation($id: ID) { updateEvent(id: $id, input: { title: "Delta renamed" }) { __typename } }`, { id: created.id });
    expect(renamed.errors).toBeUndefined();
    const afterGraphql = await raw(s.base, `${NS}/events?per_page=50`, { 'accept-encoding': 'gzip' });
    expect(afterGraphql.headers['x-cache']).toBe('MISS');
    expect(titles(afterGraphql)).toContain('Delta renamed');
    expect(titles(afterGraphql)).not.toContain('Delta');
  });

  it('GraphQL GET queries, pages and feeds are cached; a mutation refreshes them', async () => {
    const q = `/graphql?query=${encodeURIComponent('{ events(perPage: 50) { nodes { title } } }')}`;
    const g1 = await raw(s.base, q, { accept: 'application/json', 'accept-encoding': 'br' });
    const g2 = await raw(s.base, q, { accept: 'application/json', 'accept-encoding': 'br' });
    expect([g1.status, g1.headers['x-cache'], g2.headers['x-cache']]).toEqual([200, 'MISS', 'HIT']);
    expect(decoded(g2)).toBe(decoded(g1));
    // An answer with errors is never kept.
    const bad = `/graphql?query=${encodeURIComponent('{ nope }')}`;
    await raw(s.base, bad, { accept: 'application/json' });
    expect((await raw(s.base, bad, { accept: 'application/json' })).headers['x-cache']).toBe('MISS');

    for (const path of ['/', '/events.ics']) {
      const p1 = await raw(s.base, path, { 'accept-encoding': 'gzip' });
      const p2 = await raw(s.base, path, { 'accept-encoding': 'gzip' });
      expect([p1.status, p1.headers['x-cache'], p2.headers['x-cache']], path).toEqual([200, 'MISS', 'HIT']);
      expect(decoded(p2)).toBe(decoded(p1));
      expect(p2.headers['content-type']).toBe(p1.headers['content-type']);
      expect(p2.headers['content-security-policy']).toBe(p1.headers['content-security-policy']);
      expect(p1.headers.etag).toBeTruthy();
      expect((await raw(s.base, path, { 'if-none-match': p1.headers.etag! })).status).toBe(304);
    }
    await s.create('/events', event('Epsilon'));
    const g3 = await raw(s.base, q, { accept: 'application/json' });
    expect(g3.headers['x-cache']).toBe('MISS');
    expect(decoded(g3)).toContain('Epsilon');
    const home = await raw(s.base, '/');
    expect(home.headers['x-cache']).toBe('MISS');
    expect(decoded(home)).toContain('Epsilon');
  });

  it('signed-in requests, cookies and passwords never get a cached body, and are never stored', async () => {
    await s.create('/events', event('Hidden draft', { status: 'draft' }));
    // The admin reads first: nothing of it is kept for the anonymous read after it.
    const admin = await raw(s.base, `${NS}/events?per_page=50&status=publish,draft`, { authorization: s.authHeader('admin') });
    expect(admin.status).toBe(200);
    expect(admin.headers['x-cache']).toBeUndefined();
    expect(titles(admin)).toContain('Hidden draft');
    const anon = await raw(s.base, `${NS}/events?per_page=50&status=publish,draft`);
    expect(anon.headers['x-cache']).not.toBe('HIT');
    expect(decoded(anon)).not.toContain('Hidden draft');
    // The anonymous list is cached now; the admin still gets their own.
    expect((await raw(s.base, `${NS}/events?per_page=50`)).headers['x-cache']).toBe('MISS');
    expect((await raw(s.base, `${NS}/events?per_page=50`)).headers['x-cache']).toBe('HIT');
    const again = await raw(s.base, `${NS}/events?per_page=50&status=publish,draft`, { authorization: s.authHeader('admin') });
    expect(again.headers['x-cache']).toBeUndefined();
    expect(titles(again)).toContain('Hidden draft');
    // Wrong credentials are refused, never answered from the cache.
    const wrong = await raw(s.base, `${NS}/events?per_page=50`, { authorization: `Basic ${Buffer.from(`${ADMIN_LOGIN}:wrong`).toString('base64')}` });
    expect([wrong.status, wrong.headers['x-cache']]).toEqual([401, undefined]);
    for (const headers of [{ cookie: 'wordpress_logged_in=x' }, { 'x-wp-nonce': 'abc' }] as Record<string, string>[]) {
      expect((await raw(s.base, `${NS}/events?per_page=50`, headers)).headers['x-cache']).toBeUndefined();
    }
    expect((await raw(s.base, `${NS}/events?per_page=50&password=x`)).headers['x-cache']).toBeUndefined();
  });
});

describe.runIf(testBackend === 'postgres')('HTTP byte cache across two server processes on one PostgreSQL', { timeout: 600_000 }, () => {
  const password = 'byte-cache-pass';
  const auth = `Basic ${Buffer.from(`${ADMIN_LOGIN}:${password}`).toString('base64')}`;
  const pair = useDeafServerPair('bytes', { CAL_ADMIN_LOGIN: ADMIN_LOGIN, CAL_ADMIN_PASSWORD: password, CAL_CACHE_TTL_S: '3600' });

  const write = async (base: string, path: string, body: unknown, method = 'POST') => {
    const r = await fetch(base + path, { method, headers: { authorization: auth, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect(r.status).toBeLessThan(300);
    return r.json();
  };

  it("a read on B after a write acknowledged by A is fresh (REST and GraphQL), and hits B's cache otherwise", async () => {
    const created = await write(pair.a.base, `${NS}/events`, event('One', { start_date: '2030-06-01 10:00:00', end_date: '2030-06-01 11:00:00' }));
    const list = `${NS}/events?per_page=50&start_date=2030-01-01&end_date=2030-12-31`;
    await raw(pair.b.base, list, { 'accept-encoding': 'br' });
    const hit = await raw(pair.b.base, list, { 'accept-encoding': 'br' });
    expect(hit.headers['x-cache']).toBe('HIT');
    expect(titles(hit)).toEqual(['One']);

    await write(pair.a.base, `${NS}/events`, event('Two', { start_date: '2030-06-02 10:00:00', end_date: '2030-06-02 11:00:00' }));
    const afterRest = await raw(pair.b.base, list, { 'accept-encoding': 'gzip' });
    expect(afterRest.headers['x-cache']).toBe('MISS');
    expect(titles(afterRest)).toEqual(['One', 'Two']);
    expect((await raw(pair.b.base, list)).headers['x-cache']).toBe('HIT');

    const renamed = await write(pair.a.base, '/graphql', { query: `mutation($id: ID) { updateEvent(id: $id, input: { title: "One renamed" }) { __typename } }`, variables: { id: created.id } });
    expect(renamed.errors).toBeUndefined();
    const afterGraphql = await raw(pair.b.base, list);
    expect(afterGraphql.headers['x-cache']).toBe('MISS');
    expect(titles(afterGraphql)).toEqual(['One renamed', 'Two']);
    // And the other way round: B writes, A reads.
    await raw(pair.a.base, list);
    expect((await raw(pair.a.base, list)).headers['x-cache']).toBe('HIT');
    await write(pair.b.base, `${NS}/events/${created.id}`, {}, 'DELETE');
    expect(titles(await raw(pair.a.base, list))).toEqual(['Two']);
  });
});
