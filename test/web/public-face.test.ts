import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ICAL from 'ical.js';
import SwaggerParser from '@apidevtools/swagger-parser';
// @ts-expect-error wpapi ships no type declarations
import WPAPI from 'wpapi';
import { startTestServer, type TestServer } from '../helpers/server.ts';

let s: TestServer;
const ids: Record<string, number> = {};

beforeAll(async () => {
  s = await startTestServer();
  const post = async (name: string, body: Record<string, unknown>) => {
    const r = await s.api('/events', { method: 'POST', as: 'admin', body });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    ids[name] = r.body.id;
  };
  // Crosses the New York DST change (2027-03-14 02:00).
  await post('dst', {
    title: 'Jazz <em>Night</em>',
    description: '<p>Live <strong>jazz</strong></p>',
    start_date: '2027-03-13 19:00',
    end_date: '2027-03-14 22:30',
    venue: { venue: 'Grand </script><script>alert(1)</script> Hall', address: '1 <img src=x onerror=alert(1)> St', city: 'Springfield' },
    organizer: { organizer: 'Ed & Co', email: 'ed@example.com' },
    categories: ['music'],
    tags: ['outdoor'],
  });
  // Another zone, across the European change (2027-03-28).
  await post('paris', { title: 'Paris Fair', start_date: '2027-03-27 22:00', end_date: '2027-03-28 10:00', timezone: 'Europe/Paris', categories: ['music'] });
  await post('allday', { title: 'Market', start_date: '2027-03-20', end_date: '2027-03-21', all_day: true, tags: ['outdoor'] });
  await post('draft', { title: 'Secret', start_date: '2027-03-22 10:00', end_date: '2027-03-22 11:00', status: 'draft' });
});
afterAll(async () => s?.close());

