import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { subscribeWs, wsClient } from '../helpers/ws.ts';

// Persisted operations over HTTP: automatic persisted queries by default, a
// trusted-documents manifest with CAL_GRAPHQL_TRUSTED_DOCUMENTS; persisted GET reads cache like REST.
const QUERY = 'query Upcoming { events(perPage: 5) { totalCount nodes { title } } }';
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const apq = (hash: string) => encodeURIComponent(JSON.stringify({ persistedQuery: { version: 1, sha256Hash: hash } }));

async function seed(server: TestServer) {
  await server.create('/events', { title: 'Persisted Night', start_date: '2030-02-01 19:00:00', end_date: '2030-02-01 22:00:00', status: 'publish' });
}

describe('automatic persisted queries', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ now: new Date('2030-01-15T12:00:00Z') });
    await seed(server);
  });
  afterAll(() => server?.close());

  it('registers a document by its hash, then answers GETs by hash with ETag and Cache-Control', async () => {
    const hash = sha256(QUERY);
    const unknown = await server.request(`/graphql?extensions=${apq(hash)}`);
    expect(unknown.body.errors[0].extensions.code).toBe('PERSISTED_QUERY_NOT_FOUND');

    const registered = await server.request('/graphql', { method: 'POST', body: { query: QUERY, extensions: { persistedQuery: { version: 1, sha256Hash: hash } } } });
    expect(registered.status).toBe(200);
    expect(registered.body.data.events.nodes).toEqual([{ title: 'Persisted Night' }]);

    const byHash = await server.request(`/graphql?operationName=Upcoming&extensions=${apq(hash)}`);
    expect(byHash.status).toBe(200);
    expect(byHash.body).toEqual(registered.body);
    const etag = byHash.headers.get('etag');
    expect(etag).toMatch(/^W\/"/);
    expect(byHash.headers.get('cache-control')).toBe('public, max-age=0');
    const again = await server.request(`/graphql?operationName=Upcoming&extensions=${apq(hash)}`, { headers: { 'If-None-Match': etag! } });
    expect(again.status).toBe(304);

    const mismatch = await server.request('/graphql', { method: 'POST', body: { query: '{ __typename }', extensions: { persistedQuery: { version: 1, sha256Hash: hash } } } });
    expect(mismatch.body.errors[0].extensions.code).toBe('PERSISTED_QUERY_MISMATCH');
  });
});

describe('trusted documents (CAL_GRAPHQL_TRUSTED_DOCUMENTS)', () => {
  let server: TestServer;
  const id = sha256(QUERY);
  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cal-trusted-'));
    const manifest = join(dir, 'persisted-documents.json');
    writeFileSync(manifest, JSON.stringify({ [id]: QUERY }));
    server = await startTestServer({ now: new Date('2030-01-15T12:00:00Z'), env: { CAL_GRAPHQL_TRUSTED_DOCUMENTS: manifest } });
    await seed(server);
  });
  afterAll(() => server?.close());

  it('runs listed operations for anonymous callers, by documentId or APQ hash, as cacheable GETs', async () => {
    const byId = await server.request(`/graphql?documentId=${id}`);
    expect(byId.status).toBe(200);
    expect(byId.body.data.events.nodes).toEqual([{ title: 'Persisted Night' }]);
    expect(byId.headers.get('cache-control')).toBe('public, max-age=0');
    const etag = byId.headers.get('etag')!;
    expect((await server.request(`/graphql?documentId=${id}`, { headers: { 'If-None-Match': etag } })).status).toBe(304);
    const byHash = await server.request(`/graphql?extensions=${apq(id)}`);
    expect(byHash.body).toEqual(byId.body);
  });

  it('refuses other documents from anonymous callers, over HTTP and WebSocket', async () => {
    const arbitrary = await server.request('/graphql', { method: 'POST', body: { query: '{ events { nodes { title description } } }' } });
    expect(arbitrary.status).toBe(400);
    expect(arbitrary.body.errors[0].extensions.code).toBe('PERSISTED_QUERY_ONLY');
    const unknown = await server.request(`/graphql?documentId=${sha256('nope')}`);
    expect(unknown.body.errors[0].extensions.code).toBe('PERSISTED_QUERY_NOT_IN_LIST');

    const client = wsClient(server.base);
    try {
      const refused = (await subscribeWs(client, '{ events { nodes { title description } } }').ended) as { extensions?: { code?: string } }[];
      expect(refused[0]?.extensions?.code).toBe('PERSISTED_QUERY_ONLY');
      const listed = subscribeWs(client, QUERY);
      expect((await listed.next(10_000)).data.events.nodes).toEqual([{ title: 'Persisted Night' }]);
    } finally {
      await client.dispose();
    }
  });

  it('lets signed-in callers send any document, and leaves the REST facade alone', async () => {
    const signedIn = await server.request('/graphql', { method: 'POST', as: 'editor', body: { query: '{ events { nodes { title } } }' } });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.data.events.nodes).toEqual([{ title: 'Persisted Night' }]);
    const rest = await server.api('/events?start_date=2030-01-01');
    expect(rest.status).toBe(200);
    expect(rest.body.events.map((e: { title: string }) => e.title)).toEqual(['Persisted Night']);
  });
});
