/**
 * The request side over the real app: body formats and list syntaxes, language variants, the
 * plain-permalink form, CORS, OPTIONS/HEAD/method override, authentication failures, and hostile
 * input that must end in a clean 4xx (never a 500).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';

let s: TestServer;
const id: Record<string, number> = {};
beforeAll(async () => {
  s = await startTestServer();
  for (const name of ['Music', 'Jazz', 'Talks']) {
    const r = await s.api('/categories', { method: 'POST', as: 'admin', body: { name } });
    id[name] = r.body.id;
  }
});
afterAll(async () => {
  await s?.close();
});

const form = (o: Record<string, string | string[]>) => {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(o)) for (const x of Array.isArray(v) ? v : [v]) p.append(k, x);
  return p;
};
const catNames = (e: { categories: { name: string }[] }) => e.categories.map((c) => c.name);

describe('bodies and list syntaxes', () => {
  it('application/x-www-form-urlencoded with x[]= arrays', async () => {
    const body = form({ title: 'Form Event', start_date: '2026-12-05 10:00:00', end_date: '2026-12-05 11:00:00', 'categories[]': [String(id.Music), String(id.Jazz)], featured: 'true' });
    const r = await s.api('/events', { method: 'POST', as: 'admin', body });
    expect(r.status, r.text).toBe(201);
    expect(catNames(r.body)).toEqual(['Jazz', 'Music']);
    expect(r.body.featured).toBe(true);
  });

  it('multipart/form-data on POST', async () => {
    const fd = new FormData();
    fd.append('title', 'Multipart Événement');
    fd.append('start_date', '2026-12-06 10:00:00');
    fd.append('end_date', '2026-12-06 11:00:00');
    fd.append('categories', `${id.Talks}`);
    const r = await s.api('/events', { method: 'POST', as: 'admin', body: fd });
    expect(r.status, r.text).toBe(201);
    expect(r.body.title).toBe('Multipart Événement');
    expect(r.body.slug).toBe('multipart-evenement');
    expect(catNames(r.body)).toEqual(['Talks']);
    // Non-ASCII is escaped on the wire, as wp_json_encode() does.
    expect(r.text).toContain('Multipart \\u00c9v\\u00e9nement');
  });

  it('urlencoded body on PUT; CSV and JSON arrays; JSON wins over the query', async () => {
    const e = await s.api('/events', { method: 'POST', as: 'admin', body: { title: 'Lists', start_date: '2026-12-07 10:00', end_date: '2026-12-07 11:00' } });
    const put = await s.api(`/events/${e.body.id}`, { method: 'PUT', as: 'admin', body: form({ categories: `${id.Music}, ${id.Talks}` }) });
    expect(catNames(put.body)).toEqual(['Music', 'Talks']);
    const json = await s.api(`/events/${e.body.id}?title=From+query`, { method: 'PATCH', as: 'admin', body: { categories: ['jazz'], title: 'From JSON' } });
    expect([catNames(json.body), json.body.title]).toEqual([['Jazz'], 'From JSON']);
    const query = await s.api(`/events/${e.body.id}?title=From+query&tags[]=a&tags[]=b`, { method: 'POST', as: 'admin' });
    expect([query.body.title, query.body.tags.map((t: { name: string }) => t.name)]).toEqual(['From query', ['a', 'b']]);
    const list = await s.api(`/events?categories[]=${id.Music}&categories[]=talks&per_page=50`);
    expect(list.status).toBe(200);
    expect(list.body.events.map((x: { title: string }) => x.title)).toContain('Form Event');
    expect((await s.api(`/events?categories=${id.Music}%2C${id.Talks}`)).status).toBe(200);
  });

  it('JSON null means "not sent"; a body in another content type is ignored', async () => {
    const r = await s.api('/events', { method: 'POST', as: 'admin', body: { title: 'Nulls', start_date: '2026-12-08', end_date: '2026-12-08', description: null, venue: null } });
    expect(r.status).toBe(201);
    const xml = await s.api('/events', { method: 'POST', as: 'admin', headers: { 'Content-Type': 'text/xml' }, body: '<title>x</title>' });
    expect([xml.status, xml.body.code]).toEqual([400, 'rest_missing_callback_param']);
  });
});

describe('language variants and the plain-permalink form', () => {
  it('/fr/wp-json: same keys, URLs under /fr, messages translated', async () => {
    const en = await s.api('/events?per_page=1');
    const fr = await s.request('/fr/wp-json/cal/events/v1/events?per_page=1');
    expect(fr.status).toBe(200);
    expect(Object.keys(fr.body)).toEqual(Object.keys(en.body));
    expect(Object.keys(fr.body.events[0])).toEqual(Object.keys(en.body.events[0]));
    expect(fr.body.rest_url).toMatch(new RegExp(`^${s.base}/fr/wp-json/cal/events/v1/events/\\?`));
    expect(fr.body.events[0].url).toMatch(new RegExp(`^${s.base}/fr/event/`));
    expect(fr.headers.get('link')).toBe(`<${s.base}/fr/wp-json/>; rel="https://api.w.org/"`);

    const err = await s.request('/fr/wp-json/cal/events/v1/events?per_page=0');
    expect([err.status, err.body.code]).toEqual([400, 'rest_invalid_param']);
    expect(err.body.message).toBe('Paramètre(s) non valide(s) : per_page');
    expect(err.body.data.params.per_page).toBe('Paramètre non valide.');
    const missing = await s.request('/fr/wp-json/cal/events/v1/events/999999');
    expect([missing.body.code, missing.body.message]).toEqual(['rest-event-not-found', 'L’évènement avec l’ID 999999 n’existe pas.']);
    const de = await s.request('/de/wp-json/cal/events/v1/nope');
    expect([de.status, de.body.code]).toEqual([404, 'rest_no_route']);
    expect(de.body.message).not.toBe('No route was found matching the URL and request method.');
  });

  it('?rest_route= is the same request', async () => {
    const plain = await s.request('/?rest_route=/cal/events/v1/events&per_page=1');
    const pretty = await s.api('/events?per_page=1');
    expect(plain.status).toBe(200);
    expect(plain.body).toEqual(pretty.body);
    expect((await s.request('/index.php?rest_route=/cal/events/v1/categories/999999')).body.code).toBe('rest_invalid_param');
    expect((await s.request('/?rest_route=/cal/events/v1/nope')).body.code).toBe('rest_no_route');
  });

  it('the namespace index, the root index and /doc', async () => {
    const ns = await s.api('');
    expect(ns.body.namespace).toBe('cal/events/v1');
    expect(Object.keys(ns.body.routes)[3]).toBe('/cal/events/v1/events/(?P<id>\\d+)');
    expect((await s.api('/')).body).toEqual(ns.body);
    const root = await s.request('/wp-json/');
    expect(root.body.namespaces).toEqual(['cal/events/v1']);
    const doc = await s.api('/doc');
    expect([doc.body.openapi, Object.keys(doc.body.paths)[1]]).toEqual(['3.0.0', '/events']);
  });
});

describe('HTTP behaviour', () => {
  it('CORS: an origin not in CAL_CORS_ORIGINS gets * without credentials; X-TEC-* exposed', async () => {
    const r = await s.api('/events', { headers: { Origin: 'https://app.example' } });
    expect(r.headers.get('access-control-allow-origin')).toBe('*');
    expect(r.headers.get('access-control-allow-credentials')).toBeNull();
    expect(r.headers.get('access-control-allow-methods')).toBe('OPTIONS, GET, POST, PUT, PATCH, DELETE');
    expect(r.headers.get('access-control-expose-headers')).toBe('X-WP-Total, X-WP-TotalPages, Link, X-TEC-Total, X-TEC-TotalPages');
    expect(r.headers.get('vary')).toContain('Origin');
    const preflight = await s.api('/events/1', { method: 'OPTIONS', headers: { Origin: 'null', 'Access-Control-Request-Method': 'DELETE' } });
    expect(preflight.status).toBe(200);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.body.methods).toEqual(['GET', 'DELETE', 'POST', 'PUT', 'PATCH']);
    expect(preflight.headers.get('allow')).toBe('GET');
  });

  it('authenticated answers are not cached; anonymous GETs vary on Origin', async () => {
    const admin = await s.api('/events', { as: 'admin' });
    expect(admin.headers.get('expires')).toBe('Wed, 11 Jan 1984 05:00:00 GMT');
    expect(admin.headers.get('cache-control')).toBe('no-cache, must-revalidate, max-age=0');
    expect(admin.headers.get('allow')).toBe('GET, POST');
    const anon = await s.api('/events');
    expect(anon.headers.get('expires')).toBeNull();
    expect(anon.headers.get('content-type')).toBe('application/json; charset=UTF-8');
  });

  it('HEAD, _method override, trailing slash, case-insensitive paths', async () => {
    const head = await s.api('/events', { method: 'HEAD' });
    expect([head.status, head.text, head.headers.get('x-tec-total')]).toEqual([200, '', expect.any(String)]);
    const e = await s.api('/events', { method: 'POST', as: 'admin', body: { title: 'Override', start_date: '2026-12-09', end_date: '2026-12-09' } });
    const del = await s.api(`/events/${e.body.id}?_method=DELETE`, { method: 'POST', as: 'admin' });
    expect([del.status, del.body.status]).toEqual([200, 'trash']);
    expect((await s.api('/events/')).status).toBe(200);
    expect((await s.request('/wp-json/cal/events/v1/EVENTS')).status).toBe(200);
    expect((await s.api('/events', { method: 'DELETE', as: 'admin' })).body.code).toBe('rest_no_route');
  });

  it('bad credentials: 401 incorrect_password even on public routes', async () => {
    const wrong = await s.api('/events', { headers: { Authorization: 'Basic ' + Buffer.from('admin:wrong').toString('base64') } });
    expect([wrong.status, wrong.body.code]).toEqual([401, 'incorrect_password']);
    const malformed = await s.api('/events', { headers: { Authorization: 'Basic !!!' } });
    expect(malformed.status).toBe(401);
  });

  it('_envelope, _fields, _jsonp', async () => {
    const env = await s.api('/events/999999?_envelope');
    expect([env.status, env.body.status, env.body.body.code]).toEqual([200, 404, 'rest-event-not-found']);
    const fields = await s.api('/events?_fields=total,total_pages');
    expect(fields.body).toEqual({ total: expect.any(Number), total_pages: expect.any(Number) });
    const jsonp = await s.api('/categories?_jsonp=cb');
    expect(jsonp.text.startsWith('/**/cb(')).toBe(true);
    expect((await s.api('/categories?_jsonp=a(b)')).body.code).toBe('rest_callback_invalid');
  });
});