function parseFeed(text: string) {
  const root = new ICAL.Component(ICAL.parse(text));
  for (const tz of root.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(tz);
  return { root, events: root.getAllSubcomponents('vevent').map((v) => new ICAL.Event(v)) };
}
const utcMs = (sql: string) => Date.parse(`${sql.replace(' ', 'T')}Z`);

describe('iCal feeds', () => {
  it('/events.ics: every instant equals the REST API one, across DST changes; all-day as dates', async () => {
    const rest = await s.api('/events?start_date=2027-01-01&per_page=50');
    const feed = await s.request('/events.ics?start_date=2027-01-01');
    expect(feed.status).toBe(200);
    expect(feed.headers.get('content-type')).toMatch(/^text\/calendar/);
    const { root, events } = parseFeed(feed.text);
    expect(root.getFirstPropertyValue('x-wr-calname')).toBeTruthy();
    expect(root.getAllSubcomponents('vtimezone').map((z) => z.getFirstPropertyValue('tzid')).sort()).toEqual(['America/New_York', 'Europe/Paris']);
    expect(events.map((e) => e.uid).length).toBe(rest.body.events.length);
    for (const r of rest.body.events) {
      const e = events.find((x) => x.uid.startsWith(`cal-events-${r.id}@`));
      expect(e, `event ${r.id} in feed`).toBeTruthy();
      if (r.all_day) {
        expect(e!.startDate.isDate).toBe(true);
        expect(e!.startDate.toString()).toBe(r.start_date.slice(0, 10));
        expect(e!.endDate.toString()).toBe('2027-03-22'); // exclusive end: the day after the 21st
        expect(feed.text).toContain('DTSTART;VALUE=DATE:20270320');
      } else {
        expect(e!.startDate.toJSDate().getTime()).toBe(utcMs(r.utc_start_date));
        expect(e!.endDate.toJSDate().getTime()).toBe(utcMs(r.utc_end_date));
        expect(e!.startDate.zone.tzid).toBe(r.timezone);
      }
      expect(e!.component.getFirstPropertyValue('url')).toBe(r.url);
      expect((e!.component.getFirstPropertyValue('last-modified') as ICAL.Time).toJSDate().getTime()).toBe(utcMs(r.modified_utc));
    }
    const dst = events.find((x) => x.uid.startsWith(`cal-events-${ids.dst}@`))!;
    expect(dst.summary).toBe('Jazz Night');
    expect(dst.location).toContain('Springfield');
    expect(dst.component.getFirstProperty('organizer')!.getParameter('cn')).toBe('Ed & Co');
    expect(dst.component.getFirstProperty('categories')!.getValues()).toEqual(['music', 'outdoor']);
    // The DST change: 19:00 EST is 00:00Z, 22:30 EDT the next day is 02:30Z.
    expect(dst.startDate.toJSDate().toISOString()).toBe('2027-03-14T00:00:00.000Z');
    expect(dst.endDate.toJSDate().toISOString()).toBe('2027-03-15T02:30:00.000Z');
  });

  it('UIDs are stable across requests; the same filters as the REST list; anonymous sees only published', async () => {
    const a = parseFeed((await s.request('/events.ics?start_date=2027-01-01')).text).events.map((e) => e.uid);
    const b = parseFeed((await s.request('/events/?ical=1&start_date=2027-01-01')).text).events.map((e) => e.uid);
    expect(b).toEqual(a);
    expect(a.some((u) => u.startsWith(`cal-events-${ids.draft}@`))).toBe(false);
    const tagged = parseFeed((await s.request('/events.ics?start_date=2027-01-01&tags=outdoor')).text).events.map((e) => e.summary).sort();
    expect(tagged).toEqual(['Jazz Night', 'Market']);
    const drafts = await s.request('/events.ics?start_date=2027-01-01&status=draft', { as: 'admin' });
    expect(parseFeed(drafts.text).events.map((e) => e.summary)).toEqual(['Secret']);
    const anonDrafts = await s.request('/events.ics?status=draft');
    expect(anonDrafts.status).toBe(400);
    expect(anonDrafts.body.code).toBe('rest_invalid_param');
  });

  it('one event, category and tag feeds; ETag / Last-Modified answer 304', async () => {
    const one = await s.request('/event/jazz-night.ics');
    expect(parseFeed(one.text).events.map((e) => e.summary)).toEqual(['Jazz Night']);
    expect((await s.request('/event/jazz-night/?ical=1')).text).toBe(one.text);
    expect(parseFeed((await s.request('/events/category/music/?ical=1&start_date=2027-01-01')).text).events.map((e) => e.summary).sort()).toEqual(['Jazz Night', 'Paris Fair']);
    expect(parseFeed((await s.request('/tag/outdoor/?ical=1&start_date=2027-01-01')).text).events).toHaveLength(2);
    const etag = one.headers.get('etag')!;
    const lm = one.headers.get('last-modified')!;
    expect(etag).toMatch(/^"/);
    expect((await s.request('/event/jazz-night.ics', { headers: { 'If-None-Match': etag } })).status).toBe(304);
    expect((await s.request('/event/jazz-night.ics', { headers: { 'If-None-Match': `"other", W/${etag}` } })).status).toBe(304);
    expect((await s.request('/event/jazz-night.ics', { headers: { 'If-None-Match': '*' } })).status).toBe(304);
    expect((await s.request('/event/jazz-night.ics', { headers: { 'If-Modified-Since': lm } })).status).toBe(304);
    expect((await s.request('/event/jazz-night.ics', { headers: { 'If-None-Match': '"other"' } })).status).toBe(200);
    expect((await s.request('/event/no-such-event.ics')).status).toBe(400);
  });
});

describe('pages', () => {
  it('every url the APIs return answers (drafts: 404 for anonymous, 200 for an editor)', async () => {
    const urls = new Set<string>();
    const events = (await s.api('/events?start_date=2027-01-01', { as: 'admin' })).body.events;
    for (const e of events) {
      urls.add(e.url);
      if (e.venue?.url) urls.add(e.venue.url);
      for (const o of e.organizer ?? []) urls.add(o.url);
    }
    for (const kind of ['categories', 'tags', 'venues', 'organizers']) for (const t of (await s.api(`/${kind}`)).body[kind]) urls.add(t.url);
    const draftUrl = events.find((e: any) => e.id === ids.draft).url;
    expect(draftUrl).toContain('?post_type=cal_events&p=');
    for (const u of urls) {
      const path = new URL(u).pathname + new URL(u).search;
      const anon = await s.request(path);
      const admin = await s.request(path, { as: 'admin' });
      expect(admin.status, path).toBe(200);
      expect(anon.status, path).toBe(u === draftUrl ? 404 : 200);
      expect(anon.headers.get('content-type')).toMatch(/^text\/html/);
    }
  });

  it('/ lists upcoming events with links to the feeds, GraphiQL and the reference', async () => {
    const r = await s.request('/');
    expect(r.status).toBe(200);
    expect(r.text).toContain('href="' + s.base + '/event/jazz-night/"');
    for (const link of ['/events.ics', '/graphql', '/docs']) expect(r.text).toContain(`href="${s.base}${link}"`);
    expect(r.text).not.toContain('Secret');
  });

  it('event page: HTML fields as the REST API renders them, everything else escaped, JSON-LD of the REST record', async () => {
    const rest = (await s.api('/events/by-slug/jazz-night')).body;
    const r = await s.request('/event/jazz-night/');
    expect(r.text).toContain(`<h1>${rest.title}</h1>`);
    expect(r.text).toContain(`<div class="description">${rest.description}</div>`);
    expect(r.text).toContain('1 &lt;img src=x onerror=alert(1)&gt; St');
    expect(r.text).not.toContain('<img src=x');
    const ld = /<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(r.text)![1]!;
    expect(ld).not.toMatch(/<\/script/i);
    expect(JSON.parse(ld)).toMatchObject({ '@type': 'Event', name: 'Jazz Night', url: rest.url, startDate: rest.json_ld.startDate, endDate: rest.json_ld.endDate, location: { '@type': 'Place' }, organizer: { '@type': 'Organization', name: 'Ed & Co' } });
    // "Add to calendar": the event's own feed, as TEC links it (and /event/{slug}.ics serves the same).
    expect(r.text).toContain(`<a class="ics" href="${s.base}/event/jazz-night/?ical=1"`);
    expect(r.headers.get('x-content-type-options')).toBe('nosniff');
    expect(r.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(r.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(r.headers.get('referrer-policy')).toBeTruthy();
  });

  it('unknown addresses answer an HTML 404; language variants answer too', async () => {
    for (const p of ['/event/nope/', '/events/category/nope/', '/tag/nope/', '/venue/nope/', '/nothing-here']) {
      const r = await s.request(p);
      expect(r.status, p).toBe(404);
      expect(r.headers.get('content-type')).toMatch(/^text\/html/);
    }
    expect((await s.request('/wp-json/cal/events/v1/nothing')).body.code).toBe('rest_no_route');
    const fr = await s.request('/fr/event/jazz-night/');
    expect(fr.status).toBe(200);
    expect(fr.headers.get('link')).toBe(`<${s.base}/fr/wp-json/>; rel="https://api.w.org/"`);
  });

  it('/favicon.ico and the /docs assets come from this server; other /docs/ names are a 404', async () => {
    const icon = await fetch(`${s.base}/favicon.ico`);
    expect([icon.status, icon.headers.get('content-type')]).toEqual([200, 'image/x-icon']);
    const bytes = new Uint8Array(await icon.arrayBuffer());
    expect([...bytes.slice(0, 4)]).toEqual([0, 0, 1, 0]); // ICO header: reserved 0, type 1 (icon)
    for (const [path, type] of [['/docs/swagger-ui-bundle.js', 'application/javascript'], ['/docs/swagger-ui.css', 'text/css'], ['/docs/docs.js', 'application/javascript']]) {
      const r = await fetch(s.base + path);
      expect([r.status, r.headers.get('content-type')?.split(';')[0]], path).toEqual([200, type]);
      expect((await r.text()).length, path).toBeGreaterThan(100);
    }
    expect((await fetch(`${s.base}/docs/package.json`)).status).toBe(404);
    const docs = await s.request('/docs');
    expect(docs.status).toBe(200);
    expect(docs.text).toContain(`src="${s.base}/docs/swagger-ui-bundle.js"`);
    expect(docs.text).toContain(`data-url="${s.base}/wp-json/cal/events/v1/openapi.json"`);
  });
});

describe('discovery', () => {
  it('Link and the X-TEC-API headers on every page, GET and HEAD; archives point at a filtered root', async () => {
    const root = `${s.base}/wp-json/cal/events/v1/`;
    const cases: Array<[string, string]> = [
      ['/', root],
      ['/events/', `${root.slice(0, -1)}/events/`],
      ['/event/jazz-night/', `${root}events/${ids.dst}`],
      ['/events/category/music/', `${root}events/?categories=music`],
      ['/tag/outdoor/', `${root}events/?tags=outdoor`],
      // Without pretty permalinks, and the archives' feeds.
      ['/?cal_events_cat=music', `${root}events/?categories=music`],
      ['/?tag=outdoor', `${root}events/?tags=outdoor`],
      ['/events/category/music/?ical=1', `${root}events/?categories=music`],
      ['/tag/outdoor/?ical=1', `${root}events/?tags=outdoor`],
    ];
    for (const [path, apiRoot] of cases) {
      for (const method of ['GET', 'HEAD']) {
        const r = await s.request(path, { method });
        expect(r.status, `${method} ${path}`).toBe(200);
        expect(r.headers.get('link')).toBe(`<${s.base}/wp-json/>; rel="https://api.w.org/"`);
        expect(r.headers.get('x-tec-api-root')).toBe(apiRoot);
        expect(r.headers.get('x-tec-api-version')).toBe('v1');
        expect(r.headers.get('x-tec-api-origin')).toBe(s.base);
      }
    }
  });

  it('WPAPI.discover on the site root works', async () => {
    const site = await WPAPI.discover(s.base);
    const route = site.namespace('cal/events/v1');
    expect(typeof route.events).toBe('function');
    const list = await route.events().param('start_date', '2027-01-01');
    expect(list.events.map((e: { title: string }) => e.title)).toContain('Market');
  });
});

describe('OpenAPI 3.1', () => {
  it('validates, covers every route and method of the route tables, and leaves the namespace index alone', async () => {
    const r = await s.request('/wp-json/cal/events/v1/openapi.json');
    expect(r.status).toBe(200);
    const doc = r.body;
    expect(doc.openapi).toBe('3.1.0');
    await SwaggerParser.validate(structuredClone(doc));
    expect(Object.keys(doc.paths['/events']).sort()).toEqual(['get', 'post']);
    expect(Object.keys(doc.paths['/events/{id}']).sort()).toEqual(['delete', 'get', 'patch', 'post', 'put']);
    expect(Object.keys(doc.paths['/tags/{id}']).sort()).toEqual(['delete', 'get', 'patch', 'post', 'put']);
    expect(doc.paths['/events'].post.requestBody.content['application/json'].schema.required).toEqual(expect.arrayContaining(['title']));
    expect(Object.keys(doc.paths['/events'].get.responses['200'].headers)).toEqual(['X-TEC-Total', 'X-TEC-TotalPages']);
    const perPage = doc.paths['/events'].get.parameters.find((p: any) => p.name === 'per_page');
    expect(perPage.schema).toMatchObject({ default: 10 });
    expect(doc.components.securitySchemes.basic).toEqual(expect.objectContaining({ type: 'http', scheme: 'basic' }));
    expect(doc.servers.map((x: any) => x.url)).toContain(`${s.base}/fr/wp-json/cal/events/v1`);
    const index = (await s.api('/')).body;
    expect(Object.keys(index.routes).some((k) => k.includes('openapi'))).toBe(false);
    expect((await s.api('/doc')).body.openapi).toBe('3.0.0');
  });
});
