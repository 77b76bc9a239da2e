import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWpTestServer, type WpTestServer } from '../helpers/wp-server.ts';
import { tableError } from '../../rest-facade/wp/errors.ts';
import type { RouteDef } from '../../rest-facade/wp/types.ts';

const routes: RouteDef[] = [
  {
    pattern: '/items',
    endpoints: [
      {
        methods: ['GET'],
        args: { page: { type: 'integer', default: 1 } },
        handler: () => ({
          status: 200,
          headers: { 'X-TEC-Total': 2, 'X-TEC-TotalPages': 1 },
          body: {
            items: [
              { id: 1, name: 'A – b/c', nested: { x: 1, y: 2 } },
              { id: 2, name: 'B', nested: { x: 3, y: 4 } },
            ],
            total: 2,
            total_pages: 1,
          },
        }),
      },
      { methods: ['POST'], permission: (req) => !req.user.anonymous, handler: () => ({ status: 201, body: { id: 3 } }) },
    ],
  },
  {
    pattern: '/fail',
    endpoints: [{ methods: ['GET'], handler: () => tableError('event-archive-page-not-found') }],
  },
];

let srv: WpTestServer;
beforeAll(async () => {
  srv = await startWpTestServer({
    routes,
    siteUrl: 'http://localhost:8080',
    authenticate: (request) => (request.headers.authorization ? { anonymous: false, id: 1, roles: ['administrator'] } : null),
  });
});
afterAll(async () => {
  await srv.close();
});

const NS = '/wp-json/cal/events/v1';

describe('standard headers (§1.5)', () => {
  it('anonymous GET', async () => {
    const r = await srv.fetch(`${NS}/items`);
    expect(r.status).toBe(200);
    const h = Object.fromEntries(r.headers);
    expect(h).toMatchObject({
      'content-type': 'application/json; charset=UTF-8',
      'x-robots-tag': 'noindex',
      link: '<http://localhost:8080/wp-json/>; rel="https://api.w.org/"',
      'x-content-type-options': 'nosniff',
      'access-control-expose-headers': 'X-WP-Total, X-WP-TotalPages, Link, X-TEC-Total, X-TEC-TotalPages',
      'access-control-allow-headers': 'Authorization, X-WP-Nonce, Content-Disposition, Content-MD5, Content-Type',
      allow: 'GET',
      vary: 'Origin',
      'x-tec-total': '2',
      'x-tec-totalpages': '1',
    });
    expect(h.expires).toBeUndefined();
    expect(h['cache-control']).toBeUndefined();
    expect(h['access-control-allow-origin']).toBeUndefined();
  });

  it('authenticated callers get no-cache headers and no Vary', async () => {
    const r = await srv.fetch(`${NS}/items`, { headers: { Authorization: 'Basic x' } });
    expect(r.headers.get('expires')).toBe('Wed, 11 Jan 1984 05:00:00 GMT');
    expect(r.headers.get('cache-control')).toBe('no-cache, must-revalidate, max-age=0');
    expect(r.headers.get('vary')).toBeNull();
    expect(r.headers.get('allow')).toBe('GET, POST');
  });

  it('anonymous POST: no Vary', async () => {
    const r = await srv.fetch(`${NS}/items`, { method: 'POST' });
    expect(r.status).toBe(401);
    expect(r.headers.get('vary')).toBeNull();
    expect(r.headers.get('allow')).toBe('GET');
  });

  it('JSON is encoded WordPress-style (escaped slashes and non-ASCII)', async () => {
    const text = await (await srv.fetch(`${NS}/items`)).text();
    expect(text).toContain('"A \\u2013 b\\/c"');
    expect(JSON.parse(text).items[0].name).toBe('A – b/c');
  });
});

