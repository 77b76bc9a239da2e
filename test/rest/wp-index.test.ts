import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWpTestServer, type WpTestServer } from '../helpers/wp-server.ts';
import { RESOURCE_ENDPOINTS } from '../../rest-facade/router.ts';
import { routeTable } from '../../rest-facade/resources/endpoint.ts';
import { wpResponse } from '../../rest-facade/wp/response.ts';
import { readSample } from '../helpers/samples.ts';

function sample(name: string): { request: any; response: { status: number; headers: [string, string][]; body: any } } {
  return readSample(name);
}

/** Recursively list key paths in order (arrays by index) — structure without values. */
function shape(v: unknown, path = ''): string[] {
  if (Array.isArray(v)) return [`${path}[]`, ...v.flatMap((x, i) => shape(x, `${path}[${i}]`))];
  if (v && typeof v === 'object') return Object.entries(v).flatMap(([k, x]) => [`${path}.${k}`, ...shape(x, `${path}.${k}`)]);
  return [];
}

const stubRoutes = routeTable(RESOURCE_ENDPOINTS, (e, route) => ({ methods: e.methods, args: route.args, handler: () => wpResponse({ stub: `${e.methods[0]} ${route.path}` }) }));
// The clock of the sample: start_date default "2026-11-20 18:59:00", end_date "2028-11-21 12:12:40".
const SAMPLE_NOW = new Date('2026-11-21T12:12:40Z');

let srv: WpTestServer; // siteUrl with port, fixed clock
let noPort: WpTestServer; // siteUrl without port (the doc sample dropped it)
let live: WpTestServer; // live clock
beforeAll(async () => {
  srv = await startWpTestServer({ routes: stubRoutes, siteUrl: 'http://localhost:8080', now: () => SAMPLE_NOW });
  noPort = await startWpTestServer({ routes: stubRoutes, siteUrl: 'http://localhost' });
  live = await startWpTestServer({ routes: stubRoutes, siteUrl: 'http://localhost:8080', settings: { postsPerPage: 12 } });
});
afterAll(async () => {
  await Promise.all([srv.close(), noPort.close(), live.close()]);
});

/** The recorded sample `name` and the JSON body `server` answers at `path`, with its response (checked to be a 200). */
async function againstSample(name: string, server: WpTestServer, path: string) {
  const s = sample(name);
  const r = await server.fetch(path);
  expect(r.status).toBe(200);
  return { s, r, body: await r.json() };
}

