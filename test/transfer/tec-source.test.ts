import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContext } from '../../src/services/context.ts';
import { defaultSiteSettings } from '../../src/server/config.ts';
import { importFromSource, type Summary } from '../../src/transfer/import.ts';
import { createProgress } from '../../src/transfer/progress.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

/** A fake The Events Calendar site answering `tribe/events/v1` lists with the recorded samples. */
const sample = (name: string) =>
  JSON.parse(readFileSync(new URL(`../fixtures/samples/${name}.json`, import.meta.url), 'utf8').split('cal/events/v1').join('tribe/events/v1')).response.body;
const LISTS: Record<string, unknown> = {
  events: sample('GET_events'),
  venues: sample('GET_venues'),
  organizers: sample('GET_organizers'),
  categories: sample('GET_categories'),
  tags: sample('GET_tags'),
};

let tec: http.Server;
let target: TestServer;
let summary: Summary;
const requested: string[] = [];

beforeAll(async () => {
  tec = http.createServer((req, res) => {
    requested.push(req.url!);
    const m = /^\/wp-json\/tribe\/events\/v1\/(\w+)\?/.exec(req.url!);
    const body = m && LISTS[m[1]];
    res.writeHead(body ? 200 : 404, { 'Content-Type': 'application/json; charset=UTF-8' });
    res.end(JSON.stringify(body ?? { code: 'rest_no_route', message: 'No route was found matching the URL and request method.', data: { status: 404 } }));
  });
  await new Promise<void>((resolve) => tec.listen(0, '127.0.0.1', resolve));
  target = await startTestServer({ now: null });
  const root = `http://127.0.0.1:${(tec.address() as AddressInfo).port}/wp-json/tribe/events/v1`;
  summary = await importFromSource(createContext({ prisma: target.db.prisma, settings: defaultSiteSettings }), { from: root }, createProgress({ write: () => true }, true));
}, 120_000);
afterAll(async () => {
  tec?.close();
  await target?.close();
});

describe('import from The Events Calendar (tribe/events/v1 samples)', { timeout: 60_000 }, () => {
  it('asks for every list 50 a page, over the whole date range', () => {
    const events = requested.find((u) => u.startsWith('/wp-json/tribe/events/v1/events?'))!;
    expect(events).toContain('per_page=50');
    expect(events).toContain('start_date=1900-01-01');
    expect(requested.some((u) => u.startsWith('/wp-json/tribe/events/v1/categories?') && u.includes('hide_empty=false'))).toBe(true);
  });

  it('reads events, venues, organizers and terms as the plugin shapes them', async () => {
    const source = LISTS as Record<string, any>;
    expect(summary.kinds.events.created).toBe(source.events.events.length);
    expect(summary.kinds.venues.created).toBe(source.venues.venues.length);
    expect(summary.kinds.organizers.created).toBe(source.organizers.organizers.length);
    expect(summary.kinds.categories.created).toBe(source.categories.categories.length);
    for (const e of source.events.events) {
      const local = (await target.api(`/events/${e.id}`, { as: 'admin' })).body;
      for (const key of ['id', 'title', 'slug', 'status', 'date', 'date_utc', 'modified', 'modified_utc', 'description', 'excerpt', 'all_day', 'start_date', 'end_date', 'utc_start_date', 'utc_end_date', 'timezone', 'cost', 'cost_details', 'featured', 'sticky', 'hide_from_listings', 'show_map', 'show_map_link']) {
        expect(local[key], `event ${e.id} ${key}`).toEqual(e[key]);
      }
      // venue: an object (one) or a list; categories with their parent
      const venueIds = (v: any) => (Array.isArray(v) ? v : [v]).map((x: { id: number }) => x.id);
      expect(venueIds(local.venue), `event ${e.id} venue`).toEqual(venueIds(e.venue));
      expect(local.organizer.map((o: { id: number }) => o.id)).toEqual(e.organizer.map((o: { id: number }) => o.id));
      const terms = (list: { id: number; parent: number; slug: string }[]) => list.map((c) => [c.id, c.parent, c.slug]).sort();
      const known = new Set(source.categories.categories.map((c: { id: number }) => c.id));
      expect(terms(local.categories)).toEqual(terms(e.categories.filter((c: { id: number }) => known.has(c.id))));
    }
    const jazz = (await target.api('/categories/3')).body;
    expect(jazz.parent).toBe(2);
  });
});
