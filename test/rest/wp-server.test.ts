import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWpTestServer, type WpTestServer } from '../helpers/wp-server.ts';
import { defineRoute } from '../../rest-facade/wp/route.ts';
import { tableError, wpError } from '../../rest-facade/wp/errors.ts';
import { isTruthy } from '../../rest-facade/wp/coerce.ts';
import { positiveInt, capPerPage, nonEmptyString, perPageDefault } from '../../rest-facade/resources/args.ts';
import type { Caller, RouteDef, WpRequest } from '../../rest-facade/wp/types.ts';

const echo = (req: WpRequest) => ({
  status: 200,
  body: {
    method: req.method,
    httpMethod: req.httpMethod,
    route: req.route,
    params: req.params,
    sent: Object.keys(req.params).filter((k) => req.sent(k)),
    lang: req.lang,
    home: req.urls.home,
    rest: req.urls.rest('/things/1'),
    user: req.user.anonymous ? 'anon' : req.user.id,
  },
});

const loggedIn = (req: WpRequest) => !req.user.anonymous;
const isAdmin = (req: WpRequest) => !req.user.anonymous && (req.user.roles ?? []).includes('administrator');

const routes: RouteDef[] = [
  defineRoute({
    pattern: '/things',
    endpoints: [
      {
        methods: ['GET'],
        args: {
          page: { default: 1, description: 'desc.the_archive_page_to_return', type: 'integer', validate: positiveInt },
          per_page: { default: perPageDefault, type: 'integer', validate: positiveInt, sanitize: capPerPage },
          flag: { type: 'boolean' },
          ids: { items: { type: 'integer' } },
          name: { type: 'string' },
          search: { type: 'string', validate: nonEmptyString },
          loose: {},
          truthy: {},
          obj: { accept: 'any' },
          count: { type: 'integer' },
          hide: { type: 'boolean', default: '1' },
        },
        handler: (req) => {
          const r = echo(req);
          return { ...r, headers: { 'X-TEC-Total': 3, 'X-TEC-TotalPages': 1 }, body: { ...r.body, truthy: isTruthy(req.params.truthy) } };
        },
      },
      {
        methods: ['POST'],
        args: {
          title: { type: 'string', required: true, validate: nonEmptyString },
          start_date: { type: 'string', required: true, lenient: true },
          count: { type: 'integer' },
          show_map: { type: 'string' },
          all_day: { type: 'boolean', default: false },
          cost: { accept: 'any' },
          categories: { items: { type: 'integer' } },
        },
        permission: loggedIn,
        handler: (req) => ({ ...echo(req), status: 201 }),
      },
    ],
  }),
  defineRoute({
    pattern: '/things/{id}',
    endpoints: [
      { methods: ['GET'], args: { id: { type: 'integer', required: true } }, handler: echo },
      { methods: ['DELETE'], args: { id: { type: 'integer', required: true } }, permission: isAdmin, handler: echo },
      {
        methods: ['POST', 'PUT', 'PATCH'],
        args: { id: { type: 'integer', required: true }, title: { type: 'string' } },
        permission: loggedIn,
        handler: echo,
      },
    ],
  }),
  defineRoute({
    pattern: '/things/by-slug/{slug}',
    endpoints: [
      { methods: ['GET'], args: { slug: { type: 'string', required: true } }, handler: echo },
      { methods: ['POST'], args: { slug: { type: 'string' }, title: { type: 'string' } }, permission: loggedIn, handler: echo },
    ],
  }),
  defineRoute({
    pattern: '/boom',
    endpoints: [
      {
        methods: ['GET'],
        handler: () => {
          throw new Error('secret stack detail');
        },
      },
    ],
  }),
  defineRoute({
    pattern: '/weird/{kind}',
    endpoints: [
      {
        methods: ['GET'],
        handler: (req) => {
          if (req.pathParams.kind === 'bigint') return { status: 200, body: { id: 12n, huge: 2n ** 70n } };
          const a: Record<string, unknown> = {};
          a.self = a;
          return { status: 200, body: a, headers: { 'X-TEC-Total': 1 } };
        },
      },
    ],
  }),
  defineRoute({
    pattern: '/errors/(?P<kind>[a-z]+)',
    endpoints: [
      {
        methods: ['GET'],
        args: { kind: { type: 'string' } },
        handler: (req) => {
          if (req.params.kind === 'notfound') return tableError('rest-event-not-found', { id: 9 });
          if (req.params.kind === 'thrown') throw tableError('event-not-accessible');
          return wpError('term_exists', 'error.term_exists', 400, { term_id: 2 }, [2, 2]);
        },
      },
    ],
  }),
  defineRoute({
    pattern: '/validate',
    endpoints: [
      {
        methods: ['GET'],
        args: {
          a: { validate: (v) => v === 'ok' },
          b: {
            default: 'bad',
            validate: (v) => (v === 'ok' ? true : wpError('custom_code', 'Custom failure for b.', null, { param: 'b' })),
          },
          c: { type: 'integer' },
        },
        handler: echo,
      },
    ],
  }),
];

