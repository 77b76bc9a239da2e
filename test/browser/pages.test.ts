/**
 * The public pages in a real browser (Debian's Chromium through playwright-core) on a seeded
 * calendar: each view shows the events the API lists, its prev/next links lead on, axe-core finds
 * no serious or critical violation, a 390 px wide viewport does not scroll sideways, and no request
 * leaves the host or breaks the CSP. Screenshots of each view at 1280 and 390 px wide are written
 * to test/browser/screenshots/ (gitignored). One browser and one page per width for the file.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, openBrowserPages, type BrowserPages } from '../helpers/browser.ts';
import { seedCalendar, type SeededCalendar } from '../helpers/calendar-seed.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

describe.skipIf(!hasChromium)('public pages in a real browser', () => {
  let s: TestServer;
  let cal: SeededCalendar;
  let browser: BrowserPages;
  let desktop: Page;

  beforeAll(async () => {
    s = await startTestServer();
    cal = await seedCalendar(s);
    browser = await openBrowserPages(s.base);
    desktop = browser.desktop;
  });
  afterAll(async () => {
    await browser?.close();
    await s?.close();
  });

  const check = (name: string, path: string) => browser.check(name, path);

  /** Event links in the page's lists, as absolute URLs. */
  const listed = (page: Page) => page.locator('main ul.events li > a').evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).href));

  it('venue page: the API\'s events for the venue, page by page through rel=next and back through rel=prev', async () => {
    const page = await check('venue', `/venue/${cal.venue.slug}/`);
    expect(await page.locator('h1').innerText()).toBe('Grand Hall');
    expect(await page.locator('a.map').getAttribute('href')).toMatch(/^https:\/\/www\.openstreetmap\.org\//);
    const api = (n: number) => s.api(`/events?venue=${cal.venue.id}&page=${n}`).then((r) => r.body.events.map((e: { url: string }) => e.url));
    expect(await listed(page)).toEqual(await api(1));
    await page.locator('nav.pager a[rel=next]').click();
    await page.waitForURL(/\?page=2$/);
    expect(await listed(page)).toEqual(await api(2));
    await page.locator('nav.pager a[rel=prev]').click();
    await page.waitForURL(new RegExp(`/venue/${cal.venue.slug}/$`));
    expect(await listed(page)).toEqual(await api(1));
  });

  it('organizer page', async () => {
    const page = await check('organizer', `/organizer/${cal.organizer.slug}/`);
    expect(await page.locator('h1').innerText()).toBe('Jazz Society');
    const api = (await s.api(`/events?organizer=${cal.organizer.id}`)).body.events.map((e: { url: string }) => e.url);
    expect(await listed(page)).toEqual(api);
  });

  it('event page: venue and organizer links lead to their pages', async () => {
    const page = await check('event', `/event/${cal.single.slug}/`);
    const rest = (await s.api(`/events/${cal.single.id}`)).body;
    expect(await page.locator('h1').innerText()).toBe(rest.title);
    await page.locator('section.venue .name a').click();
    await page.waitForURL(rest.venue.url);
    expect(await page.locator('h1').innerText()).toBe('Grand Hall');
  });

  it('series page: schedule in words, the next dates as the API lists them, later dates through rel=next', async () => {
    const page = await check('series', `/event/${cal.series.slug}/all/`);
    expect(await page.locator('.schedule').innerText()).toBe('every week on Tuesday for 30 times');
    const occurrences = (await s.api('/events?search=Tuesday%20Jam&per_page=50')).body.events.map((e: { url: string }) => e.url);
    expect(await listed(page)).toEqual(occurrences.slice(0, 20));
    await page.locator('nav.pager a[rel=next]').click();
    await page.waitForURL(/\?from=/);
    expect(await listed(page)).toEqual(occurrences.slice(20, 40));
    // An occurrence's page shows the schedule too.
    await check('occurrence', new URL(occurrences[1]).pathname);
    expect(await desktop.locator('section.series .schedule').innerText()).toBe('every week on Tuesday for 30 times');
  });

  /** Event links of the calendar views' rows (list, day) and month cells. */
  const rows = (page: Page) => page.locator('main ul.events li .title a, main table.month ul.cell-events a').evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).href));
  const apiUrls = (query: string) => s.api(`/events?${query}`).then((r) => (r.body.events ?? []).map((e: { url: string }) => e.url) as string[]);

  it('views: home, list (paged), category archives (a parent with events only in its child), tag archive and search show the API\'s events', { timeout: 300_000 }, async () => {
    const cases: Array<[string, string, string]> = [
      ['home', '/', ''],
      ['list', '/events/list/', ''],
      ['category-parent', '/events/category/music/', 'categories=music'],
      ['category-child', '/events/category/music/jazz/', 'categories=jazz'],
      ['tag', '/events/tag/live/', 'tags=live'],
      ['search', '/events/?tribe-bar-search=concert', 'search=concert'],
    ];
    for (const [name, path, query] of cases) {
      const page = await check(name, path);
      expect(await rows(page), path).toEqual(await apiUrls(query));
    }
    const page = await check('list', '/events/list/');
    await page.locator('nav.pager a[rel=next]').click();
    await page.waitForURL(/page/);
    expect(await rows(page)).toEqual(await apiUrls('page=2'));
    await page.locator('nav.pager a[rel=prev]').click();
    await page.waitForLoadState();
    expect(await rows(page)).toEqual(await apiUrls(''));
  });

  it('views: month grid and day, with their previous/next links', { timeout: 300_000 }, async () => {
    const december = new Set(await apiUrls('start_date=2026-11-30&end_date=2027-01-03&per_page=50'));
    const month = await check('month', '/events/2026-12/');
    const shown = await rows(month);
    expect(shown.length).toBeGreaterThan(10);
    for (const url of shown) expect(december.has(url), url).toBe(true);
    await month.locator('nav.step a[rel=next]').click();
    await month.waitForURL(/2027-01/);
    await month.locator('nav.step a[rel=prev]').click();
    await month.waitForURL(/2026-12/);
    const day = await check('day', '/events/2026-12-05/');
    const onDay = await rows(day);
    expect(onDay.length).toBeGreaterThan(0);
    for (const url of onDay) expect(december.has(url), url).toBe(true);
    await day.locator('nav.step a[rel=next]').click();
    await day.waitForURL(/2026-12-06/);
  });

  it('a language variant', async () => {
    const page = await check('venue-fr', `/fr/venue/${cal.venue.slug}/`);
    expect(await page.locator('html').getAttribute('lang')).toBe('fr');
    expect(await page.locator('main h2').first().innerText()).toBe('Évènements à venir');
  });

  it('views: past list, today, a child category\'s month, a tag\'s day and past list, a search on a day, French list and month', { timeout: 300_000 }, async () => {
    // Events before and on the clock's day (SAMPLE_CLOCK, 2026-11-21): the seed's all lie after it.
    await s.create('/events', { title: 'Autumn Recital', start_date: '2026-11-10 19:00:00', end_date: '2026-11-10 21:00:00', categories: ['jazz'], tags: ['live'] });
    await s.create('/events', { title: 'Harvest Fair', start_date: '2026-11-14 00:00:00', end_date: '2026-11-15 23:59:59', all_day: true });
    await s.create('/events', { title: 'Evening Talk', start_date: '2026-11-21 18:00:00', end_date: '2026-11-21 20:00:00', tags: ['live'] });
    // A day: the events that overlap it (multi-day ones on each day they span), as the day view places
    // them. Non-strict bounds name whole days: starting before the day's end, ending after the eve's end.
    const eve = (d: string) => new Date(Date.parse(`${d}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
    const day = (d: string) => `starts_before=${d}&ends_after=${eve(d)}`;
    // Past: the API lists the events that ended before now in ascending order; the view latest first.
    const past = (query: string) => apiUrls(`ends_before=now&strict_dates=true${query}`).then((urls) => urls.reverse());
    const cases: Array<[string, string, () => Promise<string[]>]> = [
      ['past', '/events/list/?eventDisplay=past', () => past('')],
      ['today', '/events/today/', () => apiUrls(day('2026-11-21'))],
      ['category-child-month', '/events/category/music/jazz/month/2026-12/', () => apiUrls('categories=jazz&start_date=2026-11-30&end_date=2027-01-03%2023:59:59&per_page=50')],
      ['tag-day', '/events/tag/live/2026-12-05/', () => apiUrls(`tags=live&${day('2026-12-05')}`)],
      ['tag-past', '/events/tag/live/list/?eventDisplay=past', () => past('&tags=live')],
      ['search-day', '/events/2026-12-05/?tribe-bar-search=market', () => apiUrls(`search=market&${day('2026-12-05')}`)],
    ];
    for (const [name, path, api] of cases) {
      const page = await check(name, path);
      const expected = await api();
      expect(expected.length, `${path}: the API lists events`).toBeGreaterThan(0);
      // A month cell lists each day an event spans: the grid shows the API's events, each at least once.
      const shown = name.includes('month') ? [...new Set(await rows(page))].sort() : await rows(page);
      expect(shown, path).toEqual(name.includes('month') ? [...expected].sort() : expected);
    }
    // Today's previous and next days.
    const today = await check('today', '/events/today/');
    await today.locator('nav.step a[rel=next]').click();
    await today.waitForURL(/2026-11-22/);
    await today.locator('nav.step a[rel=prev]').click();
    await today.waitForURL(/2026-11-21/);
    expect(await rows(today)).toEqual(await apiUrls(day('2026-11-21')));
    // French: the same events under /fr/, the page in French.
    const fr = (urls: string[]) => urls.map((u) => u.replace(`${new URL(s.base).origin}/fr/`, `${new URL(s.base).origin}/`));
    const frList = await check('list-fr', '/fr/events/list/');
    expect(await frList.locator('html').getAttribute('lang')).toBe('fr');
    expect(fr(await rows(frList))).toEqual(await apiUrls(''));
    await frList.locator('nav.pager a[rel=next]').click();
    await frList.waitForURL(/\/fr\/events\/list\/page\/2\//);
    expect(fr(await rows(frList))).toEqual(await apiUrls('page=2'));
    const frMonth = await check('month-fr', '/fr/events/2026-12/');
    const december = new Set(await apiUrls('start_date=2026-11-30&end_date=2027-01-03&per_page=50'));
    const shown = fr(await rows(frMonth));
    expect(shown.length).toBeGreaterThan(10);
    for (const url of shown) expect(december.has(url), url).toBe(true);
    await frMonth.locator('nav.step a[rel=next]').click();
    await frMonth.waitForURL(/\/fr\/events\/2027-01\//);
  });

  it('no request left the host, none failed, the CSP refused nothing', () => {
    expect(browser.problems).toEqual([]);
  });
});