describe('namespace index (§9.1) vs samples/GET_index.json', () => {
  it('is identical to the sample, key order included', async () => {
    const { s, body } = await againstSample('GET_index.json', srv, '/wp-json/cal/events/v1/');
    expect(Object.keys(body.routes)).toEqual(Object.keys(s.response.body.routes));
    for (const key of Object.keys(s.response.body.routes)) {
      const ours = body.routes[key];
      const theirs = s.response.body.routes[key];
      expect(ours.methods, key).toEqual(theirs.methods);
      expect(ours.endpoints.map((e: any) => e.methods), key).toEqual(theirs.endpoints.map((e: any) => e.methods));
      theirs.endpoints.forEach((e: any, i: number) => {
        const mine = ours.endpoints[i];
        if (Array.isArray(e.args)) expect(mine.args, key).toEqual([]);
        else {
          expect(Object.keys(mine.args), `${key} ${e.methods}`).toEqual(Object.keys(e.args));
          for (const [an, a] of Object.entries(e.args)) {
            expect(JSON.stringify(mine.args[an]), `${key} ${e.methods} ${an}`).toBe(JSON.stringify(a));
          }
        }
      });
      expect(ours._links, key).toEqual(theirs._links);
    }
    expect(JSON.stringify(body)).toBe(JSON.stringify(s.response.body));
  });

  it('sends the sample headers (plus the REC expose list)', async () => {
    const s = sample('GET_index.json');
    const r = await srv.fetch('/wp-json/cal/events/v1/', { headers: { Accept: 'application/json' } });
    for (const [name, value] of s.response.headers) {
      if (['Server', 'Transfer-Encoding'].includes(name)) continue;
      if (name === 'Access-Control-Expose-Headers') {
        expect(r.headers.get(name)).toBe(`${value}, X-TEC-Total, X-TEC-TotalPages`);
        continue;
      }
      expect(r.headers.get(name), name).toBe(value);
    }
  });

  it('computes dynamic defaults live from the settings and the clock', async () => {
    const body = await (await live.fetch('/wp-json/cal/events/v1')).json();
    const args = body.routes['/cal/events/v1/events'].endpoints[0].args;
    expect(args.per_page.default).toBe('12');
    expect(args.start_date.default).toMatch(/^\d{4}-\d\d-\d\d \d\d:59:00$/);
    expect(args.end_date.default).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect(Number(args.end_date.default.slice(0, 4)) - new Date().getUTCFullYear()).toBe(2);
    expect(body.routes['/cal/events/v1/venues'].endpoints[0].args.per_page.default).toBe('12');
  });

  it('hidden args (password) are accepted but not listed', async () => {
    const body = await (await srv.fetch('/wp-json/cal/events/v1')).json();
    expect(body.routes['/cal/events/v1/events/(?P<id>\\d+)'].endpoints[0].args.password).toBeUndefined();
    const r = await srv.fetch('/wp-json/cal/events/v1/events/8?password=secret');
    expect(r.status).toBe(200);
  });

  it('translates descriptions in language variants, same structure', async () => {
    const en = await (await srv.fetch('/wp-json/cal/events/v1')).json();
    const fr = await (await srv.fetch('/fr/wp-json/cal/events/v1')).json();
    expect(shape(fr)).toEqual(shape(en));
    expect(fr.routes['/cal/events/v1/events'].endpoints[0].args.page.description).toBe('La page d’archive à renvoyer');
    expect(fr._links.up[0].href).toBe('http://localhost:8080/fr/wp-json/');
  });

  it('the stub routes answer the sample error cases of the framework', async () => {
    const abc = sample('GET_events_400_per_page_abc.json');
    const r1 = await srv.fetch(abc.request.url);
    expect(r1.status).toBe(400);
    expect(await r1.json()).toEqual(abc.response.body);
    const zero = sample('GET_events_400_per_page_0.json');
    expect(await (await srv.fetch(zero.request.url)).json()).toEqual(zero.response.body);
    const bool = sample('POST_venues_400_show_map_boolean.json');
    const r2 = await srv.fetch(bool.request.url, { method: 'POST', body: JSON.stringify(bool.request.body), headers: { 'Content-Type': 'application/json' } });
    expect(await r2.json()).toEqual(bool.response.body);
    const bad = sample('POST_events_400_invalid_json.json');
    const r3 = await srv.fetch(bad.request.url, { method: 'POST', body: bad.request.body, headers: { 'Content-Type': 'application/json' } });
    expect(await r3.json()).toEqual(bad.response.body);
    const miss = sample('POST_events_400_missing_title.json');
    const r4 = await srv.fetch(miss.request.url, { method: 'POST', body: JSON.stringify(miss.request.body), headers: { 'Content-Type': 'application/json' } });
    expect(await r4.json()).toEqual(miss.response.body);
    const nr = sample('GET_404_no_route.json');
    const r5 = await srv.fetch(nr.request.url);
    expect(r5.status).toBe(404);
    expect(await r5.json()).toEqual(nr.response.body);
  });
});

describe('GET /doc (§9.2) vs samples/GET_doc.json', () => {
  it('is identical to the sample (host without port), key order included', async () => {
    const { s, r, body } = await againstSample('GET_doc.json', noPort, '/wp-json/cal/events/v1/doc');
    expect(Object.keys(body)).toEqual(['openapi', 'info', 'components', 'servers', 'paths']);
    expect(shape(body)).toEqual(shape(s.response.body));
    expect(JSON.stringify(body)).toBe(JSON.stringify(s.response.body));
    expect(r.headers.get('allow')).toBe('GET');
  });

  it('keeps the port and the language prefix in servers[0].url; translates descriptions', async () => {
    const a = await (await srv.fetch('/wp-json/cal/events/v1/doc')).json();
    expect(a.servers).toEqual([{ url: 'http://localhost:8080/wp-json/cal/events/v1/' }]);
    const de = await (await srv.fetch('/de/wp-json/cal/events/v1/doc/')).json();
    expect(de.servers).toEqual([{ url: 'http://localhost:8080/de/wp-json/cal/events/v1/' }]);
    expect(shape(de)).toEqual(shape(a));
    expect(de.info.description).toBe(
      'Die REST-API von The Events Calendar ermöglicht einen einfachen und bequemen Zugriff auf Informationen zu bevorstehenden Veranstaltungen.',
    );
    expect(de.paths['/events'].get.parameters[0].description).toBe('Die zurückzugebende Archivseite');
  });
});