const users: Record<string, Caller> = {
  admin: { anonymous: false, id: 1, roles: ['administrator'] },
  sub: { anonymous: false, id: 5, roles: ['subscriber'] },
};

let srv: WpTestServer;
const logged: unknown[] = [];

beforeAll(async () => {
  srv = await startWpTestServer({
    routes,
    bodyLimit: 64 * 1024,
    logger: { error: (o) => logged.push(o), warn: () => {} },
    authenticate: (request) => {
      const auth = request.headers.authorization;
      if (!auth) return null;
      const who = auth.replace(/^Basic\s+/, '');
      if (who === 'bad') return tableError('incorrect_password');
      return users[who] ?? null;
    },
  });
});
afterAll(async () => {
  await srv.close();
});

const NS = '/wp-json/cal/events/v1';

async function get(path: string, init?: RequestInit) {
  const r = await srv.fetch(path, init);
  const text = await r.text();
  let body: any = undefined;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: r.status, headers: r.headers, body, text };
}

function json(method: string, body: unknown, headers: Record<string, string> = {}): RequestInit {
  return { method, body: typeof body === 'string' ? body : JSON.stringify(body), headers: { 'Content-Type': 'application/json', ...headers } };
}

describe('routing', () => {
  it('answers rest_no_route 404 JSON for unknown paths under the REST prefix', async () => {
    for (const p of [`${NS}/nope`, '/wp-json/other/v2/x', `${NS}/things/abc`, '/?rest_route=/nope']) {
      const r = await get(p);
      expect(r.status, p).toBe(404);
      expect(r.headers.get('content-type')).toBe('application/json; charset=UTF-8');
      expect(r.body).toEqual({ code: 'rest_no_route', message: 'No route was found matching the URL and request method.', data: { status: 404 } });
      expect(r.headers.get('allow')).toBeNull();
      expect(r.headers.get('vary')).toBe('Origin');
    }
  });

  it('passes non-REST paths to the next middleware', async () => {
    const r = await get('/events/');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toContain('text/html');
    expect((await get('/wp-jsonx')).headers.get('content-type')).toContain('text/html');
  });

  it('removes one trailing slash and matches case-insensitively', async () => {
    expect((await get(`${NS}/things/`)).status).toBe(200);
    expect((await get(`${NS}/THINGS/7`)).body.params).toEqual({ id: 7 });
    expect((await get(`${NS}/Things/By-Slug/Hello-World/`)).body.params).toEqual({ slug: 'Hello-World' });
    expect((await get(`${NS}/things//`)).status).toBe(404);
  });

  it('404s for a method the route does not serve (no Allow)', async () => {
    const r = await get(`${NS}/things`, { method: 'DELETE' });
    expect(r.status).toBe(404);
    expect(r.body.code).toBe('rest_no_route');
    expect(r.headers.get('allow')).toBeNull();
  });

  it('serves the plain-permalink form (?rest_route=) and /index.php', async () => {
    const a = await get('/?rest_route=/cal/events/v1/things&page=2');
    expect(a.status).toBe(200);
    expect(a.body.params.page).toBe(2);
    expect(a.body.sent).toContain('page');
    const b = await get('/index.php?rest_route=%2Fcal%2Fevents%2Fv1%2Fthings%2F5');
    expect(b.body.params).toEqual({ id: 5 });
    const c = await get('/fr/?rest_route=/cal/events/v1/things/by-slug/caf%C3%A9');
    expect(c.body.params.slug).toBe('café');
    expect(c.body.lang).toBe('fr');
  });

  it('HEAD is served by GET without a body', async () => {
    const r = await srv.fetch(`${NS}/things/3`, { method: 'HEAD' });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/json; charset=UTF-8');
    expect(r.headers.get('allow')).toBe('GET');
    expect(await r.text()).toBe('');
  });

  it('OPTIONS returns the route index entry and Allow', async () => {
    const r = await get(`${NS}/things/3`, { method: 'OPTIONS' });
    expect(r.status).toBe(200);
    expect(r.headers.get('allow')).toBe('GET');
    expect(r.body.namespace).toBe('cal/events/v1');
    expect(r.body.methods).toEqual(['GET', 'DELETE', 'POST', 'PUT', 'PATCH']);
    expect(r.body.endpoints[0]).toEqual({ methods: ['GET'], args: { id: { type: 'integer', required: true } } });
    expect(r.body._links).toBeUndefined();
    const c = await get(`${NS}/things`, { method: 'OPTIONS', headers: { Authorization: 'Basic admin' } });
    expect(c.headers.get('allow')).toBe('GET, POST');
    expect(c.body._links).toEqual({ self: [{ href: expect.stringMatching(/\/wp-json\/cal\/events\/v1\/things$/) }] });
    expect(c.body.endpoints[0].args.page).toEqual({ default: 1, description: 'The archive page to return', type: 'integer', required: false });
    expect((await get(`${NS}/nope`, { method: 'OPTIONS' })).status).toBe(404);
  });

  it('method override: _method and X-HTTP-Method-Override on POST', async () => {
    const a = await get(`${NS}/things/4?_method=DELETE`, { method: 'POST', headers: { Authorization: 'Basic admin' } });
    expect(a.status).toBe(200);
    expect(a.body.method).toBe('DELETE');
    expect(a.body.httpMethod).toBe('POST');
    const b = await get(`${NS}/things/4`, { method: 'POST', headers: { 'X-HTTP-Method-Override': 'put', Authorization: 'Basic admin' } });
    expect(b.body.method).toBe('PUT');
    // not on GET
    const c = await get(`${NS}/things/4?_method=DELETE`);
    expect(c.body.method).toBe('GET');
  });

  it('root index and namespace index', async () => {
    const root = await get('/wp-json/');
    expect(root.status).toBe(200);
    expect(root.body.namespaces).toEqual(['cal/events/v1']);
    expect(Object.keys(root.body.routes).slice(0, 4)).toEqual(['/', '/cal/events/v1', '/cal/events/v1/doc', '/cal/events/v1/things']);
    expect(root.body._links).toBeDefined();
    expect((await get('/wp-json')).status).toBe(200);
    const ns1 = await get(NS);
    const ns2 = await get(`${NS}/`);
    expect(ns1.body).toEqual(ns2.body);
    expect(ns1.body.namespace).toBe('cal/events/v1');
    expect(Object.keys(ns1.body.routes)).toContain('/cal/events/v1/things/(?P<id>\\d+)');
  });

  it('language variants: URL prefix everywhere and translated messages', async () => {
    const r = await get(`/de${NS}/things`);
    expect(r.body.lang).toBe('de');
    expect(r.body.home).toMatch(/\/de$/);
    expect(r.body.rest).toMatch(/\/de\/wp-json\/cal\/events\/v1\/things\/1$/);
    expect(r.headers.get('link')).toMatch(/^<http:\/\/127\.0\.0\.1:\d+\/de\/wp-json\/>; rel="https:\/\/api\.w\.org\/"$/);
    const e = await get(`/fr${NS}/things?page=0&flag=maybe`);
    expect(e.status).toBe(400);
    expect(e.body.message).toBe('Paramètre(s) non valide(s) : page');
    expect(e.body.data.params.page).toBe('Paramètre non valide.');
    const t = await get(`/es${NS}/things?flag=maybe`);
    expect(t.body.data.params.flag).toBe('flag no es del tipo boolean.');
    const n = await get(`/it${NS}/nope`);
    expect(n.body.message).toBe('Nessun percorso trovato corrispondente all\'URL e al metodo della richiesta.');
    expect(n.body.code).toBe('rest_no_route');
    const idx = await get(`/pl${NS}`);
    expect(idx.body._links.up[0].href).toMatch(/\/pl\/wp-json\/$/);
    expect(idx.body.routes['/cal/events/v1/things']._links.self[0].href).toMatch(/\/pl\/wp-json\/cal\/events\/v1\/things$/);
    expect(idx.body.routes['/cal/events/v1/things'].endpoints[0].args.page.description).toBe('Strona archiwum do zwrócenia');
    // an unknown language segment is not a language variant
    expect((await get(`/xx${NS}/things`)).headers.get('content-type')).toContain('text/html');
  });
});