describe('hostile input ends in a clean 4xx', () => {
  const cases: [string, string][] = [
    ['NUL byte in a scalar', '/events?search=a%00b'],
    ['NUL byte in a list', '/events?categories=music%00'],
    ['invalid UTF-8', '/events?search=%FF%FE'],
    ['invalid UTF-8 in a slug', '/events/by-slug/%C3%28'],
    ['nested array for a scalar', '/events?search[]=jazz'],
    ['object for a scalar', '/events?page[a]=1'],
    ['deep nesting', `/events?search${'[a]'.repeat(20)}=x`],
    ['huge per_page', '/events?per_page=1e400'],
    ['huge page', '/events?page=99999999999'],
    ['negative page', '/events?page=-1'],
    ['float per_page', '/events?per_page=2.5'],
    ['huge ID list', `/events?include=${'9'.repeat(40)}`],
    ['start_date array', '/events?start_date[]=2026-12-01'],
    ['venue object', '/events?venue[x]=1'],
    ['status array of junk', '/events?status[]=publish&status[]=%00'],
    ['geoloc_lat nonsense', '/events?geoloc=1&geoloc_lat=abc&geoloc_lng=1e999'],
  ];
  for (const [what, path] of cases) {
    it(what, async () => {
      const r = await s.api(path.replace(/^\/events/, '/events'));
      expect(r.status, r.text).toBeLessThan(500);
      if (r.status >= 400) expect(r.body?.code, r.text).toMatch(/^rest_/);
    });
  }

  it('IDs beyond the database range name no record (never a 500)', async () => {
    const big = 3_000_000_000;
    const events = await s.api(`/events/${big}`);
    expect([events.status, events.body.code]).toEqual([404, 'rest-event-not-found']);
    expect((await s.api(`/events/${big}`, { method: 'DELETE', as: 'admin' })).status).toBe(404);
    for (const path of [`/venues/${big}`, `/organizers/${big}`, `/categories/${big}`, `/tags/${big}`]) {
      const r = await s.api(path);
      expect([r.status, Object.keys(r.body.data.params)], path).toEqual([400, ['id']]);
    }
    for (const q of ['venue', 'organizer', 'include', 'post_parent', 'categories', 'tags']) {
      const r = await s.api(`/events?${q}=${big}`);
      expect([r.status, Object.keys(r.body.data.params)], q).toEqual([400, [q]]);
    }
    for (const path of [`/venues?event=${big}`, `/categories?parent=${big}`, `/tags?post=${big}`, `/tags?include=${big}`]) {
      expect((await s.api(path)).status, path).toBe(400);
    }
    const base = { title: 'Big IDs', start_date: '2026-12-05', end_date: '2026-12-05' };
    for (const [param, value] of [['venue', big], ['organizer', [big]], ['author', big], ['image', String(big)], ['venue', { id: big }]] as const) {
      const r = await s.api('/events', { method: 'POST', as: 'admin', body: { ...base, [param]: value } });
      expect([r.status, Object.keys(r.body.data.params)], param).toEqual([400, [param]]);
    }
    const ignored = await s.api('/events', { method: 'POST', as: 'admin', body: { ...base, categories: [big], tags: [String(big)] } });
    expect([ignored.status, ignored.body.categories, ignored.body.tags]).toEqual([201, [], []]);
    const venueAuthor = await s.api('/venues', { method: 'POST', as: 'admin', body: { venue: 'Big Author', author: big } });
    expect(Object.keys(venueAuthor.body.data.params)).toEqual(['author']);
    const parent = await s.api('/categories', { method: 'POST', as: 'admin', body: { name: 'Big Parent', parent: big } });
    expect(Object.keys(parent.body.data.params)).toEqual(['parent']);
  });

  it('NUL, invalid UTF-8 and nested arrays in bodies; wrong JSON types', async () => {
    const base = { title: 'Hostile', start_date: '2026-12-05 10:00', end_date: '2026-12-05 11:00' };
    const bodies: [string, unknown][] = [
      ['title', { ...base, title: 'a\u0000b' }],
      ['title', { ...base, title: ['a'] }],
      ['title', { ...base, title: { a: 1 } }],
      ['title', { ...base, title: 12 }],
      ['start_date', { ...base, start_date: [['2026-12-05']] }],
      ['all_day', { ...base, all_day: { x: true } }],
      ['cost', { ...base, cost: { a: '1' } }],
      ['venue', { ...base, venue: [[1]] }],
      ['organizer', { ...base, organizer: { organizer: ['x'] } }],
      ['categories', { ...base, categories: [{ a: 1 }] }],
      ['image', { ...base, image: true }],
    ];
    for (const [param, body] of bodies) {
      const r = await s.api('/events', { method: 'POST', as: 'admin', body });
      expect(r.status, `${JSON.stringify(body)} → ${r.text}`).toBe(400);
      expect(Object.keys(r.body.data?.params ?? {}), JSON.stringify(body)).toEqual([param]);
    }
    const utf8 = await s.api('/events', { method: 'POST', as: 'admin', headers: { 'Content-Type': 'application/json' }, body: Buffer.from('{"title":"\xff"}', 'latin1') });
    expect([utf8.status, utf8.body.data.json_error_code]).toEqual([400, 5]);
    const formBad = await s.api('/events', { method: 'POST', as: 'admin', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'title=%FF&start_date=2026-12-05&end_date=2026-12-05' });
    expect([formBad.status, Object.keys(formBad.body.data.params)]).toEqual([400, ['title']]);
    const deep = await s.api('/events', { method: 'POST', as: 'admin', headers: { 'Content-Type': 'application/json' }, body: '['.repeat(600) + ']'.repeat(600) });
    expect([deep.status, deep.body.code]).toEqual([400, 'rest_invalid_json']);
    const scalar = await s.api('/events', { method: 'POST', as: 'admin', body: JSON.stringify([1, 2]), headers: { 'Content-Type': 'application/json' } });
    expect([scalar.status, scalar.body.code]).toEqual([400, 'rest_missing_callback_param']);
  });

  it('an oversized body → 413', async () => {
    const big = JSON.stringify({ title: 'x'.repeat(2 * 1024 * 1024), start_date: '2026-12-05', end_date: '2026-12-05' });
    const r = await s.api('/events', { method: 'POST', as: 'admin', headers: { 'Content-Type': 'application/json' }, body: big });
    expect([r.status, r.body.code]).toEqual([413, 'rest_payload_too_large']);
  });
});
