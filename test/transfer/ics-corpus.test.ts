/**
 * `cal import --ics` on real-world iCalendar files (test/fixtures/ics-corpus/: Google, Outlook,
 * Apple, Thunderbird, Nextcloud, Zimbra, Discourse, Podio and broken ones, from three projects'
 * test data). Each file is imported into a fresh database and compared, occurrence by occurrence
 * (start, end, all-day, summary, location, description) over a fixed window, with ical.js's own
 * expansion of the original (test/helpers/ics-reference.ts); a second import changes nothing; the
 * calendar's own /events.ics of the window, expanded the same way, gives the same occurrences.
 * Files refused whole end with a named reason. The table printed at the end is the corpus result.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContext } from '../../src/services/context.ts';
import { defaultSiteSettings } from '../../src/server/config.ts';
import { importFromIcs } from '../../src/transfer/ics-import.ts';
import { FEED_MAX_EVENTS } from '../../src/web/feeds.ts';
import type { Summary } from '../../src/transfer/import.ts';
import { createProgress } from '../../src/transfer/progress.ts';
import { referenceOccurrences, type Occurrence, type Rules } from '../helpers/ics-reference.ts';
import { retried, startTestServer, type TestServer } from '../helpers/server.ts';

const CORPUS = path.join(import.meta.dirname, '..', 'fixtures', 'ics-corpus');
const FILES = readdirSync(CORPUS, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .flatMap((d) => readdirSync(path.join(CORPUS, d.name)).filter((f) => f.endsWith('.ics')).map((f) => `${d.name}/${f}`))
  .sort();
const DAY = 86_400_000;
/** The window compared: from the day before the file's first DTSTART, this many days. */
const WINDOW_DAYS = 700;

interface Expectation {
  /** Refused whole, with this reason. */
  refused?: RegExp;
  /** Readings of sloppy input the reference applies too (see test/helpers/ics-reference.ts). */
  rules?: Rules;
  /** ical.js cannot read the original: the reference reads it with these lines fixed as the import says it did. */
  fixText?: [string | RegExp, string][];
  /** Notes the import must list (repairs), each matched by one. */
  repairs?: RegExp[];
  /** Events the import must report as refused, in order. */
  failures?: RegExp[];
  /** Where ical.js is wrong and the calendar right: starts of occurrences only one side has, and why. */
  known?: { extra?: string[]; missing?: string[]; why: string };
  /** The same for the expansion of the calendar's own /events.ics (default: none). */
  feedKnown?: { extra?: string[]; missing?: string[]; why: string };
}

const SWAP: Expectation = { rules: { swapReversed: true }, repairs: [/DTEND .* is before DTSTART .*: swapped/] };
const PERIODS: Rules = { periodEnds: true };
const NO_DTSTART = (n: number, uid = '.*') => new RegExp(`^no event could be read: ${n === 1 ? 'its VEVENT was' : `its ${n} VEVENTs were`} refused \\(UID ${uid}: no DTSTART\\)$`);
/** A line the import skipped: the reference reads the text without it. */
const dropLine = (line: RegExp): [RegExp, string] => [new RegExp(`^${line.source}\\r?\\n`, 'm'), ''];
/** ical.js stops at 8 occurrences of `MONTHLY;COUNT=9;BYDAY=+3WE;BYMONTH=…` (RFC 5545 and rrule count 9: the 9th is 2024-05-15). */
const COUNT_NINE = { extra: ['2024-05-15T19:00:00Z'], why: 'ical.js yields 8 occurrences of COUNT=9 (RRULE:FREQ=MONTHLY;BYDAY=+3WE;BYMONTH=1,…,12)' };

