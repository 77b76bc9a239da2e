// The calendar views on a real server: month, list and day views, their category/tag
// scopes and TEC's query forms, each checked against what the REST API lists.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';

let s: TestServer;
const ids: Record<string, number> = {};
let weekly: number[] = [];

interface RestEvent {
  id: number;
  title: string;
  start_date: string;
  end_date: string;
  all_day: boolean;
}

beforeAll(async () => {
  // Site zone America/New_York (test helper); clock 2026-11-21 07:12 there.
  s = await startTestServer();
  const music = await s.create('/categories', { name: 'Music', slug: 'music' });
  await s.create('/categories', { name: 'Jazz', slug: 'jazz', parent: music.id });
  const post = async (name: string, body: Record<string, unknown>) => {
    ids[name] = (await s.create('/events', body)).id;
  };
  await post('jazz', { title: 'Jazz Night', start_date: '2026-12-05 19:00', end_date: '2026-12-05 22:00', categories: ['jazz'], tags: ['outdoor'] });
  await post('fair', { title: 'Winter Fair', start_date: '2026-12-10 10:00', end_date: '2026-12-12 18:00' });
  await post('market', { title: 'Market', start_date: '2026-12-20', end_date: '2026-12-21', all_day: true });
  await post('late', { title: 'Late Show', start_date: '2026-12-18 22:00', end_date: '2026-12-19 00:00' });
  for (let i = 1; i <= 5; i++) await post(`busy${i}`, { title: `Busy ${i}`, start_date: `2026-12-15 0${i + 2}:00`, end_date: `2026-12-15 0${i + 2}:30` });
  await post('past', { title: 'Autumn Talk', start_date: '2026-11-01 18:00', end_date: '2026-11-01 19:00' });
  await post('draft', { title: 'Secret', start_date: '2026-12-06 10:00', end_date: '2026-12-06 11:00', status: 'draft' });
  const r = await s.graphql(
    `mutation($input: CreateEventInput!) { createEvent(input: $input) { ... on CreateEventSuccess { event { databaseId occurrences { databaseId } } } ... on Error { message } } }`,
    { input: { title: 'Weekly Class', startDate: '2026-12-01 18:00:00', endDate: '2026-12-01 19:00:00', timezone: 'America/New_York', recurrence: { rule: 'FREQ=WEEKLY;COUNT=4' } } },
    'admin',
  );
  weekly = r.data.createEvent.event.occurrences.map((o: { databaseId: number }) => o.databaseId);
  expect(weekly).toHaveLength(4);
}, 120_000);
afterAll(async () => s?.close());

/** Every December event as the REST API lists it (nothing spans beyond the month but the series). */
async function restDecember(query = ''): Promise<RestEvent[]> {
  const r = await s.api(`/events?start_date=2026-11-25&end_date=2027-01-10&per_page=50${query}`);
  expect(r.status).toBe(200);
  return r.body.events;
}

