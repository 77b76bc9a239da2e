/**
 * `cal import --ics`: the project's own feeds (a seeded server's `/events.ics`)
 * import into a fresh database with series, exclusions and overrides intact, and re-import as
 * unchanged; hand-written feeds (test/fixtures/ics/) cover Google's, Outlook's and Nextcloud's
 * quirks; a malformed feed fails with its reason and a non-zero exit.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContext, type Context } from '../../src/services/context.ts';
import { defaultSiteSettings } from '../../src/server/config.ts';
import { importFromIcs, type IcsImportOptions } from '../../src/transfer/ics-import.ts';
import type { Summary } from '../../src/transfer/import.ts';
import { createProgress } from '../../src/transfer/progress.ts';
import { main } from '../../src/cli/main.ts';
import { seedJazzSeries } from '../helpers/calendar-seed.ts';
import { retried, startTestServer, type TestServer } from '../helpers/server.ts';

const FIXTURES = path.join(import.meta.dirname, '..', 'fixtures', 'ics');
const quiet = createProgress({ write: () => true }, true);
let source: TestServer;
let target: TestServer;
let dir: string;

const ctxOf = (s: TestServer, timezone = 'UTC'): Context =>
  createContext({ prisma: s.db.prisma, settings: { ...defaultSiteSettings, timezone }, viewer: { id: 0, login: 'cli', role: 'ADMINISTRATOR' } });
const importIcs = (opts: IcsImportOptions, timezone?: string) => importFromIcs(ctxOf(target, timezone), opts, quiet);
const counts = (s: Summary) => s.kinds.events;

const ALL = 'start_date=2026-01-01&end_date=2028-12-31&per_page=50';

/** What a person sees of the events: the REST list, without IDs, links, slugs and dates of writing. */
async function eventsOf(s: TestServer, query = ALL) {
  const r = await retried(() => s.api(`/events?${query}`, { as: 'admin' }));
  expect(r.status, r.text).toBe(200);
  return r.body.events.map((e: any) => ({
    title: e.title,
    start: e.start_date,
    end: e.end_date,
    utcStart: e.utc_start_date,
    all_day: e.all_day,
    timezone: e.timezone,
    venue: Array.isArray(e.venue) ? null : e.venue.venue,
    organizer: e.organizer.map((o: any) => [o.organizer, o.email]),
    categories: e.categories.map((c: any) => c.name).sort(),
  }));
}

async function seriesOf(s: TestServer, title: string) {
  const r = await retried(() => s.graphql(
    `query($search: String) { events(filter: { search: $search, occurrences: SERIES, startDate: "2026-01-01", endDate: "2028-12-31" }) {
      nodes { title startDate timezone recurrence { rule start exdates rdates } overrides { title startDate endDate } } } }`,
    { search: title },
    'admin',
  ));
  expect(r.errors).toBeUndefined();
  return r.data.events.nodes.find((n: { title: string }) => n.title === title);
}

beforeAll(async () => {
  source = await startTestServer({ now: null });
  target = await startTestServer({ now: null });
  dir = await mkdtemp(path.join(os.tmpdir(), 'cal-ics-'));
  // The source: a weekly series with an exclusion, an extra date and an override; an all-day
  // event; events in other zones with a venue, an organizer and categories.
  await seedJazzSeries(source, {
    venues: [{ create: { name: 'Blue Room', address: '1 Main St', city: 'Springfield' } }],
    categories: ['Music'],
  });
  const organizer = await source.create('/organizers', { organizer: 'Ørjan Ölander', email: 'o@example.com' });
  await source.create('/events', { title: 'Festival (all days)', start_date: '2027-07-01', end_date: '2027-07-03', all_day: true, timezone: 'Europe/Paris' });
  await source.create('/events', { title: '東京 meetup', start_date: '2027-03-01 18:00', end_date: '2027-03-01 21:00', timezone: 'Asia/Tokyo', organizer: [organizer.id], venue: { venue: 'Blue Room' } });
}, 180_000);

