import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContext } from '../../src/services/context.ts';
import { defaultSiteSettings } from '../../src/server/config.ts';
import { importFromSource, type Summary } from '../../src/transfer/import.ts';
import { createProgress } from '../../src/transfer/progress.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { startTecSite, tecLists, type TecSite } from '../helpers/tec-site.ts';

let tec: TecSite;
let target: TestServer;
let summary: Summary;
/** The samples the site answers with, as read before the import. */
const LISTS = tecLists();

beforeAll(async () => {
  tec = await startTecSite(LISTS);
  target = await startTestServer({ now: null });
  summary = await importFromSource(createContext({ prisma: target.db.prisma, settings: defaultSiteSettings }), { from: tec.root }, createProgress({ write: () => true }, true));
}, 120_000);
afterAll(async () => {
  await tec?.close();
  await target?.close();
});

describe('import from The Events Calendar (tribe/events/v1 samples)', { timeout: 60_000 }, () => {
  it('asks for every list 50 a page, over the whole date range', () => {
    const events = tec.requested.find((u) => u.startsWith('/wp-json/tribe/events/v1/events?'))!;
    expect(events).toContain('per_page=50');
    expect(events).toContain('start_date=1900-01-01');
    expect(tec.requested.some((u) => u.startsWith('/wp-json/tribe/events/v1/categories?') && u.includes('hide_empty=false'))).toBe(true);
  });

  it('reads events, venues, organizers and terms as the plugin shapes them', async () => {
    const source = LISTS;
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