/** The days (`YYYY-MM-DD`) an event of the REST API spans (midnight cutoff: an end at 00:00 is the day before). */
function spannedDays(e: RestEvent): string[] {
  const first = e.start_date.slice(0, 10);
  let last = e.end_date.slice(0, 10);
  if (!e.all_day && e.end_date.slice(11) === '00:00:00' && last > first) last = new Date(Date.parse(`${last}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
  const out: string[] = [];
  for (let d = Date.parse(`${first}T00:00:00Z`); d <= Date.parse(`${last}T00:00:00Z`); d += 86_400_000) out.push(new Date(d).toISOString().slice(0, 10));
  return out;
}

/** IDs of the events a fragment of a page links (`/event/{slug}/` or `?p=`), in page order, via their titles. */
const eventLinks = (html: string) => [...html.matchAll(/<a (?:[a-z-]+="[^"]*" )*href="[^"]*\/event\/([^/"]+)\/">/g)].map((m) => m[1]!);
/** Each event a page links, once, in the order it first links them (a month lists an event in each cell and below the grid). */
const eventsLinked = (html: string) => [...new Set(eventLinks(html))];

/** Cells of a month grid: date → { event slugs, bars drawn in the cell (slug → days spanned) }. */
function monthCells(html: string) {
  const cells = new Map<string, { slugs: string[]; bars: Record<string, number>; inMonth: boolean; today: boolean }>();
  const body = html.slice(html.indexOf('<tbody>'), html.indexOf('</tbody>'));
  for (const part of body.split('<td ').slice(1)) {
    const date = /\/(\d{4}-\d{2}-\d{2})\//.exec(part)![1]!;
    const bars = Object.fromEntries([...part.matchAll(/<li class="slot bar span-(\d)[^"]*"><a href="[^"]*\/event\/([^/"]+)\/">/g)].map((m) => [m[2]!, Number(m[1])]));
    cells.set(date, { slugs: eventLinks(part), bars, inMonth: !part.includes('other-month'), today: part.includes('aria-current="date"') });
  }
  return cells;
}

const slugOf = async (id: number) => (await s.api(`/events/${id}`)).body.slug as string;
const linkRel = (html: string, rel: string) => new RegExp(`<link rel="${rel}" href="([^"]+)">`).exec(html)?.[1];
const pathOf = (url: string) => url.replace(s.base, '').replaceAll('&amp;', '&');

describe('month view', () => {
  it('puts every event on every day it spans, as the REST API dates them; a multi-day event is one bar over its days', async () => {
    const page = await s.request('/events/2026-12/');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const cells = monthCells(page.text);
    // Monday-first weeks from 2026-11-30 to 2027-01-03.
    expect([...cells.keys()][0]).toBe('2026-11-30');
    expect([...cells.keys()].at(-1)).toBe('2027-01-03');
    const expected = new Map<string, Set<string>>();
    for (const e of await restDecember()) {
      const slug = await slugOf(e.id);
      for (const day of spannedDays(e)) {
        if (!expected.has(day)) expected.set(day, new Set());
        expected.get(day)!.add(slug);
      }
    }
    // Every event of every day, none hidden behind a "more" link.
    for (const [date, cell] of cells) expect(new Set(cell.slugs), date).toEqual(expected.get(date) ?? new Set<string>());
    expect(page.text).not.toContain('class="more"');
    // Multi-day, all-day, a late show ending at midnight, every occurrence of the series, the busy day.
    for (const d of ['2026-12-10', '2026-12-11', '2026-12-12']) expect(cells.get(d)!.slugs).toContain('winter-fair');
    // Thursday to Saturday: one bar drawn on its first day, three days wide; the other days only name it (for screen readers).
    expect(cells.get('2026-12-10')!.bars).toEqual({ 'winter-fair': 3 });
    expect([cells.get('2026-12-11')!.bars, cells.get('2026-12-12')!.bars]).toEqual([{}, {}]);
    for (const d of ['2026-12-20', '2026-12-21']) expect(cells.get(d)!.slugs).toContain('market');
    // Sunday to Monday: a bar in each week row.
    expect([cells.get('2026-12-20')!.bars, cells.get('2026-12-21')!.bars]).toEqual([{ market: 1 }, { market: 1 }]);
    expect(cells.get('2026-12-19')!.slugs).not.toContain('late-show');
    const classes = await Promise.all(weekly.map(slugOf));
    for (const d of ['2026-12-01', '2026-12-08', '2026-12-15', '2026-12-22']) expect(cells.get(d)!.slugs.some((x) => classes.includes(x)), d).toBe(true);
    expect(cells.get('2026-12-15')!.slugs).toHaveLength(6);
    expect(page.text).not.toContain('Secret');
  });

  it('is an accessible table with previous/next month links; TEC URL forms and query forms give the same grid', async () => {
    const page = await s.request('/events/2026-12/');
    expect(page.text).toMatch(/<html lang="en">/);
    expect(page.text).toContain('<table class="month">');
    expect(page.text).toContain('<caption>December 2026</caption>');
    expect(page.text.match(/<th scope="col" abbr="[A-Za-z]+day">/g)).toHaveLength(7);
    expect(page.text).toContain('<label for="bar-search">');
    expect(linkRel(page.text, 'prev')).toBe(`${s.base}/events/2026-11/`);
    expect(linkRel(page.text, 'next')).toBe(`${s.base}/events/2027-01/`);
    const next = await s.request(pathOf(linkRel(page.text, 'next')!));
    expect(next.status).toBe(200);
    expect(next.text).toContain('<caption>January 2027</caption>');
    for (const path of ['/events/month/2026-12/', '/events/month/?tribe-bar-date=2026-12-05', '/events/?eventDisplay=month&tribe-bar-date=2026-12']) {
      const other = await s.request(path);
      expect(other.status, path).toBe(200);
      expect(monthCells(other.text), path).toEqual(monthCells(page.text));
    }
    // The current month marks today (2026-11-21 in the site's zone).
    const current = await s.request('/events/month/');
    expect(current.text).toContain('<caption>November 2026</caption>');
    expect([...monthCells(current.text)].filter(([, c]) => c.today).map(([d]) => d)).toEqual(['2026-11-21']);
  });
});

describe('list view', () => {
  it('lists upcoming events as the REST API does, paged with rel=prev/next and visible links', async () => {
    const rest1 = (await s.api('/events')).body;
    const rest2 = (await s.api('/events?page=2')).body;
    expect(rest1.total_pages).toBe(2);
    const page1 = await s.request('/events/list/');
    expect(page1.status).toBe(200);
    const slugs1 = await Promise.all(rest1.events.map((e: RestEvent) => slugOf(e.id)));
    expect(eventLinks(page1.text)).toEqual(slugs1);
    for (const path of ['/events/', '/']) expect(eventLinks((await s.request(path)).text), path).toEqual(slugs1);
    expect(linkRel(page1.text, 'prev')).toBeUndefined();
    expect(linkRel(page1.text, 'next')).toBe(`${s.base}/events/list/page/2/`);
    expect(page1.text).toContain(`<a rel="next" href="${s.base}/events/list/page/2/">`);
    const page2 = await s.request('/events/list/page/2/');
    expect(eventLinks(page2.text)).toEqual(await Promise.all(rest2.events.map((e: RestEvent) => slugOf(e.id))));
    expect(linkRel(page2.text, 'prev')).toBe(`${s.base}/events/list/`);
    expect(linkRel(page2.text, 'next')).toBeUndefined();
    expect(eventLinks((await s.request('/events/?page=2')).text)).toEqual(eventLinks(page2.text));
    expect((await s.request('/events/list/page/3/')).status).toBe(404);
  });

  it('past events latest first with eventDisplay=past; search and date from the bar', async () => {
    for (const path of ['/events/list/?eventDisplay=past', '/events/?eventDisplay=past']) {
      const past = await s.request(path);
      expect(past.status, path).toBe(200);
      expect(eventLinks(past.text), path).toEqual(['autumn-talk']);
    }
    const search = await s.request('/events/?tribe-bar-search=jazz');
    expect(eventLinks(search.text)).toEqual(['jazz-night']);
    expect(search.text).toContain('value="jazz"');
    const rest = (await s.api('/events?start_date=2026-12-18')).body.events;
    const from = await s.request('/events/list/?tribe-bar-date=2026-12-18');
    expect(eventLinks(from.text)).toEqual(await Promise.all(rest.map((e: RestEvent) => slugOf(e.id))));
  });
});

describe('day view', () => {
  it('shows every event on the day, as the REST API dates them, with previous/next day', async () => {
    const all = await restDecember();
    for (const day of ['2026-12-11', '2026-12-15', '2026-12-21']) {
      const page = await s.request(`/events/${day}/`);
      expect(page.status, day).toBe(200);
      const want = await Promise.all(all.filter((e) => spannedDays(e).includes(day)).map((e) => slugOf(e.id)));
      expect(eventLinks(page.text).sort(), day).toEqual(want.sort());
    }
    const page = await s.request('/events/2026-12-11/');
    expect(linkRel(page.text, 'prev')).toBe(`${s.base}/events/2026-12-10/`);
    expect(linkRel(page.text, 'next')).toBe(`${s.base}/events/2026-12-12/`);
    expect(eventLinks((await s.request('/events/?eventDisplay=day&tribe-bar-date=2026-12-05')).text)).toEqual(['jazz-night']);
    expect(eventLinks((await s.request('/events/day/2026-12-05/')).text)).toEqual(['jazz-night']);
    const today = await s.request('/events/today/');
    expect(today.status).toBe(200);
    expect(linkRel(today.text, 'next')).toBe(`${s.base}/events/2026-11-22/`);
  });
});

describe('category and tag scopes', () => {
  it('a parent category lists the events of its children, in every view and its feed', async () => {
    const rest = (await s.api('/events?categories=music')).body.events;
    expect(rest.map((e: RestEvent) => e.id)).toEqual([ids.jazz]);
    const archive = await s.request('/events/category/music/');
    expect(archive.status).toBe(200);
    expect(eventLinks(archive.text)).toEqual(['jazz-night']);
    expect(archive.headers.get('x-tec-api-root')).toBe(`${s.base}/wp-json/cal/events/v1/events/?categories=music`);
    const feed = await s.request('/events/category/music/?ical=1');
    expect(feed.status).toBe(200);
    expect(feed.text).toContain('SUMMARY:Jazz Night');
    for (const path of ['/events/category/music/2026-12/', '/events/category/jazz/month/2026-12/', '/events/category/music/jazz/2026-12/']) {
      const month = await s.request(path);
      expect(month.status, path).toBe(200);
      expect(eventsLinked(month.text), path).toEqual(['jazz-night']);
    }
    expect(eventLinks((await s.request('/events/category/jazz/2026-12-05/')).text)).toEqual(['jazz-night']);
    expect(eventLinks((await s.request('/events/category/jazz/list/')).text)).toEqual(['jazz-night']);
    expect(eventLinks((await s.request('/?tribe_eventcategory=music')).text)).toEqual(['jazz-night']);
    expect(eventLinks((await s.request('/?cal_events_cat=music')).text)).toEqual(['jazz-night']);
  });

  it('tag scopes: /events/tag/{slug}/ with its views, /tag/{slug}/', async () => {
    for (const path of ['/events/tag/outdoor/', '/events/tag/outdoor/list/', '/events/tag/outdoor/2026-12/', '/tag/outdoor/', '/?tag=outdoor']) {
      const r = await s.request(path);
      expect(r.status, path).toBe(200);
      expect(eventsLinked(r.text), path).toEqual(['jazz-night']);
    }
  });
});

describe('addresses', () => {
  it('nonsense dates, pages and terms are an HTML 404; other plain-permalink forms answer', async () => {
    for (const path of [
      '/events/2026-13/',
      '/events/2026-02-30/',
      '/events/month/2026-00/',
      '/events/list/page/0/',
      '/events/list/page/x/',
      '/events/nothing/',
      '/events/?tribe-bar-date=soon',
      '/events/?eventDisplay=week',
      '/events/category/nope/',
      '/events/category/music/2026-13/',
      '/events/tag/nope/list/',
    ]) {
      const r = await s.request(path);
      expect(r.status, path).toBe(404);
      expect(r.headers.get('content-type'), path).toMatch(/^text\/html/);
    }
    for (const path of ['/?post_type=tribe_events', '/?post_type=tribe_events&eventDisplay=month', '/events/past/', '/events/upcoming/']) {
      expect((await s.request(path)).status, path).toBe(200);
    }
  });

  it('views send the security and discovery headers; language variants set lang', async () => {
    for (const path of ['/events/2026-12/', '/events/list/', '/events/2026-12-05/']) {
      const r = await s.request(path);
      expect(r.headers.get('content-security-policy'), path).toContain("script-src 'self'");
      expect(r.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(r.headers.get('link'), path).toBe(`<${s.base}/wp-json/>; rel="https://api.w.org/"`);
      expect(r.headers.get('x-tec-api-root'), path).toBe(`${s.base}/wp-json/cal/events/v1/events/`);
      expect(r.text, path).not.toMatch(/<script>(?!<\/script>)/);
    }
    const fr = await s.request('/fr/events/2026-12/');
    expect(fr.status).toBe(200);
    expect(fr.text).toContain('<html lang="fr">');
    expect(fr.text).toContain('décembre 2026');
    const script = await s.request('/assets/views.js');
    expect([script.status, script.headers.get('content-type')]).toEqual([200, 'application/javascript; charset=utf-8']);
  });
});

describe('head: OpenGraph, Twitter and the JSON-LD ItemList of each view', () => {
  interface ListItem {
    '@type': string;
    position: number;
    url: string;
    item: Record<string, unknown> & { url: string; name: string; startDate: string; endDate: string; location: { '@type': string; name?: string } };
  }
  const decode = (text: string) => text.replaceAll('&amp;', '&').replaceAll('&quot;', '"').replaceAll('&#039;', "'");
  const meta = (html: string, key: string) => {
    const m = new RegExp(`<meta (?:property|name)="${key}" content="([^"]*)">`).exec(html);
    return m ? decode(m[1]!) : undefined;
  };
  const ldBlocks = (html: string) => [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
  const slugFromUrl = (url: string) => /\/event\/([^/]+)\/$/.exec(url)![1]!;
  /** What the REST API says of each event (single reads carry `json_ld`), by its page URL. */
  const restByUrl = new Map<string, { title: string; json_ld: Record<string, unknown>; venue?: unknown }>();
  async function restOf(url: string) {
    if (!restByUrl.has(url)) {
      const all = (await s.api('/events?start_date=2000-01-01&end_date=2100-01-01&per_page=50')).body.events as { id: number; url: string }[];
      const id = all.find((e) => e.url === url.replace(`${s.base}/fr/`, `${s.base}/`))?.id;
      expect(id, `${url} in the API`).toBeDefined();
      restByUrl.set(url, (await s.api(`/events/${id}`)).body);
    }
    return restByUrl.get(url)!;
  }
  /** The JSON-LD of an event's own page. */
  const pageLd = new Map<string, Record<string, unknown>>();
  async function eventPageLd(url: string) {
    if (!pageLd.has(url)) pageLd.set(url, JSON.parse(ldBlocks((await s.request(pathOf(url))).text)[0]!));
    return pageLd.get(url)!;
  }

  /**
   * Opens a view and checks its head: canonical and language links, description, OpenGraph and
   * Twitter tags, and one JSON-LD ItemList whose items are exactly the events the view links, in its
   * order, each the schema.org Event of its page with the dates the REST API gives it.
   */
  async function checkHead(path: string, want: { canonical: string; title: string; description: string; locale?: string; lang?: string }) {
    const r = await s.request(path);
    expect(r.status, path).toBe(200);
    const home = `${s.base}${want.lang ? `/${want.lang}` : ''}`;
    const canonical = home + want.canonical;
    expect(decode(linkRel(r.text, 'canonical') ?? ''), path).toBe(canonical);
    expect(r.text, path).toContain(`<link rel="alternate" hreflang="en" href="${s.base}${want.canonical.replaceAll('&', '&amp;')}">`);
    expect(r.text, path).toContain(`<link rel="alternate" hreflang="fr" href="${s.base}/fr${want.canonical.replaceAll('&', '&amp;')}">`);
    expect(r.text, path).toContain(`<link rel="alternate" hreflang="x-default" href="${s.base}${want.canonical.replaceAll('&', '&amp;')}">`);
    expect(
      {
        type: meta(r.text, 'og:type'),
        title: meta(r.text, 'og:title'),
        url: meta(r.text, 'og:url'),
        siteName: meta(r.text, 'og:site_name'),
        locale: meta(r.text, 'og:locale'),
        description: meta(r.text, 'og:description'),
        metaDescription: meta(r.text, 'description'),
        card: meta(r.text, 'twitter:card'),
        twitterTitle: meta(r.text, 'twitter:title'),
      },
      path,
    ).toEqual({
      type: 'website',
      title: want.title,
      url: canonical,
      siteName: 'cal-events',
      locale: want.locale ?? 'en_US',
      description: want.description,
      metaDescription: want.description,
      card: 'summary',
      twitterTitle: want.title,
    });
    expect(r.text, path).toContain(`<title>${want.title.replaceAll('&', '&amp;')} · cal-events</title>`);
    const blocks = ldBlocks(r.text);
    expect(blocks, path).toHaveLength(1);
    const list = JSON.parse(blocks[0]!) as { '@context': string; '@type': string; url: string; name: string; numberOfItems: number; itemListElement: ListItem[] };
    expect([list['@context'], list['@type'], list.url, list.name], path).toEqual(['https://schema.org', 'ItemList', canonical, want.title]);
    const items = list.itemListElement;
    expect(list.numberOfItems, path).toBe(items.length);
    // Exactly the events the view links (each once, in the order it first shows them).
    expect(items.map((i) => slugFromUrl(i.url)), path).toEqual(eventsLinked(r.text));
    for (const [n, i] of items.entries()) {
      expect(i['@type']).toBe('ListItem');
      expect(i.position, path).toBe((items[0]?.position ?? 1) + n);
      expect(i.item.url).toBe(i.url);
      // The event page's own Event (one builder), as far as a view selects it (no body, no organizer).
      const page = await eventPageLd(i.url);
      const fields = ['@type', 'name', 'url', 'startDate', 'endDate', 'eventStatus', 'eventAttendanceMode', 'location', 'image', 'offers'];
      expect(i.item, `${path} ${i.url}`).toMatchObject(Object.fromEntries(Object.entries(page).filter(([k]) => fields.includes(k))));
      expect(i.item, `${path} ${i.url}`).toMatchObject({ '@type': 'Event', eventStatus: 'https://schema.org/EventScheduled' });
      // And the REST API's dates (TEC writes an all-day event's as times of the day; the pages as dates).
      const rest = await restOf(i.url);
      for (const key of ['startDate', 'endDate'] as const) {
        if (i.item[key].length === 10) expect(String(rest.json_ld[key]).slice(0, 10), `${path} ${i.url} ${key}`).toBe(i.item[key]);
        else expect(i.item[key], `${path} ${i.url} ${key}`).toBe(rest.json_ld[key]);
      }
      expect(i.item.eventAttendanceMode).toBe(rest.json_ld.location ? 'https://schema.org/OfflineEventAttendanceMode' : 'https://schema.org/OnlineEventAttendanceMode');
    }
    return { text: r.text, items };
  }
  const restUrls = async (query: string) => ((await s.api(`/events${query}`)).body.events as { url: string }[]).map((e) => e.url);

  it('home, /events/ and the list pages: canonical per address, items = the API\'s events, positions go on counting on page 2', async () => {
    const home = await checkHead('/', { canonical: '/', title: 'Upcoming events', description: 'Upcoming events with their dates, times and venues.' });
    expect(home.items.map((i) => i.url)).toEqual(await restUrls(''));
    expect(home.items[0]!.position).toBe(1);
    const events = await checkHead('/events/', { canonical: '/events/', title: 'Events', description: 'Upcoming events with their dates, times and venues.' });
    expect(events.items.map((i) => i.url)).toEqual(await restUrls(''));
    await checkHead('/events/list/', { canonical: '/events/list/', title: 'Events', description: 'Upcoming events with their dates, times and venues.' });
    const page2 = await checkHead('/events/?page=2', { canonical: '/events/list/page/2/', title: 'Events · Page 2 of 2', description: 'Upcoming events with their dates, times and venues.' });
    expect(page2.items.map((i) => i.url)).toEqual(await restUrls('?page=2'));
    expect(page2.items[0]!.position).toBe(11);
    const past = await checkHead('/events/?eventDisplay=past', { canonical: '/events/list/?eventDisplay=past', title: 'Past events', description: 'Past events, latest first.' });
    expect(past.items.map((i) => slugFromUrl(i.url))).toEqual(['autumn-talk']);
  });

  it('month and day views: the events of the grid once each, the day\'s events as the API dates them', async () => {
    const month = await checkHead('/events/?eventDisplay=month&tribe-bar-date=2026-12', {
      canonical: '/events/2026-12/',
      title: 'Events for December 2026',
      description: 'Calendar of the events in December 2026.',
    });
    expect(month.items.length).toBeGreaterThan(8);
    const decemberUrls = new Set((await s.api('/events?start_date=2026-11-25&end_date=2027-01-10&per_page=50')).body.events.map((e: { url: string }) => e.url));
    for (const i of month.items) expect(decemberUrls.has(i.url), i.url).toBe(true);
    // Each occurrence of the series the grid shows is its own Event.
    const classes = await Promise.all(weekly.map(slugOf));
    expect(month.items.filter((i) => classes.includes(slugFromUrl(i.url))).map((i) => i.item.startDate.slice(0, 10))).toEqual(['2026-12-01', '2026-12-08', '2026-12-15', '2026-12-22']);
    const day = await checkHead('/events/2026-12-15/', { canonical: '/events/2026-12-15/', title: 'Events for Tuesday, December 15, 2026', description: 'The events of Tuesday, December 15, 2026, with their times and venues.' });
    const want = (await restDecember()).filter((e) => spannedDays(e).includes('2026-12-15'));
    expect(day.items.map((i) => i.item.name).sort()).toEqual(want.map((e) => e.title).sort());
    await checkHead('/events/today/', { canonical: '/events/today/', title: 'Events for Saturday, November 21, 2026', description: 'The events of Saturday, November 21, 2026, with their times and venues.' });
  });

  it('category and tag archives in each view, search results', async () => {
    const archive = await checkHead('/events/category/music/', {
      canonical: '/events/category/music/',
      title: 'Music',
      description: 'Events in the category Music. Upcoming events with their dates, times and venues.',
    });
    expect(archive.items.map((i) => i.url)).toEqual(await restUrls('?categories=music'));
    const child = await checkHead('/events/category/jazz/month/2026-12/', {
      canonical: '/events/category/music/jazz/2026-12/',
      title: 'Jazz · December 2026',
      description: 'Events in the category Jazz. Calendar of the events in December 2026.',
    });
    expect(child.items.map((i) => slugFromUrl(i.url))).toEqual(['jazz-night']);
    const tag = await checkHead('/events/tag/outdoor/2026-12-05/', {
      canonical: '/events/tag/outdoor/2026-12-05/',
      title: 'outdoor · Saturday, December 5, 2026',
      description: 'Events tagged outdoor. The events of Saturday, December 5, 2026, with their times and venues.',
    });
    expect(tag.items.map((i) => slugFromUrl(i.url))).toEqual(['jazz-night']);
    const search = await checkHead('/events/?tribe-bar-search=jazz', {
      canonical: '/events/list/?tribe-bar-search=jazz',
      title: 'Events',
      description: 'Upcoming events with their dates, times and venues. Events matching “jazz”.',
    });
    expect(search.items.map((i) => i.url)).toEqual(await restUrls('?search=jazz'));
  });

  it('language variants: the same items, the meta in the page language, the canonical under /fr/', async () => {
    const fr = await checkHead('/fr/events/2026-12/', {
      lang: 'fr',
      canonical: '/events/2026-12/',
      title: 'Évènements de décembre 2026',
      description: 'Calendrier des évènements de décembre 2026.',
      locale: 'fr_FR',
    });
    const en = await checkHead('/events/2026-12/', { canonical: '/events/2026-12/', title: 'Events for December 2026', description: 'Calendar of the events in December 2026.' });
    expect(fr.items.map((i) => JSON.stringify(i.item).replaceAll(`${s.base}/fr/`, `${s.base}/`))).toEqual(en.items.map((i) => JSON.stringify(i.item)));
    expect(fr.items[0]!.url).toMatch(new RegExp(`^${s.base}/fr/event/`));
    await checkHead('/fr/events/category/music/', {
      lang: 'fr',
      canonical: '/events/category/music/',
      title: 'Music',
      description: 'Évènements de la catégorie Music. Évènements à venir, avec leurs dates, horaires et lieux.',
      locale: 'fr_FR',
    });
  });

  it('an event title cannot close the JSON-LD script; an event with a venue is a Place attended offline', async () => {
    const venue = await s.create('/venues', { venue: 'Hall <b>&amp;</b> Co', address: '1 Main Street', city: 'Springfield', zip: '62701', country: 'United States' });
    const title = 'Rock &lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt; &amp; </script> Night';
    const created = await s.create('/events', { title, start_date: '2027-02-03 19:00', end_date: '2027-02-03 21:00', venue: venue.id });
    const rest = (await s.api(`/events/${created.id}`)).body;
    const { text, items } = await checkHead('/events/2027-02-03/', {
      canonical: '/events/2027-02-03/',
      title: 'Events for Wednesday, February 3, 2027',
      description: 'The events of Wednesday, February 3, 2027, with their times and venues.',
    });
    // The block is whole: no `<` in it, and the page has only its own two scripts.
    const block = ldBlocks(text)[0]!;
    expect(block).not.toMatch(/[<>]/);
    expect(text.match(/<script\b/g)).toHaveLength(2);
    expect(text).not.toContain('alert(1)</script>');
    expect(items).toHaveLength(1);
    expect(items[0]!.item.name).toContain('</script><script>alert(1)</script>');
    expect(items[0]!.item).toMatchObject({
      name: 'Rock </script><script>alert(1)</script> &  Night',
      eventAttendanceMode: 'https://schema.org/OfflineEventAttendanceMode',
      location: { '@type': 'Place', name: 'Hall & Co', address: { '@type': 'PostalAddress', streetAddress: '1 Main Street', addressLocality: 'Springfield', postalCode: '62701' } },
    });
    expect((items[0]!.item.location as { url?: string }).url).toBe(rest.venue.url);
  });

  it('an event\'s featured image: a thumbnail in the list and day rows, its image in the view\'s JSON-LD as on its page', async () => {
    const { id: imageId } = await s.db.prisma.post.create({
      data: { type: 'ATTACHMENT', attachment: { create: { url: `${s.base}/uploads/poster.png`, mimeType: 'image/png', title: 'Poster', width: 800, height: 600 } } },
    });
    const created = await s.create('/events', { title: 'Poster Show', start_date: '2027-03-10 19:00', end_date: '2027-03-10 21:00', image: imageId });
    expect((await s.api(`/events/${created.id}`)).body.image.url).toBe(`${s.base}/uploads/poster.png`);
    const thumb = `<img class="thumb" src="${s.base}/uploads/poster.png" alt="" width="800" height="600" loading="lazy">`;
    for (const path of ['/events/2027-03-10/', '/events/list/?tribe-bar-date=2027-03-10']) {
      const r = await s.request(path);
      expect(r.text, path).toContain(thumb);
      const item = JSON.parse(ldBlocks(r.text)[0]!).itemListElement[0].item;
      expect(item, path).toMatchObject({ name: 'Poster Show', image: `${s.base}/uploads/poster.png` });
    }
    const page = await s.request('/event/poster-show/');
    expect(JSON.parse(ldBlocks(page.text)[0]!).image).toBe(`${s.base}/uploads/poster.png`);
    expect(meta(page.text, 'og:image')).toBe(`${s.base}/uploads/poster.png`);
  });
});

describe('Query.calendarDays', () => {
  it('refuses impossible dates and ranges longer than six weeks with a client error', async () => {
    const q = `query($from: String!, $to: String!) { calendarDays(from: $from, to: $to) { date } }`;
    for (const [from, to, code] of [
      ['2026-02-30', '2026-03-01', 'INVALID_DATE'],
      ['2026-12-10', '2026-12-01', 'INVALID_RANGE'],
      ['2026-01-01', '2026-03-01', 'RANGE_TOO_LONG'],
    ] as const) {
      const r = await s.graphql(q, { from, to });
      expect((r.errors?.[0] as { extensions?: { code?: string } } | undefined)?.extensions?.code, `${from}..${to}`).toBe(code);
    }
  });
});