const EXPECT: Record<string, Expectation> = {
  // Nothing can be read: refused whole, with the reason.
  'icalendar/big_bad_calendar.ics': { refused: NO_DTSTART(20) },
  'icalendar/event_with_escaped_characters.ics': { refused: NO_DTSTART(1) },
  'icalendar/fuzz_Type_Error.ics': { refused: /^not an iCalendar feed: no BEGIN:VCALENDAR \(it begins "\(EBEGIN:"\)$/ },
  'icalendar/issue_1050_multiple_calendars.ics': { refused: NO_DTSTART(2, 'event1@example.com') },
  'icalendar/pr_480_summary_with_colon.ics': { refused: NO_DTSTART(2) },
  'icalendar/rfc_5545_RDATE_example.ics': { refused: NO_DTSTART(6, '0') },
  'icalendar/small_bad_calendar.ics': { refused: NO_DTSTART(1) },
  // What cannot be read is skipped or repaired, and listed; ical.js (which refuses these files) reads the repaired text.
  'icalendar/bom_calendar.ics': { fixText: [['\uFEFF', '']] },
  'icalendar/created_calendar_with_unicode_fields.ics': {
    fixText: [[/BEGIN:VEVENT\r?\nDESCRIPTION:äöüßÄÖÜ\r?\nEND:VEVENT\r?\n/, '']],
    failures: [/: no DTSTART$/],
    repairs: [/^no UID: ics-[0-9a-f]{32}@derived\.cal-events derived from DTSTART and SUMMARY$/],
  },
  'icalendar/issue_104_broken_calendar.ics': { fixText: [dropLine(/X/)], repairs: [/^line 13: line "X" skipped: invalid line/] },
  'icalendar/issue_1081_invalid_rrule_freq.ics': { fixText: [dropLine(/RRULE:.*/)], repairs: [/RRULE:FREQ=INVALID_TYPE_CAUSES_ERROR" skipped: invalid frequency/] },
  'icalendar/issue_1633_rdate_with_dates_and_tzid.ics': { fixText: [dropLine(/RDATE.*/)], repairs: [/^an RDATE skipped: invalid date-time value: "1997-01-01T::"$/] },
  'icalendar/issue_165_missing_event.ics': { fixText: [['BYDAY=MO, TU, WE, TH, FR', 'BYDAY=MO,TU,WE,TH,FR']], repairs: [/RRULE ".*BYDAY=MO, TU, W…": white space removed/, /^no UID/] },
  'icalendar/issue_168_input.ics': { fixText: [dropLine(/X-APPLE-RADIUS=.*/)], repairs: [/^line 6: line "X-APPLE-RADIUS=49\.91307046514149" skipped/] },
  'icalendar/issue_348_exception_parsing_value.ics': {
    fixText: [dropLine(/ORGANIZER;CN=Sixt SE/), dropLine(/X-ORGANIZER2;CN=Sixt SE;CN2=Test!/)],
    repairs: [/^line 8: line "ORGANIZER;CN=Sixt SE" skipped: Missing parameter value$/],
  },
  'icalendar/issue_350.ics': { fixText: [dropLine(/X-COMMENT:.*/)], repairs: [/^line 36 "X-COMMENT:Cached from 2022-02-20 14:28:21 - new at most ever…" outside any component skipped$/] },
  'icalendar/issue_722_missing_timezones.ics': {
    fixText: [[/BEGIN:VEVENT\r?\nRECURRENCE-ID[\s\S]*?END:VEVENT\r?\n/, ''], [/BEGIN:VEVENT\r?\nRDATE;TZID=Mexico[\s\S]*?END:VEVENT\r?\n/, '']],
    rules: PERIODS,
    failures: [/: no DTSTART$/, /: no DTSTART$/],
  },
  'icalendar/multiple_calendar_components.ics': { fixText: [[/(\r?\n)(\r?\n)+/g, '$1']], repairs: [/^2 VCALENDARs in the feed/] },
  'icalendar/parsing_error.ics': { fixText: [dropLine(/EXDATE;VALUE=DATE:/)], repairs: [/^an EXDATE skipped: Could not extract integer from "--"$/] },
  'icalendar/rfc_7529.ics': {
    fixText: [[/^RRULE:.*\r?\n/gm, '']],
    repairs: [/RSCALE=CHINESE \(RFC 7529\) skipped/, /BYMONTH=13" skipped: BYMONTH: invalid value "13"/, /RSCALE=HEBREW;SKIP=FORWARD/, /RSCALE=GREGORIAN;SKIP=FORWARD/],
  },
  'python-recurring-ical-events/Germany_Holidays.ics': {
    fixText: [[/^(DTSTART|DTEND):(\d{8})\r?$/gm, '$1;VALUE=DATE:$2'], [/^RRULE:\r?\n/gm, '']],
    rules: { sloppyEnds: true },
    repairs: [/^line 10: DTSTART:20190101 read as a date \(no VALUE=DATE\)$/, /^an empty RRULE ignored$/],
  },
  // Sloppy but meaningful: read as documented (docs/moving-from-other-calendars.md); the reference reads them so too.
  'python-recurring-ical-events/end_before_start_event.ics': SWAP,
  'python-recurring-ical-events/issue_132_swapped_start_and_end.ics': SWAP,
  'python-recurring-ical-events/issue_201_test_matrix.ics': { rules: { sloppyEnds: true }, repairs: [/END:VTOOD without its BEGIN skipped/] },
  'python-recurring-ical-events/issue_253_additional_recurrence_id.ics': { rules: { extraOverrides: true }, repairs: [/^RECURRENCE-ID 2024-07-29 is no occurrence of the series: an extra one/] },
  'python-recurring-ical-events/issue_28_rrule_with_UTC_endinginZ.ics': { rules: { ridDates: true } },
  'python-recurring-ical-events/issue_113_period_rdate_duration.ics': { rules: PERIODS },
  'icalendar/issue_156_RDATE_with_PERIOD_list.ics': { rules: PERIODS, repairs: [/BEGIN:VEVENT outside a VCALENDAR/] },
  'icalendar/issue_313_globally_unique_tzid.ics': {},
  'ical.js/google_birthday.ics': { repairs: [/^line \d+: RDATE:20131210Z read as a date/, /^3 overrides \(RECURRENCE-ID\) without their series: imported as events of their own$/] },
  'python-recurring-ical-events/issue_75_range_parameter.ics': {
    repairs: [/^RANGE=THISANDFUTURE at 2024-09-13 12:00:00: the series is split there/],
    known: { extra: ['2025-09-21T14:22:00Z'], why: 'UNTIL=20250920, a DATE in a rule of date-times: the calendar reads the whole day (its 12:00 UTC occurrence, moved by the override, is in), ical.js its first instant' },
    feedKnown: { extra: ['2025-09-21T14:22:00Z'], why: 'the same occurrence, written by the feed' },
  },
  // ical.js is wrong here; RFC 5545 (and python-recurring-ical-events' own tests) agree with the calendar.
  'ical.js/multiple_rrules.ics': { known: { extra: ['2012-07-29T18:00:00Z'], why: 'ical.js ends RRULE:FREQ=MONTHLY;BYDAY=SU;UNTIL=20120730T065959Z before its last Sunday (11:00 in Los Angeles, before UNTIL)' } },
  'python-recurring-ical-events/multiple_rrule.ics': {
    known: {
      extra: ['2023-03-23T10:00:00Z', '2023-03-30T09:00:00Z', '2023-04-06T09:00:00Z', '2023-04-13T09:00:00Z', '2023-04-20T09:00:00Z', '2023-04-27T09:00:00Z', '2023-05-04T09:00:00Z', '2023-05-11T09:00:00Z', '2023-05-18T09:00:00Z', '2023-05-25T09:00:00Z'],
      why: 'ical.js counts COUNT=20 of one RRULE and COUNT=2 of the other together; each rule has its own (RFC 5545; python-recurring-ical-events wants 20 + 2)',
    },
  },
  'icalendar/period_with_timezone.ics': { rules: PERIODS, known: COUNT_NINE },
  'python-recurring-ical-events/issue_113_period_in_rdate.ics': { rules: PERIODS, known: COUNT_NINE },
};

const quiet = createProgress({ write: () => true }, true);
let target: TestServer;
const table: { file: string; result: string }[] = [];

beforeAll(async () => {
  target = await startTestServer({ now: null });
}, 120_000);
afterAll(async () => {
  await target?.close();
  // The corpus table (docs/moving-from-other-calendars.md keeps a copy).
  console.log(table.map((r) => `| ${r.file} | ${r.result} |`).join('\n'));
});

const LIST = `query($filter: EventFilter, $page: Int) { events(filter: $filter, perPage: 50, page: $page) { totalCount nodes {
  titleRaw descriptionRaw allDay startDate endDate startDateUtc endDateUtc venues { nameRaw address } } } }`;

interface Node {
  titleRaw: string;
  descriptionRaw: string;
  allDay: boolean;
  startDate: string;
  endDate: string;
  startDateUtc: string;
  endDateUtc: string;
  venues: { nameRaw: string; address: string }[];
}

const iso = (wall: string) => `${wall.replace(' ', 'T')}Z`;
const nextDay = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + DAY).toISOString().slice(0, 10);
const unescape = (html: string) => html.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
const place = (text: string) =>
  text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean)
    .join(', ');

/** The calendar's occurrences starting in the window, as the reference describes them. */
async function ours(window: { from: Date; to: Date }): Promise<Occurrence[]> {
  const day = (d: Date) => d.toISOString().slice(0, 10);
  const filter = { startDate: day(new Date(window.from.getTime() - 2 * DAY)), endDate: day(new Date(window.to.getTime() + 2 * DAY)), statuses: ['PUBLISH', 'PRIVATE'] };
  const nodes: Node[] = [];
  for (let page = 1; ; page++) {
    const r = await retried(() => target.graphql(LIST, { filter, page }));
    expect(r.errors).toBeUndefined();
    nodes.push(...r.data.events.nodes);
    if (nodes.length >= r.data.events.totalCount || !r.data.events.nodes.length) break;
  }
  return nodes
    .map((n) => {
      const description = n.descriptionRaw.trimStart().startsWith('<') ? `html:${n.descriptionRaw}` : unescape(n.descriptionRaw);
      return {
        start: n.allDay ? n.startDate.slice(0, 10) : iso(n.startDateUtc),
        end: n.allDay ? nextDay(n.endDate.slice(0, 10)) : iso(n.endDateUtc),
        allDay: n.allDay,
        summary: unescape(n.titleRaw),
        location: n.venues.map((v) => [unescape(v.nameRaw), v.address].filter(Boolean).join(', ')).join(''),
        description,
      };
    })
    .filter((o) => {
      const ms = Date.parse(o.allDay ? `${o.start}T00:00:00Z` : o.start);
      return ms >= window.from.getTime() && ms < window.to.getTime();
    });
}

/** The reference's occurrences in the form the calendar stores them (title default, LOCATION lines, description text). */
const normalized = (list: Occurrence[]) =>
  list.map((o) => ({
    ...o,
    summary: o.summary || '(no title)',
    location: place(o.location),
    description: o.description.startsWith('html:') ? `html:${o.description.slice(5).replace(/\\([\\;,nN])/g, (_, c: string) => (/n/i.test(c) ? '\n' : c))}` : o.description,
  }));

/**
 * A feed's DESCRIPTION is text: an HTML description (X-ALT-DESC) is compared as its text, and
 * white space as a single space (a feed writer folds and trims).
 */
const textKey = (o: Occurrence) => {
  const html = o.description.startsWith('html:');
  const text = html
    ? o.description
        .slice(5)
        .replace(/<!DOCTYPE[^>]*>|<head>[\s\S]*?<\/head>/gi, '')
        .replace(/<(br|\/p|\/div|\/li|\/h\d)\b[^>]*>/gi, '\n')
        .replace(/<[^>]*>/g, '')
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&quot;/g, '"')
        .replace(/&amp;/g, '&')
    : o.description;
  return JSON.stringify([o.start, o.end, o.allDay, o.summary, o.location, text.replace(/\\n|\s+/g, ' ').trim()]);
};