describe('parameters', () => {
  it('applies defaults (validated and coerced) and reports what was sent', async () => {
    const r = await get(`${NS}/things`);
    expect(r.body.params).toEqual({ page: 1, per_page: 10, hide: true });
    expect(r.body.sent).toEqual([]);
  });

  it('caps per_page through sanitize and coerces integers/booleans', async () => {
    const r = await get(`${NS}/things?per_page=100&page=12.0&flag=TRUE&count=-3&hide=0`);
    expect(r.body.params).toMatchObject({ page: 12, per_page: 50, flag: true, count: -3, hide: false });
  });

  it('precedence: JSON body > form > query > path, but the path id/slug wins', async () => {
    const h = { Authorization: 'Basic admin' };
    const a = await get(`${NS}/things/8?id=10&title=q`, json('POST', { id: 9, title: 'json' }, h));
    expect(a.body.params).toEqual({ id: 8, title: 'json' });
    const b = await get(`${NS}/things/8?title=q`, { method: 'POST', body: 'title=form&id=9', headers: { ...h, 'Content-Type': 'application/x-www-form-urlencoded' } });
    expect(b.body.params).toEqual({ id: 8, title: 'form' });
    const c = await get(`${NS}/things/by-slug/old?slug=x`, json('POST', { slug: 'new', title: 't' }, h));
    expect(c.body.params).toEqual({ slug: 'old', title: 't' });
    const d = await get(`${NS}/things/8?title=query`, { method: 'POST', headers: h });
    expect(d.body.params.title).toBe('query');
  });

  it('multipart/form-data bodies on POST', async () => {
    const fd = new FormData();
    fd.append('title', 'Multi part');
    fd.append('start_date', '2026-12-01');
    fd.append('categories[]', '3');
    fd.append('categories[]', '4');
    fd.append('file', new Blob(['xyz']), 'x.txt');
    const r = await get(`${NS}/things`, { method: 'POST', body: fd, headers: { Authorization: 'Basic admin' } });
    expect(r.status).toBe(201);
    expect(r.body.params).toMatchObject({ title: 'Multi part', start_date: '2026-12-01', categories: ['3', '4'], all_day: false });
    expect(r.body.sent).toEqual(['title', 'start_date', 'categories']);
  });

  it('PUT/PATCH/DELETE bodies: urlencoded or without content type', async () => {
    const h = { Authorization: 'Basic admin' };
    const a = await get(`${NS}/things/2`, { method: 'PUT', body: 'title=put+body', headers: { ...h, 'Content-Type': 'application/x-www-form-urlencoded' } });
    expect(a.body.params.title).toBe('put body');
    const b = await get(`${NS}/things/2`, { method: 'PATCH', body: new TextEncoder().encode('title=raw'), headers: h });
    expect(b.body.params.title).toBe('raw');
  });

  it('ignores bodies in other content types', async () => {
    const r = await get(`${NS}/things/2?title=q`, { method: 'POST', body: '{"title":"x"}', headers: { Authorization: 'Basic admin', 'Content-Type': 'text/plain' } });
    expect(r.status).toBe(200);
    expect(r.body.params.title).toBe('q');
  });

  it('lists: CSV (spaces, url-decoded once more), x[]=, JSON arrays', async () => {
    expect((await get(`${NS}/things?ids=1, 2 ,3`)).body.params.ids).toEqual(['1', '2', '3']);
    expect((await get(`${NS}/things?ids=1%252C2`)).body.params.ids).toEqual(['1', '2']);
    expect((await get(`${NS}/things?ids[]=4&ids[]=5`)).body.params.ids).toEqual(['4', '5']);
    const j = await get(`${NS}/things`, json('POST', { title: 'x', start_date: 'now', categories: [1, 'music'] }, { Authorization: 'Basic admin' }));
    expect(j.body.params.categories).toEqual([1, 'music']);
  });

  it('JSON null is treated as absent', async () => {
    const r = await get(`${NS}/things`, json('POST', { title: 'x', start_date: 'now', count: null, show_map: null }, { Authorization: 'Basic admin' }));
    expect(r.status).toBe(201);
    expect(r.body.params).toEqual({ title: 'x', start_date: 'now', all_day: false });
    const m = await get(`${NS}/things`, json('POST', { title: null, start_date: 'now' }, { Authorization: 'Basic admin' }));
    expect(m.body.code).toBe('rest_missing_callback_param');
  });

  it('strings reject JSON numbers/booleans unless lenient (§8.1 body)', async () => {
    const r = await get(`${NS}/things`, json('POST', { title: 'x', start_date: 1767398400, show_map: true, count: '4' }, { Authorization: 'Basic admin' }));
    expect(r.status).toBe(400);
    expect(r.body).toEqual({
      code: 'rest_invalid_param',
      message: 'Invalid parameter(s): show_map',
      data: {
        status: 400,
        params: { show_map: 'show_map is not of type string.' },
        details: { show_map: { code: 'rest_invalid_type', message: 'show_map is not of type string.', data: { param: 'show_map' } } },
      },
    });
    expect(r.headers.get('allow')).toBe('GET, POST');
  });

  it('type errors are collected in parameter order with details', async () => {
    const r = await get(`${NS}/things?count=1.5&flag=yes&hide=2`);
    expect(r.status).toBe(400);
    expect(r.body.message).toBe('Invalid parameter(s): flag, count, hide');
    expect(Object.keys(r.body.data.params)).toEqual(['flag', 'count', 'hide']);
    expect(r.body.data.params.flag).toBe('flag is not of type boolean.');
    expect(r.body.data.details.count).toEqual({ code: 'rest_invalid_type', message: 'count is not of type integer.', data: { param: 'count' } });
  });

  it('plain validator refusals give details []; validators run on defaults; WpError validators give details', async () => {
    const a = await get(`${NS}/things?per_page=abc`);
    expect(a.body).toEqual({
      code: 'rest_invalid_param',
      message: 'Invalid parameter(s): per_page',
      data: { status: 400, params: { per_page: 'Invalid parameter.' }, details: [] },
    });
    const b = await get(`${NS}/validate?a=no`);
    expect(b.body.message).toBe('Invalid parameter(s): a, b');
    expect(b.body.data.params).toEqual({ a: 'Invalid parameter.', b: 'Custom failure for b.' });
    expect(b.body.data.details).toEqual({ b: { code: 'custom_code', message: 'Custom failure for b.', data: { param: 'b' } } });
    // validators (step 4) are reported before type errors (step 5)
    const c = await get(`${NS}/validate?a=no&c=x&b=ok`);
    expect(Object.keys(c.body.data.params)).toEqual(['a']);
    const d = await get(`${NS}/validate?a=ok&c=x&b=ok`);
    expect(Object.keys(d.body.data.params)).toEqual(['c']);
  });

  it('missing required parameters are all listed', async () => {
    const r = await get(`${NS}/things`, json('POST', { count: 1 }, { Authorization: 'Basic admin' }));
    expect(r.status).toBe(400);
    expect(r.body).toEqual({
      code: 'rest_missing_callback_param',
      message: 'Missing parameter(s): title, start_date',
      data: { status: 400, params: ['title', 'start_date'] },
    });
  });

  it('validation happens before authorization; permission → 401 anonymous / 403 logged in', async () => {
    const a = await get(`${NS}/things`, json('POST', {}));
    expect(a.status).toBe(400);
    const b = await get(`${NS}/things`, json('POST', { title: 'x', start_date: 'now' }));
    expect(b.status).toBe(401);
    expect(b.body).toEqual({ code: 'rest_forbidden', message: 'Sorry, you are not allowed to do that.', data: { status: 401 } });
    expect(b.headers.get('allow')).toBe('GET');
    const c = await get(`${NS}/things/3`, { method: 'DELETE', headers: { Authorization: 'Basic sub' } });
    expect(c.status).toBe(403);
    expect(c.headers.get('allow')).toBe('GET, POST, PUT, PATCH');
    const d = await get(`${NS}/things/3`, { method: 'DELETE', headers: { Authorization: 'Basic admin' } });
    expect(d.headers.get('allow')).toBe('GET, DELETE, POST, PUT, PATCH');
  });

  it('invalid JSON bodies → rest_invalid_json with PHP error codes', async () => {
    const h = { Authorization: 'Basic admin' };
    const a = await get(`${NS}/things`, json('POST', '{"title": "broken', h));
    expect(a.status).toBe(400);
    expect(a.body).toEqual({
      code: 'rest_invalid_json',
      message: 'Invalid JSON body passed.',
      data: { status: 400, json_error_code: 3, json_error_message: 'Control character error, possibly incorrectly encoded' },
    });
    expect(a.headers.get('allow')).toBe('GET, POST');
    const b = await get(`${NS}/things`, json('POST', '{"title": 1,}', h));
    expect(b.body.data).toMatchObject({ json_error_code: 4, json_error_message: 'Syntax error' });
    const c = await get(`${NS}/things`, { method: 'POST', body: Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]), headers: { ...h, 'Content-Type': 'application/json' } });
    expect(c.body.data).toMatchObject({ json_error_code: 5 });
    // JSON error wins over missing params (step 2 before step 3)
    const d = await get(`${NS}/things`, json('POST', '[', h));
    expect(d.body.code).toBe('rest_invalid_json');
  });

  it('invalid UTF-8 and NUL bytes in parameters → rest_invalid_param naming them', async () => {
    const a = await get(`${NS}/things?name=%FF%FE`);
    expect(a.status).toBe(400);
    expect(a.body.data.params).toEqual({ name: 'Invalid parameter.' });
    const b = await get(`${NS}/things?name=a%00b`);
    expect(b.body.data.params).toEqual({ name: 'Invalid parameter.' });
    const c = await get(`${NS}/things/by-slug/%C3%28`);
    expect(c.status).toBe(400);
    expect(c.body.data.params).toEqual({ slug: 'Invalid parameter.' });
    const d = await get(`${NS}/things`, json('POST', { title: 'a\u0000b', start_date: 'now' }, { Authorization: 'Basic admin' }));
    expect(d.body.data.params).toEqual({ title: 'Invalid parameter.' });
    // undeclared garbage is ignored
    expect((await get(`${NS}/things?zzz=%FF`)).status).toBe(200);
  });

  it('nested arrays/objects where a scalar is expected → 400', async () => {
    const a = await get(`${NS}/things?loose[a]=1`);
    expect(a.status).toBe(400);
    expect(a.body.data.params).toEqual({ loose: 'Invalid parameter.' });
    const b = await get(`${NS}/things?count[]=1`);
    expect(b.body.data.params).toEqual({ count: 'count is not of type integer.' });
    const c = await get(`${NS}/things`, json('POST', { title: { x: 1 }, start_date: 'now' }, { Authorization: 'Basic admin' }));
    expect(c.status).toBe(400);
    expect(c.body.data.params).toEqual({ title: 'title is not of type string.' });
    const d = await get(`${NS}/things?obj[a][b]=1`);
    expect(d.body.params.obj).toEqual({ a: { b: '1' } });
  });

  it('absurd integers → 400, never 5xx', async () => {
    const a = await get(`${NS}/things?page=2147483648`);
    expect(a.status).toBe(400);
    expect(a.body.data.params).toEqual({ page: 'Invalid parameter.' });
    const b = await get(`${NS}/things?count=99999999999999999999999`);
    expect(b.status).toBe(400);
    const c = await get(`${NS}/things/99999999999999999999999`);
    expect(c.status).toBe(400);
    expect(c.body.data.params).toEqual({ id: 'id is not of type integer.' });
  });

  it('oversized bodies → 413 in the WP error shape', async () => {
    const big = JSON.stringify({ title: 'x'.repeat(70 * 1024), start_date: 'now' });
    const r = await get(`${NS}/things`, json('POST', big, { Authorization: 'Basic admin' }));
    expect(r.status).toBe(413);
    expect(r.body).toMatchObject({ code: 'rest_payload_too_large', data: { status: 413 } });
  });

  it('the truthy rule', async () => {
    for (const [v, want] of [['yes', true], ['On', true], ['enabled', true], ['1', true], ['no', false], ['0', false], ['', false]] as const) {
      expect((await get(`${NS}/things?truthy=${v}`)).body.truthy, v).toBe(want);
    }
  });
});

