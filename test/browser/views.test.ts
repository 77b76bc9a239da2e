/**
 * The calendar views as a visitor of The Events Calendar knows them, in a real browser on a seeded
 * calendar (seedCalendar, seedBusyMonth): every event in its month cell, multi-day and overnight
 * events as one bar over their days, a phone's compact month grid (with and without JavaScript),
 * the day view's order, a list from a date with the events already running and its way back to the
 * past, view switching that keeps the date, disabled previous links where nothing precedes, the
 * subscribe and add-to-calendar menus in TEC's URL forms carrying the view's filters, and ISO 8601
 * in every `<time datetime>`. Each page passes axe (no serious or critical violation) and does not
 * scroll sideways at 390 px; screenshots of list, month and day at 1280 and 390 px (views-*.png).
 */
import { DateTime } from 'luxon';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, openBrowserPages, type BrowserPages } from '../helpers/browser.ts';
import { seedBusyMonth, seedCalendar, type BusyMonth } from '../helpers/calendar-seed.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

describe.skipIf(!hasChromium)('calendar views in a real browser', () => {
  let s: TestServer;
  let busy: BusyMonth;
  let browser: BrowserPages;

  beforeAll(async () => {
    s = await startTestServer();
    await seedCalendar(s);
    busy = await seedBusyMonth(s);
    browser = await openBrowserPages(s.base);
  });
  afterAll(async () => {
    await browser?.close();
    await s?.close();
  });

  const check = (name: string, path: string) => browser.check(name, path);
  const eventUrl = (title: string) => `${s.base}/event/${busy[title]!.slug}/`;
  /** Texts, spaces normalized (Intl writes `9:00 AM` with a narrow no-break space). */
  const texts = (page: Page, selector: string) => page.locator(selector).evaluateAll((els) => els.map((e) => (e.textContent ?? '').replace(/\s+/g, ' ').trim()));
  const hrefs = (page: Page, selector: string) => page.locator(selector).evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).href));
  /** The event rows of a list or day view, by title. */
  const rowTitles = (page: Page) => texts(page, 'main ul.events li .title a');
  /** REST events (URLs) for a query. */
  const apiUrls = (query: string) => s.api(`/events?${query}`).then((r) => (r.body.events ?? []).map((e: { url: string }) => e.url) as string[]);
  const box = async (page: Page, selector: string) => (await page.locator(selector).first().boundingBox())!;

  /** Every `<time datetime>` of the page: ISO 8601 (a date, a month, or a date and time with its offset). */
  async function isoTimes(page: Page) {
    const values = await page.locator('time[datetime]').evaluateAll((ts) => ts.map((t) => t.getAttribute('datetime')!));
    expect(values.length).toBeGreaterThan(0);
    for (const v of values) {
      expect(v, v).toMatch(/^\d{4}-\d{2}(-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{3})?)?(Z|[+-]\d{2}:\d{2}))?)?$/);
      expect(DateTime.fromISO(v, { setZone: true }).isValid, v).toBe(true);
    }
    return values;
  }

  it('month: a day of nine events shows every one; an overnight show is one bar over its two days; a fair over a week end a bar in each week', { timeout: 300_000 }, async () => {
    const page = await check('views-month', '/events/2027-01/');
    const cell = (date: string) => `main table.month td:has(a.day-link[href$="/events/${date}/"])`;
    // Nine festival acts on the 15th, each visible in the cell, nothing behind a "more" link.
    const acts = Array.from({ length: 9 }, (_, i) => `Festival Act ${i + 1}`);
    expect(await texts(page, `${cell('2027-01-15')} li.single a`)).toEqual(acts);
    for (const a of await page.locator(`${cell('2027-01-15')} li.single a`).all()) expect(await a.isVisible()).toBe(true);
    expect(await page.locator('main a.more').count()).toBe(0);
    const dayWidth = (await box(page, cell('2027-01-08'))).width;
    // Late Show, Friday 22:47 to Saturday 00:47: one bar, drawn from Friday's cell over Saturday's.
    const late = page.locator('main table.month li.bar', { hasText: 'Late Show' });
    expect(await late.count()).toBe(1);
    expect(await late.getAttribute('class')).toContain('span-2');
    const lateBox = (await late.boundingBox())!;
    const friday = await box(page, cell('2027-01-08'));
    const saturday = await box(page, cell('2027-01-09'));
    expect(lateBox.x).toBeGreaterThanOrEqual(friday.x);
    expect(lateBox.x + lateBox.width).toBeGreaterThan(saturday.x + saturday.width * 0.9);
    expect(lateBox.x + lateBox.width).toBeLessThanOrEqual(saturday.x + saturday.width);
    // No half-times: neither "10:47 PM –" nor "– 12:47 AM" in a cell.
    expect(await page.locator('main table.month').innerText()).not.toMatch(/10:47 PM –|– 12:47 AM/);
    // Art Fair, Saturday to Tuesday: Saturday–Sunday in one week row, Monday–Tuesday in the next, in the same lane as far as each row goes.
    const fair = page.locator('main table.month li.bar', { hasText: 'Art Fair' });
    expect(await fair.count()).toBe(2);
    for (const bar of await fair.all()) expect(Math.round((await bar.boundingBox())!.width / dayWidth)).toBe(2);
    expect(await fair.nth(0).getAttribute('class')).toContain('to-after');
    expect(await fair.nth(1).getAttribute('class')).toContain('from-before');
    // The continuation days still name the event for screen readers, in the lane the bar holds.
    expect(await hrefs(page, `${cell('2027-01-09')} li.cont a`)).toEqual([eventUrl('Late Show')]);
    const barTop = (await fair.nth(0).boundingBox())!.y;
    const contTop = (await page.locator(`${cell('2027-01-10')} li.cont`).first().boundingBox())!.y;
    expect(Math.abs(barTop - contTop)).toBeLessThan(2);
    // Every event of the grid, as the API lists the grid's days.
    const shown = new Set(await hrefs(page, 'main table.month ul.cell-events a'));
    expect(shown).toEqual(new Set(await apiUrls('ends_after=2026-12-27&starts_before=2027-01-31&per_page=50')));
    await isoTimes(page);
  });

  it('month on a phone: a compact grid with a marker per day; a tapped day shows its events below, with and without JavaScript; the caption fits', { timeout: 300_000 }, async () => {
    await check('views-month', '/events/2027-01/');
    const phone = browser.phone;
    // The caption is one line, not a letter per line.
    const caption = await box(phone, 'main table.month caption');
    expect(caption.height).toBeLessThan(40);
    expect(caption.width).toBeGreaterThan(100);
    expect(await phone.locator('main table.month ul.cell-events').first().isVisible()).toBe(false);
    // January's days with events: the 5th, 8th–12th, 15th, 19th and 25th–31st.
    expect(await phone.locator('main table.month td:not(.other-month) .marker').count()).toBe(15);
    expect(await phone.locator('main table.month td:not(.other-month) .marker').first().isVisible()).toBe(true);
    // By default, the month's first day with events (today is not in January).
    expect(await texts(phone, 'main .month-days .month-day:visible h2')).toEqual(['Tuesday, January 5, 2027']);
    for (const page of [phone, await browser.open(390, { javaScriptEnabled: false })]) {
      if (page !== phone) await page.goto(`${s.base}/events/2027-01/`);
      await page.locator('main table.month a.day-pick[href="#cal-day-2027-01-15"]').click();
      expect(page.url()).toMatch(/#cal-day-2027-01-15$/);
      const panel = page.locator('#cal-day-2027-01-15');
      expect(await panel.isVisible()).toBe(true);
      expect(await texts(page, '#cal-day-2027-01-15 li a')).toEqual(Array.from({ length: 9 }, (_, i) => `Festival Act ${i + 1}`));
      expect(await page.locator('main .month-days .month-day:visible').count()).toBe(1);
      expect(await page.locator('#cal-day-2027-01-15 .day-view a').getAttribute('href')).toBe(`${s.base}/events/2027-01-15/`);
    }
    // With JavaScript, the tapped day is marked in the grid.
    expect(await phone.locator('main table.month td.selected a.day-pick').getAttribute('href')).toBe('#cal-day-2027-01-15');
  });

  it('day: all-day, then ongoing, then by start time, each with its whole span', { timeout: 300_000 }, async () => {
    const page = await check('views-day', '/events/2027-01-26/');
    expect(await rowTitles(page)).toEqual(['Snow Day', 'Winter Exhibition', 'Morning Yoga', 'Evening Lecture', 'Tuesday Jam', 'Night Owls']);
    expect(await texts(page, 'main .day-group .separator')).toEqual(['All day', 'Ongoing', '9:00 AM', '6:00 PM', '8:00 PM', '9:00 PM']);
    const when = async (title: string) => (await page.locator('main ul.events li', { hasText: title }).locator('.when').innerText()).replace(/\s+/g, ' ');
    expect(await when('Winter Exhibition')).toBe('Monday, January 25, 2027, 10:00 AM – Friday, February 5, 2027, 6:00 PM');
    expect(await when('Night Owls')).toBe('Tuesday, January 26, 2027, 9:00 PM – Wednesday, January 27, 2027, 2:00 AM');
    expect(await when('Snow Day')).toBe('Tuesday, January 26, 2027 (all day)');
    // TEC's row: venue with its address, excerpt, cost.
    const exhibition = page.locator('main ul.events li', { hasText: 'Winter Exhibition' });
    expect(await exhibition.locator('address.venue').innerText()).toBe('Riverside Pavilion 200 River Road, Springfield, IL 62702, United States');
    expect(await exhibition.locator('.excerpt').innerText()).toBe('Paintings of snow and ice.');
    expect(await exhibition.locator('.cost').innerText()).toBe('$5');
    expect(await page.locator('main nav.step a.today').getAttribute('href')).toBe(`${s.base}/events/today/`);
    await isoTimes(page);
  });

  it('day: an empty day offers the next upcoming events; previous is disabled where nothing precedes (day, month, list)', { timeout: 300_000 }, async () => {
    const page = await check('views-empty-day', '/events/2027-01-20/');
    expect(await page.locator('main p.empty').innerText()).toBe('No events scheduled for Wednesday, January 20, 2027. Jump to the next upcoming events.');
    await page.locator('main p.empty a', { hasText: 'next upcoming events' }).click();
    await page.waitForURL(`${s.base}/events/2027-01-25/`);
    expect(await rowTitles(page)).toEqual(['Winter Exhibition']);
    // Nothing before December 1, 2026 (the seed's first events): no previous day, month or list page.
    for (const path of ['/events/2026-11-30/', '/events/2026-11/', '/events/list/']) {
      await page.goto(s.base + path);
      expect(await page.locator('main nav.step a[rel=prev]').count(), path).toBe(0);
      expect(await page.locator('main nav.step .disabled').first().innerText(), path).toMatch(/^← /);
      expect(await page.locator('main nav.step a[rel=next]').count(), path).toBe(1);
    }
  });

  it('list from a date: the events already running at that instant first; prev leads to the past events before it, and back', { timeout: 300_000 }, async () => {
    const page = await check('views-list', '/events/list/?tribe-bar-date=2027-02-01');
    const instant = encodeURIComponent('2027-02-01T00:00:00-05:00');
    const upcoming = await apiUrls(`ends_after=${instant}&strict_dates=true`);
    expect(await hrefs(page, 'main ul.events li .title a')).toEqual(upcoming);
    expect((await rowTitles(page)).slice(0, 2)).toEqual(['Winter Exhibition', 'Tuesday Jam']);
    // The running exhibition is dated by the day asked for (TEC's date tag), under February's separator.
    const first = page.locator('main ul.events li').first();
    expect(await first.locator('time.date-tag').getAttribute('datetime')).toBe('2027-02-01');
    expect((await first.locator('time.date-tag').textContent())?.replace(/\s+/g, ' ')).toBe('Mon 1');
    expect(await page.locator('main .month-separator time').first().getAttribute('datetime')).toBe('2027-02');
    expect(await texts(page, 'main .month-separator')).toEqual(['February 2027', 'March 2027']);
    await isoTimes(page);
    // Previous: the events that ended before February 1, latest first.
    await page.locator('main nav.step a[rel=prev]').click();
    await page.waitForURL(/eventDisplay=past/);
    expect(new URL(page.url()).searchParams.get('tribe-bar-date')).toBe('2027-02-01');
    expect(await hrefs(page, 'main ul.events li .title a')).toEqual((await apiUrls(`ends_before=${instant}&strict_dates=true&per_page=50`)).reverse().slice(0, 10));
    expect((await rowTitles(page))[0]).toBe('Night Owls');
    // And next, from the first page of the past, back to what runs from that date on.
    await page.locator('main nav.step a[rel=next]').click();
    await page.waitForURL((url) => url.searchParams.get('tribe-bar-date') === '2027-02-01' && !url.searchParams.has('eventDisplay'));
    expect((await rowTitles(page))[0]).toBe('Winter Exhibition');
    // Today: the upcoming list.
    expect(await page.locator('main nav.step a.today').getAttribute('href')).toBe(`${s.base}/events/list/`);
  });

  it('the view switcher keeps the date being browsed', { timeout: 300_000 }, async () => {
    const page = browser.desktop;
    const views = (name: string) => page.locator('main nav.views a', { hasText: name });
    await page.goto(`${s.base}/events/2027-01/`);
    await views('List').click();
    await page.waitForURL(`${s.base}/events/list/?tribe-bar-date=2027-01-01`);
    expect((await rowTitles(page))[0]).toBe('Tuesday Jam');
    await views('Day').click();
    await page.waitForURL(`${s.base}/events/2027-01-01/`);
    await page.goto(`${s.base}/events/2027-01-26/`);
    await views('Month').click();
    await page.waitForURL(`${s.base}/events/2027-01/`);
    await page.goto(`${s.base}/events/2027-01-26/`);
    await views('List').click();
    await page.waitForURL(`${s.base}/events/list/?tribe-bar-date=2027-01-26`);
    expect((await rowTitles(page)).slice(0, 2)).toEqual(['Winter Exhibition', 'Snow Day']);
    // A view of now switches to the other views of now.
    await page.goto(`${s.base}/events/list/`);
    expect(await hrefs(page, 'main nav.views a')).toEqual([`${s.base}/events/list/`, `${s.base}/events/month/`, `${s.base}/events/today/`]);
  });

  it('subscribe menu on every view: Google Calendar, iCalendar (webcal), Outlook 365 and Live, the .ics export, carrying the filters', { timeout: 300_000 }, async () => {
    const path = '/events/category/music/jazz/2027-01/?tribe-bar-search=Festival';
    const page = browser.desktop;
    await page.goto(s.base + path);
    await page.locator('main details.calendar-links summary', { hasText: 'Subscribe to calendar' }).click();
    const link = async (key: string) => {
      const a = page.locator(`main details.calendar-links a.${key}`);
      expect(await a.isVisible(), key).toBe(true);
      return new URL((await a.getAttribute('href'))!);
    };
    /** The feed a subscription names: TEC's canonical feed URL with the view's filters. */
    const expectFeed = (webcal: string) => {
      const feed = new URL(webcal);
      expect(feed.protocol).toBe('webcal:');
      expect(feed.host).toBe(new URL(s.base).host);
      expect(Object.fromEntries(feed.searchParams)).toEqual({
        post_type: 'tribe_events',
        'tribe-bar-date': '2027-01',
        tribe_events_cat: 'jazz',
        'tribe-bar-search': 'Festival',
        ical: '1',
        eventDisplay: 'list',
      });
      return `http://${webcal.slice('webcal://'.length)}`;
    };
    const google = await link('gcal');
    expect([google.origin, google.pathname]).toEqual(['https://www.google.com', '/calendar/render']);
    const feedUrl = expectFeed(google.searchParams.get('cid')!);
    expect(expectFeed((await link('ical')).href)).toBe(feedUrl);
    for (const [key, host] of [['outlook-365', 'outlook.office.com'], ['outlook-live', 'outlook.live.com']] as const) {
      const outlook = await link(key);
      expect([outlook.host, outlook.pathname], key).toEqual([host, '/owa']);
      expect(outlook.searchParams.get('path')).toBe('/calendar/action/compose');
      expect(outlook.searchParams.get('rru')).toBe('addsubscription');
      // TEC encodes the feed (without ical=1), appends &ical=1 and encodes the whole once more.
      expectFeed(decodeURIComponent(outlook.searchParams.get('url')!));
      expect(outlook.searchParams.get('name')).toBe('cal-events Jazz · January 2027');
    }
    // The feed holds the jazz events from January on that match the words.
    const feed = await fetch(feedUrl);
    expect(feed.headers.get('content-type')).toMatch(/^text\/calendar/);
    const ics = await feed.text();
    expect(ics.match(/^SUMMARY:Festival Act \d$/gm)).toHaveLength(9);
    expect(ics).not.toContain('SUMMARY:Tuesday Jam');
    // The export: what the page shows (January's jazz events matching the words).
    const exported = await link('ics');
    expect(exported.href).toBe(`${s.base}${path}&ical=1`);
    const file = await (await fetch(exported)).text();
    expect(file.match(/^SUMMARY:.*$/gm)?.sort()).toEqual(Array.from({ length: 9 }, (_, i) => `SUMMARY:Festival Act ${i + 1}`));
    // On every view (list, day, month).
    for (const view of ['/events/list/', '/events/2027-01-26/', '/events/month/', '/events/tag/live/']) {
      await page.goto(s.base + view);
      expect(await page.locator('main details.calendar-links a').count(), view).toBe(5);
    }
  });

  it('event page: "Add to calendar" for Google, Outlook and the .ics file; its <time datetime> is ISO 8601', { timeout: 300_000 }, async () => {
    const page = await check('views-event', `/event/${busy['Late Show']!.slug}/`);
    expect(await isoTimes(page)).toEqual(['2027-01-08T22:47:00.000-05:00']);
    await page.locator('main details.calendar-links summary', { hasText: 'Add to calendar' }).click();
    const link = async (key: string) => new URL((await page.locator(`main details.calendar-links a.${key}`).getAttribute('href'))!);
    const google = await link('gcal');
    expect([google.origin, google.pathname]).toEqual(['https://www.google.com', '/calendar/event']);
    expect(Object.fromEntries(google.searchParams)).toMatchObject({
      action: 'TEMPLATE',
      dates: '20270108T224700/20270109T004700',
      text: 'Late Show',
      location: 'Riverside Pavilion, 200 River Road, Springfield, IL 62702, United States',
      trp: 'false',
      ctz: 'America/New_York',
      sprop: `website:${s.base}/`,
    });
    for (const [key, host] of [['outlook-365', 'outlook.office.com'], ['outlook-live', 'outlook.live.com']] as const) {
      const outlook = await link(key);
      expect([outlook.host, outlook.pathname]).toEqual([host, '/owa/']);
      expect(Object.fromEntries(outlook.searchParams)).toMatchObject({
        path: '/calendar/action/compose',
        rrv: 'addevent',
        startdt: '2027-01-08T22:47:00',
        enddt: '2027-01-09T00:47:00',
        subject: 'Late Show',
      });
    }
    const ics = await link('ics');
    expect(ics.href).toBe(`${eventUrl('Late Show')}?ical=1`);
    expect((await link('ical')).href).toBe(`webcal://${ics.host}${ics.pathname}${ics.search}`);
    expect(await (await fetch(ics)).text()).toContain('SUMMARY:Late Show');
    // Venue and organizer pages too.
    await page.goto(page.url().replace(/\/event\/.*/, '/venue/riverside-pavilion/'));
    await isoTimes(page);
  });

  it('no request left the host, none failed, the CSP refused nothing', () => {
    expect(browser.problems).toEqual([]);
  });
});