/** What differs between two occurrence lists (as multisets): nothing when they are the same. */
function difference(expected: Occurrence[], actual: Occurrence[], key = (o: Occurrence) => JSON.stringify([o.start, o.end, o.allDay, o.summary, o.location, o.description.trim()])) {
  const left = new Map<string, number>();
  for (const o of expected) left.set(key(o), (left.get(key(o)) ?? 0) + 1);
  const extra: string[] = [];
  for (const o of actual) {
    const n = left.get(key(o)) ?? 0;
    if (n) left.set(key(o), n - 1);
    else extra.push(key(o));
  }
  const missing = [...left].flatMap(([k, n]) => Array<string>(n).fill(k));
  return { missing, extra };
}

/** The day of a file's first VEVENT DTSTART (read as written; a VTIMEZONE's do not count). */
function firstStart(text: string): Date | null {
  const events = [...text.matchAll(/BEGIN:VEVENT([\s\S]*?)END:VEVENT/g)].map((m) => m[1]!);
  const starts = events.flatMap((e) => [...e.matchAll(/^DTSTART[^:\r\n]*:(\d{4})(\d{2})(\d{2})/gm)].map((m) => Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!)));
  return starts.length ? new Date(Math.min(...starts)) : null;
}

const startsOf = (keys: string[]) => keys.map((k) => (JSON.parse(k) as string[])[0]!).sort();