describe('errors from handlers', () => {
  it('returned and thrown WpErrors, with interpolation and additional_data', async () => {
    const a = await get(`${NS}/errors/notfound`);
    expect(a.status).toBe(404);
    expect(a.body).toEqual({ code: 'rest-event-not-found', message: 'Event with ID 9 does not exist.', data: { status: 404 } });
    const fr = await get(`/fr${NS}/errors/notfound`);
    expect(fr.body.message).toBe('L’évènement avec l’ID 9 n’existe pas.');
    const b = await get(`${NS}/errors/thrown`);
    expect(b.status).toBe(403);
    expect(b.body.code).toBe('event-not-accessible');
    expect(b.headers.get('allow')).toBe('GET');
    const c = await get(`${NS}/errors/other`);
    expect(c.body).toEqual({
      code: 'term_exists',
      message: 'A term with the name provided already exists with this parent.',
      data: { status: 400, term_id: 2 },
      additional_data: [2, 2],
    });
  });

  it('unexpected exceptions → 500 internal_server_error, logged, no stack', async () => {
    const r = await get(`${NS}/boom`);
    expect(r.status).toBe(500);
    expect(r.body).toEqual({ code: 'internal_server_error', message: 'There has been a critical error on this website.', data: { status: 500 } });
    expect(r.text).not.toContain('secret');
    expect(logged.length).toBeGreaterThan(0);
  });

  it('BigInt bodies are encoded; unencodable bodies → 500 without leftover headers', async () => {
    const a = await get(`${NS}/weird/bigint`);
    expect(a.body).toEqual({ id: 12, huge: '1180591620717411303424' });
    const b = await get(`${NS}/weird/circular`);
    expect(b.status).toBe(500);
    expect(b.body.code).toBe('internal_server_error');
    expect(b.headers.get('x-tec-total')).toBeNull();
  });

  it('authentication errors answer on every route', async () => {
    const r = await get(`${NS}/things`, { headers: { Authorization: 'Basic bad' } });
    expect(r.status).toBe(401);
    expect(r.body.code).toBe('incorrect_password');
    expect(r.body.message).toBe('The provided password is an invalid application password.');
  });
});