afterAll(async () => {
  await source?.close();
  await target?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('--ics with the feeds cal-events exports', { timeout: 180_000 }, () => {
  it('imports a seeded server’s /events.ics into a fresh database: series, exclusions, override, all-day and zones intact; a re-run changes nothing', async () => {
    const url = `${source.base}/events.ics?start_date=2026-01-01&end_date=2028-12-31`;
    const first = await importIcs({ ics: url });
    expect(first.failures).toEqual([]);
    expect(counts(first)).toMatchObject({ created: 4, failed: 0 });
    expect(first.kinds.venues.created).toBe(1);

    // An all-day date has no zone in iCalendar (RFC 5545 DATE values take no TZID): it is read in
    // the calendar's zone, here the site's (UTC). Everything else comes back as it was.
    const dated = (list: { all_day: boolean; timezone: string; utcStart: string }[]) =>
      list.map((e) => (e.all_day ? { ...e, timezone: 'any', utcStart: 'any' } : e));
    const theirs = dated(await eventsOf(source));
    const ours = dated(await eventsOf(target));
    expect(ours).toEqual(theirs);
    expect(ours).toHaveLength(10);

    const a = await seriesOf(source, 'Tuesday Jazz');
    const b = await seriesOf(target, 'Tuesday Jazz');
    expect(b.recurrence.exdates).toEqual(a.recurrence.exdates);
    expect(b.recurrence.rdates).toEqual(a.recurrence.rdates);
    expect(b.recurrence.start).toEqual(a.recurrence.start);
    // UNTIL travels as the UTC instant RFC 5545 asks for beside a TZID: the same last occurrence.
    expect(b.recurrence.rule).toBe('FREQ=WEEKLY;BYDAY=TU;UNTIL=20270414T035959Z');
    expect(b.overrides).toEqual(a.overrides);
    expect(b.overrides).toEqual([{ title: 'Jazz: guest night', startDate: '2027-03-23 20:30:00', endDate: '2027-03-23 23:00:00' }]);

    const again = await importIcs({ ics: url });
    expect(again.failures).toEqual([]);
    expect(counts(again)).toEqual({ created: 0, updated: 0, unchanged: 4, skipped: 0, failed: 0 });
    expect(dated(await eventsOf(target))).toEqual(theirs);

    // The re-exported feed describes the same events (UIDs aside; the all-day event's zone has no VTIMEZONE to carry).
    const strip = (text: string) =>
      text
        .replace(/\r\n /g, '')
        .replace(/BEGIN:VTIMEZONE[\s\S]*?END:VTIMEZONE\r\n/g, '')
        .split('\r\n')
        .filter((l) => !/^(UID|URL|DTSTAMP|CREATED|LAST-MODIFIED|SEQUENCE|X-WR-CALNAME|NAME|PRODID)[:;]/.test(l))
        .join('\n');
    const feedOf = async (s: TestServer) => strip((await retried(() => s.request('/events.ics?start_date=2026-01-01&end_date=2028-12-31'))).text);
    expect(await feedOf(target)).toEqual(await feedOf(source));
  });
});

describe('--ics with hand-written feeds', { timeout: 180_000 }, () => {
  beforeAll(async () => target.reset());

  it('reads Google’s export: X-WR-TIMEZONE, floating and UTC times, folded lines, all-day, DURATION, no DTEND, CANCELLED, ORGANIZER, CATEGORIES, LOCATION, RRULE/EXDATE/RDATE and overrides', async () => {
    const file = path.join(FIXTURES, 'google.ics');
    const summary = await importIcs({ ics: file });
    expect(summary.failures).toEqual([]);
    expect(counts(summary)).toEqual({ created: 7, updated: 0, unchanged: 0, skipped: 1, failed: 0 });
    const events = await eventsOf(target);
    const one = (title: string) => events.find((e: { title: string }) => e.title === title);
    // Floating time: in the calendar's X-WR-TIMEZONE; the folded SUMMARY unfolded.
    expect(one('Floating breakfast with a title long enough to be folded by the calendar that wrote this feed')).toMatchObject({
      start: '2027-01-05 10:00:00',
      end: '2027-01-05 11:30:00',
      utcStart: '2027-01-05 09:00:00',
      timezone: 'Europe/Berlin',
      venue: 'Café Einstein, Kurfürstenstraße 58, Berlin',
      organizer: [['Jane Doe', 'jane@example.com']],
      categories: ['Food', 'Social'],
    });
    // UTC: the same instant, shown in the calendar's zone; the same LOCATION reuses the venue.
    expect(one('UTC talk')).toMatchObject({ start: '2027-01-10 19:00:00', utcStart: '2027-01-10 18:00:00', timezone: 'Europe/Berlin', venue: 'Café Einstein, Kurfürstenstraße 58, Berlin' });
    expect(summary.kinds.venues).toMatchObject({ created: 2 });
    // All-day: DTEND is exclusive; no DTEND is one day.
    expect(one('Three-day fair')).toMatchObject({ all_day: true, start: '2027-02-01 00:00:00', end: '2027-02-03 23:59:59', categories: ['Fairs'] });
    expect(one('One day, no end')).toMatchObject({ all_day: true, start: '2027-03-01 00:00:00', end: '2027-03-01 23:59:59' });
    expect(one('With a duration')).toMatchObject({ start: '2027-01-15 09:00:00', end: '2027-01-15 10:30:00', timezone: 'Europe/Berlin' });
    expect(one('No end at all')).toMatchObject({ start: '2027-01-16 09:00:00', end: '2027-01-16 09:00:00' });
    expect(one('Called off')).toBeUndefined();
    const described = await retried(() => target.api(`/events?search=Floating`, { as: 'admin' }));
    expect(described.body.events[0].description).toContain('second line with &lt;b&gt;angle&lt;/b&gt; &amp; ampersand');

    const series = await seriesOf(target, 'Tuesday Jazz');
    expect(series.timezone).toBe('America/New_York');
    expect(series.recurrence).toMatchObject({ start: '2027-03-02 19:00:00', rdates: ['2027-03-20 15:00:00'] });
    // The cancelled occurrence (STATUS:CANCELLED with a RECURRENCE-ID) is an exclusion.
    expect(series.recurrence.exdates).toEqual(['2027-03-16 19:00:00', '2027-03-30 19:00:00']);
    expect(series.overrides).toEqual([{ title: 'Jazz: guest night', startDate: '2027-03-23 20:30:00', endDate: '2027-03-23 23:00:00' }]);
    const jazz = events.filter((e: { title: string }) => /Jazz/.test(e.title));
    expect(jazz.map((e: { start: string }) => e.start)).toEqual([
      '2027-03-02 19:00:00', '2027-03-09 19:00:00', '2027-03-20 15:00:00', '2027-03-23 20:30:00', '2027-04-06 19:00:00', '2027-04-13 19:00:00',
    ]);
    expect(jazz[0]).toMatchObject({ venue: 'Blue Room', organizer: [['Smith, Ann', 'ann@example.com']], categories: ['Music'] });

    const again = await importIcs({ ics: file });
    expect(counts(again)).toEqual({ created: 0, updated: 0, unchanged: 7, skipped: 1, failed: 0 });
  });

  it('updates a series changed in the feed: fields, a new exclusion, the override; the occurrences follow', async () => {
    const file = path.join(dir, 'changing.ics');
    const original = await readFile(path.join(FIXTURES, 'google.ics'), 'utf8');
    await writeFile(file, original);
    expect(counts(await importIcs({ ics: file }))).toMatchObject({ created: 7 });
    await writeFile(
      file,
      original
        .replace('SUMMARY:Tuesday Jazz\r\nLOCATION', 'SUMMARY:Tuesday Jazz Club\r\nLOCATION')
        .replace('EXDATE;TZID=America/New_York:20270316T190000', 'EXDATE;TZID=America/New_York:20270316T190000,20270406T190000')
        .replace('SUMMARY:Jazz: guest night', 'SUMMARY:Jazz: guest night (sold out)'),
    );
    const changed = await importIcs({ ics: file });
    expect(changed.failures).toEqual([]);
    expect(counts(changed)).toEqual({ created: 0, updated: 1, unchanged: 6, skipped: 1, failed: 0 });
    const series = await seriesOf(target, 'Tuesday Jazz Club');
    expect(series.recurrence).toMatchObject({ start: '2027-03-02 19:00:00', exdates: ['2027-03-16 19:00:00', '2027-03-30 19:00:00', '2027-04-06 19:00:00'] });
    expect(series.overrides).toEqual([{ title: 'Jazz: guest night (sold out)', startDate: '2027-03-23 20:30:00', endDate: '2027-03-23 23:00:00' }]);
    const club = (await eventsOf(target, `${ALL}&search=Jazz`)).filter((e: { title: string }) => e.title === 'Tuesday Jazz Club');
    expect(club.map((e: { start: string }) => e.start)).toEqual(['2027-03-02 19:00:00', '2027-03-09 19:00:00', '2027-03-20 15:00:00', '2027-04-13 19:00:00']);
    expect(counts(await importIcs({ ics: file }))).toEqual({ created: 0, updated: 0, unchanged: 7, skipped: 1, failed: 0 });
  });

  it('maps Outlook’s Windows zone names and derives a custom VTIMEZONE’s zone from its offsets; X-ALT-DESC is the HTML description', async () => {
    const summary = await importIcs({ ics: path.join(FIXTURES, 'outlook.ics') });
    expect(summary.failures).toEqual([]);
    expect(counts(summary)).toMatchObject({ created: 2, failed: 0 });
    const r = await retried(() => target.api('/events?search=Quarterly&start_date=2027-01-01', { as: 'admin' }));
    expect(r.body.events[0]).toMatchObject({ timezone: 'Europe/Berlin', start_date: '2027-06-15 14:00:00', utc_start_date: '2027-06-15 12:00:00' });
    expect(r.body.events[0].description).toContain('<b>numbers</b>');
    expect(r.body.events[0].organizer[0]).toMatchObject({ organizer: 'Max Mustermann', email: 'max@example.org' });
    const standUp = await seriesOf(target, 'Stand-up');
    expect(standUp).toMatchObject({ timezone: 'America/New_York', recurrence: { rule: 'FREQ=WEEKLY;COUNT=4;BYDAY=TU', start: '2027-01-05 09:30:00' } });
  });

  it('reads floating times in the site zone without X-WR-TIMEZONE, and Mozilla-style zone names', async () => {
    const summary = await importIcs({ ics: path.join(FIXTURES, 'floating.ics') }, 'America/Chicago');
    expect(summary.failures).toEqual([]);
    const events = await eventsOf(target, 'start_date=2027-04-20&end_date=2027-04-22');
    expect(events.map((e: any) => [e.title, e.start, e.timezone, e.utcStart])).toEqual([
      ['Floating in the site zone', '2027-04-20 08:00:00', 'America/Chicago', '2027-04-20 13:00:00'],
      ['Mozilla-style zone', '2027-04-21 08:00:00', 'Europe/Paris', '2027-04-21 06:00:00'],
    ]);
  });

  it('fetches http and webcal URLs from a local server; --category adds a category; --prune trashes what left the feed', async () => {
    let body = await readFile(path.join(FIXTURES, 'floating.ics'), 'utf8');
    const server: Server = createServer((req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/calendar; charset=utf-8' });
      res.end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const port = (server.address() as AddressInfo).port;
      await target.api('/categories', { method: 'POST', as: 'admin', body: { name: 'Imported', slug: 'imported' } });
      const url = `webcal://127.0.0.1:${port}/calendar.ics`;
      const first = await importIcs({ ics: url, category: 'imported' });
      expect(first.failures).toEqual([]);
      expect(counts(first)).toMatchObject({ created: 2 });
      let events = await eventsOf(target, 'start_date=2027-04-20&end_date=2027-04-22&categories=imported');
      expect(events.map((e: { title: string }) => e.title)).toEqual(['Floating in the site zone', 'Mozilla-style zone']);
      // The same feed over http is the same feed: nothing new.
      expect(counts(await importIcs({ ics: `http://127.0.0.1:${port}/calendar.ics`, category: 'imported' }))).toMatchObject({ created: 0, unchanged: 2 });

      body = body.replace(/BEGIN:VEVENT\r?\nUID:second-1[\s\S]*?END:VEVENT\r?\n/, '').replace('Floating in the site zone', 'Floating, renamed');
      const pruned = await importIcs({ ics: url, category: 'imported', prune: true });
      expect(pruned.failures).toEqual([]);
      expect(counts(pruned)).toMatchObject({ created: 0, updated: 1 });
      expect(pruned.pruned).toBe(1);
      events = await eventsOf(target, 'start_date=2027-04-20&end_date=2027-04-22&categories=imported');
      expect(events.map((e: { title: string }) => e.title)).toEqual(['Floating, renamed']);
      expect(await unknownCategory()).toMatch(/no category has the slug "nope"/);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  async function unknownCategory() {
    return importIcs({ ics: path.join(FIXTURES, 'floating.ics'), category: 'nope' }).then(
      () => 'imported',
      (e: Error) => e.message,
    );
  }

  it('a feed of which nothing can be read fails with its reason and exit code 1; a VEVENT without DTSTART is reported and the rest imported', async () => {
    // The line without a colon is skipped (and listed); the only VEVENT has no DTSTART: nothing to import.
    await expect(importIcs({ ics: path.join(FIXTURES, 'malformed.ics') })).rejects.toThrow(/no event could be read: its VEVENT was refused \(UID x: no DTSTART\)/);
    await expect(importIcs({ ics: path.join(dir, 'missing.ics') })).rejects.toThrow(/cannot read .*missing\.ics/);
    const garbage = path.join(dir, 'garbage.ics');
    await writeFile(garbage, '<html><body>Not found</body></html>\n');
    await expect(importIcs({ ics: garbage })).rejects.toThrow(/not an iCalendar feed: no BEGIN:VCALENDAR \(it begins "<html><body>Not found<\/body><\/html>"\)/);

    const broken = path.join(dir, 'broken.ics');
    await copyFile(path.join(FIXTURES, 'floating.ics'), broken);
    await writeFile(broken, (await readFile(broken, 'utf8')).replace('DTSTART:20270420T080000\n', ''));
    const partial = await importIcs({ ics: broken });
    expect(partial.failures).toEqual([{ kind: 'event', id: null, reason: 'UID floating-site-1: no DTSTART' }]);
    expect(counts(partial)).toMatchObject({ failed: 1 });

    const lines: string[] = [];
    const io = { out: (l: string) => void lines.push(l), err: (l: string) => void lines.push(l), env: { DATABASE_URL: 'memory:' }, readStdin: () => '' };
    const code = await main(['import', '--ics', path.join(FIXTURES, 'malformed.ics'), '--json'], io);
    expect(code).toBe(1);
    expect(lines.join('\n')).toMatch(/^cal: import failed: no event could be read/);
    expect(await main(['import', '--ics', 'x.ics', '--from', 'http://a/'], io)).toBe(2);
  });
});