describe('cal import --ics on the corpus', { timeout: 300_000 }, () => {
  it.each(FILES)('%s', async (file) => {
    const expectation = EXPECT[file] ?? {};
    const text = readFileSync(path.join(CORPUS, file), 'utf8');
    await target.reset();
    const t0 = firstStart(text) ?? new Date(Date.UTC(2026, 0, 1));
    const window = { from: new Date(t0.getTime() - DAY), to: new Date(t0.getTime() + WINDOW_DAYS * DAY) };
    // The import runs "now" at the file's first day: its series are materialized from there.
    const ctx = createContext({ prisma: target.db.prisma, settings: { ...defaultSiteSettings, timezone: 'UTC' }, viewer: { id: 0, login: 'cli', role: 'ADMINISTRATOR' }, now: t0 });
    const run = () => importFromIcs(ctx, { ics: path.join(CORPUS, file) }, quiet);
    let summary: Summary;
    try {
      summary = await run();
    } catch (error) {
      const reason = (error as Error).message;
      table.push({ file, result: `refused: ${reason}` });
      expect(expectation.refused, `refused: ${reason}`).toBeDefined();
      expect(reason).toMatch(expectation.refused!);
      return;
    }
    expect(expectation.refused, 'imported, not refused').toBeUndefined();
    const notes = (summary.repairs ?? []).map((r) => r.note);
    for (const r of expectation.repairs ?? []) expect(notes, `repairs of ${file}`).toContainEqual(expect.stringMatching(r));
    const reasons = summary.failures.map((f) => f.reason);
    expect(reasons, JSON.stringify(reasons)).toHaveLength(expectation.failures?.length ?? 0);
    (expectation.failures ?? []).forEach((r, i) => expect(reasons[i]).toMatch(r));

    const actual = await ours(window);
    const fixed = (expectation.fixText ?? []).reduce((t, [from, to]) => t.replace(from, to), text);
    const reference = normalized(referenceOccurrences(fixed, window, 'UTC', expectation.rules));
    const diff = difference(reference, actual);
    expect({ missing: startsOf(diff.missing), extra: startsOf(diff.extra) }, JSON.stringify(diff).slice(0, 2000)).toEqual({
      missing: expectation.known?.missing ?? [],
      extra: expectation.known?.extra ?? [],
    });

    // A second import of the same file writes nothing.
    const again = await run();
    expect(again.kinds.events).toMatchObject({ created: 0, updated: 0, failed: summary.kinds.events.failed });
    expect(await ours(window)).toEqual(actual);

    // The calendar's own feed of the window, expanded by ical.js, gives the same occurrences. A feed
    // holds FEED_MAX_EVENTS records: a window with more is shortened until it holds no more.
    const day = (d: Date) => d.toISOString().slice(0, 10);
    const listed = async (w: { from: Date; to: Date }) =>
      Number((await retried(() => target.api(`/events?start_date=${day(w.from)}&end_date=${day(new Date(w.to.getTime() - DAY))}&per_page=1`, { as: 'admin' }))).body.total);
    const feedWindow = { ...window };
    while ((await listed(feedWindow)) > FEED_MAX_EVENTS) feedWindow.to = new Date(feedWindow.from.getTime() + Math.floor((feedWindow.to.getTime() - feedWindow.from.getTime()) / DAY / 2) * DAY);
    const feed = await retried(() => target.request(`/events.ics?start_date=${day(feedWindow.from)}&end_date=${day(new Date(feedWindow.to.getTime() - DAY))}`, { as: 'admin' }));
    expect(feed.status).toBe(200);
    const within = (list: Occurrence[]) => list.filter((o) => Date.parse(o.allDay ? `${o.start}T00:00:00Z` : o.start) < feedWindow.to.getTime());
    const feedDiff = difference(within(reference), normalized(referenceOccurrences(feed.text, feedWindow, 'UTC')), textKey);
    expect({ missing: startsOf(feedDiff.missing), extra: startsOf(feedDiff.extra) }, JSON.stringify(feedDiff).slice(0, 2000)).toEqual({
      missing: expectation.feedKnown?.missing ?? [],
      extra: expectation.feedKnown?.extra ?? [],
    });

    const counts = summary.kinds.events;
    table.push({
      file,
      result: [
        `${counts.created} events${counts.skipped ? ` (${counts.skipped} cancelled)` : ''}, ${actual.length} occurrences in the window`,
        expectation.known ? `same as ical.js but ${[...(expectation.known.extra ?? []), ...(expectation.known.missing ?? [])].length} (${expectation.known.why})` : 'same as ical.js',
        notes.length ? `${notes.length} repaired or skipped` : '',
        reasons.length ? `${reasons.length} VEVENT(s) refused: ${[...new Set(reasons.map((r) => r.replace(/^UID \S+: /, '')))].join('; ')}` : '',
      ]
        .filter(Boolean)
        .join('; '),
    });
  });
});