describe('CORS (§10.1)', () => {
  it('echoes the Origin with methods and credentials', async () => {
    const r = await srv.fetch(`${NS}/items`, { headers: { Origin: 'https://app.example' } });
    expect(r.headers.get('access-control-allow-origin')).toBe('https://app.example');
    expect(r.headers.get('access-control-allow-methods')).toBe('OPTIONS, GET, POST, PUT, PATCH, DELETE');
    expect(r.headers.get('access-control-allow-credentials')).toBe('true');
    expect(r.headers.get('vary')).toBe('Origin');
  });

  it('keeps a null origin; Vary: Origin also on POST with Origin', async () => {
    const r = await srv.fetch(`${NS}/items`, { method: 'POST', headers: { Origin: 'null' } });
    expect(r.headers.get('access-control-allow-origin')).toBe('null');
    expect(r.headers.get('vary')).toBe('Origin');
  });

  it('preflight OPTIONS → 200 with the route description', async () => {
    const r = await srv.fetch(`${NS}/items`, {
      method: 'OPTIONS',
      headers: { Origin: 'https://app.example', 'Access-Control-Request-Method': 'POST' },
    });
    expect(r.status).toBe(200);
    expect(r.headers.get('access-control-allow-origin')).toBe('https://app.example');
    expect(r.headers.get('access-control-allow-headers')).toContain('Authorization');
    const body = await r.json();
    expect(body.methods).toEqual(['GET', 'POST']);
  });
});

describe('envelope features (§10.3)', () => {
  it('_envelope wraps body, status and headers with HTTP 200', async () => {
    const r = await srv.fetch(`${NS}/fail?_envelope`);
    expect(r.status).toBe(200);
    const body = await r.json();
    expect(body).toEqual({
      body: { code: 'event-archive-page-not-found', message: 'The requested event archive page does not exist', data: { status: 404 } },
      status: 404,
      headers: { Allow: 'GET' },
    });
    const ok = await (await srv.fetch(`${NS}/items?_envelope=1`)).json();
    expect(ok.status).toBe(200);
    expect(ok.headers).toEqual({ 'X-TEC-Total': '2', 'X-TEC-TotalPages': '1', Allow: 'GET' });
    expect(ok.body.total).toBe(2);
  });

  it('_jsonp wraps the JSON; bad callbacks → 400 rest_callback_invalid', async () => {
    const r = await srv.fetch(`${NS}/items?_jsonp=my.cb_1`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/javascript; charset=UTF-8');
    const text = await r.text();
    expect(text.startsWith('/**/my.cb_1({')).toBe(true);
    expect(text.endsWith('})')).toBe(true);
    const bad = await srv.fetch(`${NS}/items?_jsonp=alert(1)`);
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ code: 'rest_callback_invalid', message: 'Invalid JSONP callback function.' });
    const bad2 = await srv.fetch(`${NS}/nope?_jsonp=`);
    expect(bad2.status).toBe(400);
  });

  it('_fields keeps top-level and dotted nested keys (not on errors)', async () => {
    const a = await (await srv.fetch(`${NS}/items?_fields=total,items.id,items.nested.y`)).json();
    expect(a).toEqual({ items: [{ id: 1, nested: { y: 2 } }, { id: 2, nested: { y: 4 } }], total: 2 });
    const b = await (await srv.fetch(`${NS}/items?_fields[]=total_pages&_fields[]=items.nested`)).json();
    expect(b).toEqual({ items: [{ nested: { x: 1, y: 2 } }, { nested: { x: 3, y: 4 } }], total_pages: 1 });
    const e = await (await srv.fetch(`${NS}/fail?_fields=code`)).json();
    expect(e.message).toBeDefined();
  });

  it('_pretty pretty-prints with 4 spaces', async () => {
    const text = await (await srv.fetch(`${NS}/items?_pretty`)).text();
    expect(text).toContain('\n    "items": [');
  });

  it('_embed is ignored', async () => {
    const body = await (await srv.fetch(`${NS}/items?_embed=1`)).json();
    expect(body._embedded).toBeUndefined();
    expect(body.total).toBe(2);
  });
});

describe('site URL derivation', () => {
  it('uses Host, and X-Forwarded-* only with trustProxy', async () => {
    const a = await startWpTestServer({ routes });
    const b = await startWpTestServer({ routes, trustProxy: true });
    try {
      const ra = await a.fetch(`/it${NS}/items`, { headers: { 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'cal.example.org' } });
      expect(ra.headers.get('link')).toBe(`<${a.base}/it/wp-json/>; rel="https://api.w.org/"`);
      const rb = await b.fetch(`/it${NS}/items`, { headers: { 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'cal.example.org' } });
      expect(rb.headers.get('link')).toBe('<https://cal.example.org/it/wp-json/>; rel="https://api.w.org/"');
      const rc = await b.fetch(`${NS}/items`, { headers: { 'X-Forwarded-Host': 'evil"host' } });
      expect(rc.headers.get('link')).toBe(`<${b.base}/wp-json/>; rel="https://api.w.org/"`);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
