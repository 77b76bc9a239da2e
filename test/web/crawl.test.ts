/**
 * Every URL the API hands out and every URL of The Events Calendar's view scheme answers 200 or a
 * redirect, on a seeded calendar: the `url`/`link` fields of events, venues, organizers, categories
 * and tags, the sitemap's entries, the feeds, TEC's views with their query forms and language
 * variants, and, crawling on from those, every link the pages themselves hold (same host).
 */
import { describe, expect, it } from 'vitest';
import { seedCalendar, type SeededCalendar } from '../helpers/calendar-seed.ts';
import { useTestServer, type TestServer } from '../helpers/server.ts';

let s: TestServer;
let cal: SeededCalendar;
useTestServer(async (server) => {
  s = server;
  cal = await seedCalendar(s);
});

/** TEC's view URLs (its query forms and language variants included), relative to the site. */
function tecViews(): string[] {
  const views = [
    '/', '/events/', '/events/list/', '/events/month/', '/events/today/', '/events/2026-12/', '/events/2026-12-05/',
    '/events/month/2026-12/', '/events/list/?eventDisplay=past', '/events/?eventDisplay=past', '/events/?eventDisplay=month',
    '/events/?eventDisplay=list', '/events/?eventDisplay=day', '/events/list/?tribe-bar-date=2026-12-01', '/events/month/?tribe-bar-date=2026-12',
    '/events/?tribe-bar-search=concert', '/events/list/?tribe-bar-search=concert', '/events/list/?page=2',
    '/events/category/music/', '/events/category/music/jazz/', '/events/category/jazz/', '/events/category/jazz/month/', '/events/category/jazz/list/',
    '/events/category/music/month/', '/events/tag/live/', '/tag/live/', '/events/tag/live/month/', '/events/tag/live/list/',
    `/event/${cal.single.slug}/`, `/event/${cal.series.slug}/all/`, `/event/${cal.series.slug}/2026-12-08/`,
    `/venue/${cal.venue.slug}/`, `/organizer/${cal.organizer.slug}/`,
    `/?post_type=cal_events&p=${cal.single.id}`, `/?post_type=cal_venue&p=${cal.venue.id}`, `/?post_type=cal_organizer&p=${cal.organizer.id}`,
    '/?cal_events_cat=music', '/?tag=live',
    '/events.ics', '/?ical=1', '/events/?ical=1', '/events/list/?ical=1', '/events/category/music/?ical=1', '/tag/live/?ical=1',
    `/event/${cal.single.slug}.ics`, `/event/${cal.single.slug}/?ical=1`,
    '/sitemap.xml', '/robots.txt', '/favicon.ico', '/docs',
  ];
  return [...views, ...views.filter((v) => !v.includes('.ics') && !v.startsWith('/sitemap') && v !== '/robots.txt' && v !== '/favicon.ico' && v !== '/docs').map((v) => `/fr${v}`)];
}

describe('crawl', () => {
  it('every URL the API hands out and every URL of TEC\'s views answers 200 or a redirect, and so does every link on those pages', async () => {
    const origin = new URL(s.base).origin;
    const start = new Set<string>(tecViews().map((p) => s.base + p));
    for (let page = 1; ; page++) {
      const r = await s.api(`/events?start_date=2000-01-01&per_page=50&page=${page}`);
      if (r.status !== 200) break;
      for (const e of r.body.events) {
        start.add(e.url);
        if (e.venue?.url) start.add(e.venue.url);
        for (const o of e.organizer ?? []) start.add(o.url);
        for (const t of [...(e.categories ?? []), ...(e.tags ?? [])]) start.add(t.link ?? t.url);
      }
      if (page >= r.body.total_pages) break;
    }
    for (const kind of ['venues', 'organizers', 'categories', 'tags']) {
      const r = await s.api(`/${kind}?per_page=50`);
      for (const x of r.body[kind]) start.add(x.url ?? x.link);
      if (r.body.rest_url) start.add(r.body.rest_url);
    }
    const index = (await s.request('/sitemap.xml')).text;
    for (const file of index.matchAll(/<loc>([^<]+)<\/loc>/g)) {
      start.add(file[1]!);
      for (const loc of (await s.request(new URL(file[1]!).pathname)).text.matchAll(/<loc>([^<]+)<\/loc>/g)) start.add(loc[1]!.replace(/&amp;/g, '&'));
    }

    for (const u of start) if (typeof u !== 'string' || !u.startsWith('http')) start.delete(u);
    expect(start.size).toBeGreaterThan(100);
    const seen = new Set<string>();
    const bad: string[] = [];
    const queue = [...start];
    const LIMIT = 600;
    while (queue.length && seen.size < LIMIT) {
      const url = queue.shift()!;
      if (seen.has(url)) continue;
      seen.add(url);
      const r = await fetch(url, { redirect: 'manual' });
      const ok = r.status === 200 || (r.status >= 301 && r.status <= 308 && r.headers.get('location'));
      if (!ok) bad.push(`${r.status} ${url}`);
      const type = r.headers.get('content-type') ?? '';
      if (!type.startsWith('text/html')) {
        await r.arrayBuffer();
        continue;
      }
      const html = await r.text();
      for (const m of html.matchAll(/\shref="([^"]+)"/g)) {
        const href = new URL(m[1]!.replace(/&amp;/g, '&'), url);
        href.hash = '';
        // Same host only; the APIs' own links are covered by their suites.
        if (href.origin !== origin || /\/wp-json\/|\/graphql/.test(href.pathname)) continue;
        if (!seen.has(href.href)) queue.push(href.href);
      }
    }
    expect(bad).toEqual([]);
    expect(seen.size).toBeGreaterThan(100);
  }, 300_000);
});
