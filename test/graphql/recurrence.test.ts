/** Recurring series through GraphQL: rule expansion on wall clocks, occurrences, overrides, bad input. */
import { describe, expect, it } from 'vitest';
import { useGraphQLHarness, type GraphQLHarness } from '../helpers/graphql.ts';

const NOW = new Date('2026-11-21T11:55:56Z');
let h: GraphQLHarness;
const statements: string[] = [];
let counting = false;
useGraphQLHarness((harness) => (h = harness), { now: () => NOW, onQuery: (sql) => counting && statements.push(sql) });

const OCC = `databaseId title slug startDate endDate startDateUtc endDateUtc occurrenceOverridden`;
const EVENT_FIELDS = `
    ${OCC} status
    recurrence { rule text start exdates rdates }
    series { databaseId }
    occurrences(first: 1000) { ${OCC} series { databaseId } }
`;
// Mutations answer a union (a payload with the event, or a typed error); reads answer the event itself.
const SERIES_FIELDS = (payload: string) => `
  ... on ${payload} { event { ${EVENT_FIELDS} } }
  ... on Error { __typename code message }
  ... on ValidationError { field }
`;
/** A write's event, or the typed error. */
const written = (r: { event?: any }): any => r.event ?? r;
const CREATE = `mutation($input: CreateEventInput!) { createEvent(input: $input) { ${SERIES_FIELDS('CreateEventSuccess')} } }`;
const GET = `query($id: ID) { event(id: $id) { ${EVENT_FIELDS} } }`;
const CANCEL = `mutation($id: ID!) { cancelOccurrence(id: $id) { ${SERIES_FIELDS('CancelOccurrenceSuccess')} } }`;

const series = async (startDate: string, endDate: string, recurrence: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  written((await h.ok(CREATE, { input: { title: 'Jazz', startDate, endDate, recurrence, ...extra } })).createEvent);
const starts = (e: { occurrences: { startDate: string }[] }) => e.occurrences.map((o) => o.startDate);
const utcStarts = (e: { occurrences: { startDateUtc: string }[] }) => e.occurrences.map((o) => o.startDateUtc);

describe('rule expansion on wall clocks', () => {
  it('keeps 19:00 across both DST changes in America/New_York', async () => {
    const e = await series('2027-03-09 19:00:00', '2027-03-09 21:00:00', { rule: 'FREQ=WEEKLY;BYDAY=TU;COUNT=3' }, { timezone: 'America/New_York' });
    expect(starts(e)).toEqual(['2027-03-09 19:00:00', '2027-03-16 19:00:00', '2027-03-23 19:00:00']);
    // 2027-03-14: EST (UTC-5) → EDT (UTC-4).
    expect(utcStarts(e)).toEqual(['2027-03-10 00:00:00', '2027-03-16 23:00:00', '2027-03-23 23:00:00']);
    const fall = await series('2027-10-30 19:00:00', '2027-10-30 20:00:00', { rule: 'FREQ=DAILY;COUNT=3' }, { timezone: 'America/New_York', slug: 'fall' });
    expect(utcStarts(fall)).toEqual(['2027-10-30 23:00:00', '2027-10-31 23:00:00', '2027-11-01 23:00:00']);
    // 2027-11-07: EDT → EST.
    const nov = await series('2027-11-06 19:00:00', '2027-11-06 20:00:00', { rule: 'FREQ=DAILY;COUNT=2' }, { timezone: 'America/New_York', slug: 'nov' });
    expect(utcStarts(nov)).toEqual(['2027-11-06 23:00:00', '2027-11-08 00:00:00']);
  });

  it('keeps 10:00 across the Europe/Paris change, and moves a DST-gap time forward (documented rule)', async () => {
    const e = await series('2027-03-27 10:00:00', '2027-03-27 11:00:00', { rule: 'FREQ=DAILY;COUNT=2' }, { timezone: 'Europe/Paris' });
    expect(starts(e)).toEqual(['2027-03-27 10:00:00', '2027-03-28 10:00:00']);
    expect(utcStarts(e)).toEqual(['2027-03-27 09:00:00', '2027-03-28 08:00:00']);
    const gap = await series('2027-03-27 02:30:00', '2027-03-27 03:00:00', { rule: 'FREQ=DAILY;COUNT=2' }, { timezone: 'Europe/Paris', slug: 'gap' });
    // 2027-03-28 02:30 does not exist in Paris: the instant is 03:30 CEST (01:30 UTC), as RFC 5545 says.
    expect(utcStarts(gap)).toEqual(['2027-03-27 01:30:00', '2027-03-28 01:30:00']);
  });

  it('expands leap days, month ends (BYMONTHDAY=-1), numbered weekdays and BYSETPOS', async () => {
    const leap = await series('2028-02-29 12:00:00', '2028-02-29 13:00:00', { rule: 'FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29;COUNT=2' }, { timezone: 'UTC' });
    // The next one (2032-02-29) is past the horizon (series start + 730 days): not materialized yet.
    expect(starts(leap)).toEqual(['2028-02-29 12:00:00']);
    const ends = await series('2027-01-31 18:00:00', '2027-01-31 19:00:00', { rule: 'FREQ=MONTHLY;BYMONTHDAY=-1;COUNT=4' }, { slug: 'ends' });
    expect(starts(ends)).toEqual(['2027-01-31 18:00:00', '2027-02-28 18:00:00', '2027-03-31 18:00:00', '2027-04-30 18:00:00']);
    const nth = await series('2027-01-12 19:00:00', '2027-01-12 20:00:00', { rule: 'FREQ=MONTHLY;BYDAY=2TU,-1FR;COUNT=4' }, { slug: 'nth' });
    expect(starts(nth)).toEqual(['2027-01-12 19:00:00', '2027-01-29 19:00:00', '2027-02-09 19:00:00', '2027-02-26 19:00:00']);
    const setpos = await series('2027-01-29 19:00:00', '2027-01-29 20:00:00', { rule: 'FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1;COUNT=3' }, { slug: 'sp' });
    expect(starts(setpos)).toEqual(['2027-01-29 19:00:00', '2027-02-26 19:00:00', '2027-03-31 19:00:00']);
  });

  it('applies EXDATE and RDATE, gives each occurrence its own post ID and slug, and describes the rule', async () => {
    const e = await series(
      '2027-01-05 19:00:00',
      '2027-01-05 21:00:00',
      { rule: 'FREQ=WEEKLY;BYDAY=TU;UNTIL=20270127T000000Z', exdates: ['2027-01-12'], rdates: ['2027-01-30 15:00:00'] },
      { timezone: 'America/New_York' },
    );
    expect(e.recurrence).toEqual({
      rule: 'FREQ=WEEKLY;BYDAY=TU;UNTIL=20270127T000000Z',
      text: 'every week on Tuesday until January 26, 2027',
      start: '2027-01-05 19:00:00',
      exdates: ['2027-01-12 19:00:00'],
      rdates: ['2027-01-30 15:00:00'],
    });
    expect(starts(e)).toEqual(['2027-01-05 19:00:00', '2027-01-19 19:00:00', '2027-01-26 19:00:00', '2027-01-30 15:00:00']);
    expect(e.occurrences[3].endDate).toBe('2027-01-30 17:00:00');
    expect(e.occurrences[0].databaseId).toBe(e.databaseId);
    expect(new Set(e.occurrences.map((o: { databaseId: number }) => o.databaseId)).size).toBe(4);
    expect(e.occurrences.map((o: { slug: string }) => o.slug)).toEqual(['jazz', 'jazz-2027-01-19', 'jazz-2027-01-26', 'jazz-2027-01-30']);
    for (const o of e.occurrences) expect(o.series.databaseId).toBe(e.databaseId);
    const second = (await h.ok(GET, { id: e.occurrences[1].databaseId })).event;
    expect(second.recurrence.rule).toBe(e.recurrence.rule);
    expect(starts(second)).toEqual(starts(e));
  });

  it('describes the rule in the REST languages (English by default and for unknown languages)', async () => {
    const e = await series('2027-03-02 19:00:00', '2027-03-02 21:00:00', { rule: 'FREQ=WEEKLY;BYDAY=TU;UNTIL=20270630' });
    const q = `query($id: ID) { event(id: $id) { recurrence { en: text de: text(lang: "de") fr: text(lang: "fr") pl: text(lang: "pl") xx: text(lang: "xx") } } }`;
    expect((await h.ok(q, { id: e.databaseId })).event.recurrence).toEqual({
      en: 'every week on Tuesday until June 30, 2027',
      de: 'jede Woche am Dienstag bis 30. Juni 2027',
      fr: "chaque semaine le mardi jusqu'au 30 juin 2027",
      pl: 'co tydzień w wtorek do 30 czerwca 2027',
      xx: 'every week on Tuesday until June 30, 2027',
    });
  });

  it('materializes an infinite rule up to the horizon only, and windows occurrences', async () => {
    const e = await series('2026-12-01 19:00:00', '2026-12-01 20:00:00', { rule: 'FREQ=WEEKLY' });
    // The horizon runs 730 days from the later of now and the series start: to 2028-11-30 19:00.
    expect(e.occurrences).toHaveLength(105);
    expect(e.occurrences.at(-1).startDate).toBe('2028-11-28 19:00:00');
    const q = `query($id: ID) { event(id: $id) { occurrences(after: "2027-01-01", before: "2027-02-01", first: 3) { startDate } } }`;
    expect((await h.ok(q, { id: e.databaseId })).event.occurrences.map((o: { startDate: string }) => o.startDate)).toEqual([
      '2027-01-05 19:00:00',
      '2027-01-12 19:00:00',
      '2027-01-19 19:00:00',
    ]);
  });

  it('unions several rules, and makes a series of RDATEs without any rule', async () => {
    const two = await series('2027-01-04 18:00:00', '2027-01-04 19:00:00', { rules: ['FREQ=WEEKLY;BYDAY=MO;COUNT=2', 'FREQ=MONTHLY;BYMONTHDAY=20;COUNT=2'] }, { slug: 'two' });
    expect(starts(two)).toEqual(['2027-01-04 18:00:00', '2027-01-11 18:00:00', '2027-01-20 18:00:00', '2027-02-20 18:00:00']);
    expect(two.recurrence).toMatchObject({ rule: 'FREQ=WEEKLY;BYDAY=MO;COUNT=2', text: 'every week on Monday for 2 times; every month on the 20th for 2 times' });
    const dates = await series('2027-02-01 10:00:00', '2027-02-01 12:00:00', { rdates: ['2027-03-01 10:00:00', '2027-04-05'] }, { slug: 'dates' });
    expect(starts(dates)).toEqual(['2027-02-01 10:00:00', '2027-03-01 10:00:00', '2027-04-05 10:00:00']);
    expect(dates.recurrence).toMatchObject({ rule: '', text: '', rdates: ['2027-03-01 10:00:00', '2027-04-05 10:00:00'] });
    const none = await h.gql(CREATE, { input: { title: 'None', startDate: '2027-02-01 10:00:00', endDate: '2027-02-01 11:00:00', recurrence: { exdates: ['2027-02-01'] } } });
    expect(none.data.createEvent).toMatchObject({ __typename: 'ValidationError', code: 'EMPTY' });
  });

  it('bounds a long or old series by the horizon instead of refusing it: at most 1000 occurrences from now on, 1000 before', async () => {
    const long = await series('2027-01-01 09:00:00', '2027-01-01 10:00:00', { rule: 'FREQ=DAILY;COUNT=5000' }, { slug: 'long' });
    // 730 days from the series start (after now): the rest of the 5000 comes as time passes.
    expect(long.occurrences).toHaveLength(731);
    expect(long.occurrences.at(-1).startDate).toBe('2028-12-31 09:00:00');
    const old = await series('2019-01-01 07:00:00', '2019-01-01 08:00:00', { rule: 'FREQ=DAILY' }, { slug: 'old' });
    // Begun seven years ago: the last 1000 days before now (2026-11-21 06:55 in New York), and 730 days ahead.
    expect(old.startDate).toBe('2024-02-25 07:00:00');
    expect(old.recurrence.start).toBe('2019-01-01 07:00:00');
    const q = `query($id: ID) { event(id: $id) { occurrences(first: 1000, after: "2026-11-22") { startDate } } }`;
    const ahead = (await h.ok(q, { id: old.databaseId })).event.occurrences;
    expect(ahead).toHaveLength(729);
    expect(ahead.at(-1).startDate).toBe('2028-11-19 07:00:00');
  });
});

describe('Query.events with series', () => {
  const LIST = `query($filter: EventFilter, $perPage: Int) { events(filter: $filter, perPage: $perPage) {
    totalCount edges { node { databaseId title startDate
      venues { databaseId name } organizers { databaseId name } categories { databaseId name count } tags { name }
      parent { databaseId } series { databaseId } recurrence { rule } occurrenceOverridden } } } }`;
  const rows = (r: { events: { edges: { node: { title: string; startDate: string } }[] } }) => r.events.edges.map((e) => `${e.node.startDate} ${e.node.title}`);

  it('lists one row per occurrence (EXPAND, the default) or one per series (SERIES), totals included', async () => {
    const input = { venues: [{ create: { name: 'Hall' } }], organizers: [{ create: { name: 'Org' } }], categories: ['music'], tags: ['live'] };
    const weekly = await series('2027-01-05 19:00:00', '2027-01-05 21:00:00', { rule: 'FREQ=WEEKLY;COUNT=10' }, input);
    await series('2027-01-06 10:00:00', '2027-01-06 11:00:00', { rule: 'FREQ=DAILY;COUNT=3' }, { title: 'Daily', slug: 'daily' });
    await h.ok(`mutation { createEvent(input: { title: "Lone", startDate: "2027-02-01 10:00", endDate: "2027-02-01 11:00" }) { ... on CreateEventSuccess { event { databaseId } } } }`);
    const window = { startDate: '2027-01-01', endDate: '2027-03-31' };
    const expand = await h.ok(LIST, { filter: window, perPage: 50 }, { as: null });
    expect(expand.events.totalCount).toBe(14);
    expect(await h.ok(LIST, { filter: { ...window, occurrences: 'EXPAND' }, perPage: 50 }, { as: null })).toEqual(expand);
    const perSeries = await h.ok(LIST, { filter: { ...window, occurrences: 'SERIES' }, perPage: 50 }, { as: null });
    expect(perSeries.events.totalCount).toBe(3);
    expect(rows(perSeries)).toEqual(['2027-01-05 19:00:00 Jazz', '2027-01-06 10:00:00 Daily', '2027-02-01 10:00:00 Lone']);
    expect(perSeries.events.edges[0].node.databaseId).toBe(weekly.databaseId);
    // A window holding only later occurrences still lists the series (by its own row), once.
    const later = await h.ok(LIST, { filter: { startDate: '2027-02-20', endDate: '2027-03-31', occurrences: 'SERIES' } }, { as: null });
    expect(rows(later)).toEqual(['2027-01-05 19:00:00 Jazz']);
    expect((await h.ok(LIST, { filter: { startDate: '2027-02-20', endDate: '2027-03-31' } }, { as: null })).events.totalCount).toBe(3);
    // Other filters apply to the occurrences too.
    expect((await h.ok(LIST, { filter: { ...window, categories: ['music'], occurrences: 'SERIES' } }, { as: null })).events.totalCount).toBe(1);
  });

  it('lists a page of 50 occurrences with every relation in as many SQL statements as plain events (at most 6)', async () => {
    const input = {
      venues: [{ create: { name: 'Hall' } }],
      organizers: [{ create: { name: 'Org A' } }, { create: { name: 'Org B' } }],
      categories: ['music', 'jazz'],
      tags: ['live'],
    };
    for (let i = 0; i < 3; i++) {
      await series(`2027-01-0${i + 5} 19:00:00`, `2027-01-0${i + 5} 21:00:00`, { rule: 'FREQ=WEEKLY;COUNT=30' }, { ...input, slug: `s${i}` });
    }
    statements.length = 0;
    counting = true;
    const r = await h.ok(LIST, { filter: { startDate: '2027-01-01', endDate: '2028-01-01' }, perPage: 50 }, { as: null });
    counting = false;
    expect(r.events.totalCount).toBe(90);
    expect(r.events.edges).toHaveLength(50);
    expect(r.events.edges.every((e: { node: { series: unknown; recurrence: unknown; organizers: unknown[] } }) => e.node.series && e.node.recurrence && e.node.organizers.length === 2)).toBe(true);
    expect(statements.length).toBeLessThanOrEqual(6);
    const withSeries = statements.length;
    // The same page as single events: the statements do not grow with recurrence.
    await h.db.prisma.$executeRawUnsafe(`UPDATE "Event" SET "parentId" = NULL, "recurrenceRules" = '{}', "recurrenceStart" = NULL`);
    await h.db.prisma.eventOccurrence.deleteMany({});
    statements.length = 0;
    counting = true;
    const plain = await h.ok(LIST, { filter: { startDate: '2027-01-01', endDate: '2028-01-01' }, perPage: 50 }, { as: null });
    counting = false;
    expect(plain.events.totalCount).toBe(90);
    expect(withSeries).toBe(statements.length);
  });
});

describe('cancelOccurrence', () => {
  it('adds an EXDATE and deletes the occurrence; the first one moves the series to the next', async () => {
    const e = await series('2027-01-05 19:00:00', '2027-01-05 21:00:00', { rule: 'FREQ=WEEKLY;COUNT=4' });
    const [first, second, third] = e.occurrences.map((o: { databaseId: number }) => o.databaseId);
    const after = written((await h.ok(CANCEL, { id: third })).cancelOccurrence);
    expect(after.recurrence.exdates).toEqual(['2027-01-19 19:00:00']);
    expect(starts(after)).toEqual(['2027-01-05 19:00:00', '2027-01-12 19:00:00', '2027-01-26 19:00:00']);
    expect((await h.gql(GET, { id: third })).data.event).toBeNull();
    const moved = written((await h.ok(CANCEL, { id: first })).cancelOccurrence);
    expect(moved.databaseId).toBe(first);
    expect(moved.startDate).toBe('2027-01-12 19:00:00');
    expect(starts(moved)).toEqual(['2027-01-12 19:00:00', '2027-01-26 19:00:00']);
    expect((await h.gql(GET, { id: second })).data.event).toBeNull();
    const single = (await h.ok(`mutation { createEvent(input: { title: "One", startDate: "2027-01-01 10:00", endDate: "2027-01-01 11:00" }) { ... on CreateEventSuccess { event { databaseId } } } }`)).createEvent.event;
    expect((await h.ok(CANCEL, { id: single.databaseId })).cancelOccurrence).toMatchObject({ code: 'NOT_AN_OCCURRENCE' });
  });
});

describe('bad input gets a typed error, never a crash or a hang', () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ['unknown FREQ', { rule: 'FREQ=FOO' }, 'UNSUPPORTED_RULE'],
    ['sub-daily FREQ', { rule: 'FREQ=HOURLY' }, 'UNSUPPORTED_RULE'],
    ['garbage', { rule: 'every tuesday' }, 'INVALID_RULE'],
    ['empty', { rule: ' ' }, 'EMPTY'],
    ['bad BYDAY', { rule: 'FREQ=WEEKLY;BYDAY=XX' }, 'INVALID_RULE'],
    ['COUNT with UNTIL', { rule: 'FREQ=DAILY;COUNT=3;UNTIL=20271231' }, 'COUNT_AND_UNTIL'],
    ['never matching', { rule: 'FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30' }, 'EMPTY_SERIES'],
    ['impossible BYSETPOS', { rule: 'FREQ=MONTHLY;BYDAY=MO;BYSETPOS=31' }, 'EMPTY_SERIES'],
    ['everything excluded', { rule: 'FREQ=DAILY;COUNT=1', exdates: ['2027-01-05'] }, 'EMPTY_SERIES'],
    ['UNTIL before the start', { rule: 'FREQ=DAILY;UNTIL=20260101' }, 'EMPTY_SERIES'],
    ['bad EXDATE', { rule: 'FREQ=DAILY;COUNT=3', exdates: ['2027-02-30'] }, 'INVALID_DATE'],
  ];
  it.each(cases)('%s', async (_name, recurrence, code) => {
    const r = await h.gql(CREATE, { input: { title: 'Bad', startDate: '2027-01-05 19:00:00', endDate: '2027-01-05 20:00:00', recurrence } });
    expect(r.errors).toBeUndefined();
    expect(r.data.createEvent).toMatchObject({ __typename: 'ValidationError', code });
    // Nothing was written.
    const list = await h.ok(`{ events(filter: { startsAfter: "2026-01-01" }) { totalCount } }`);
    expect(list.events.totalCount).toBe(0);
  });
});

describe('updateEvent scopes', () => {
  const UPDATE = `mutation($id: ID, $input: UpdateEventInput!, $scope: RecurrenceScope) {
    updateEvent(id: $id, input: $input, scope: $scope) { ${SERIES_FIELDS('UpdateEventSuccess')} }
  }`;
  const update = async (id: number, input: Record<string, unknown>, scope?: string) => written((await h.ok(UPDATE, { id, input, scope })).updateEvent);
  const titles = (e: { occurrences: { title: string; startDate: string }[] }) => e.occurrences.map((o) => `${o.startDate} ${o.title}`);

  it('THIS edits one occurrence (an override that keeps its ID and survives ALL time changes)', async () => {
    const e = await series('2027-01-05 19:00:00', '2027-01-05 21:00:00', { rule: 'FREQ=WEEKLY;COUNT=3' });
    const ids = e.occurrences.map((o: { databaseId: number }) => o.databaseId);
    const one = await update(ids[1], { title: 'Guest night', startDate: '2027-01-12 20:00:00', endDate: '2027-01-12 23:00:00' });
    expect(one).toMatchObject({ databaseId: ids[1], title: 'Guest night', occurrenceOverridden: true });
    const all = await update(ids[2], { title: 'Jazz Club', startDate: '2027-01-05 18:00:00', endDate: '2027-01-05 20:00:00' }, 'ALL');
    expect(titles(all)).toEqual(['2027-01-05 18:00:00 Jazz Club', '2027-01-12 20:00:00 Jazz Club', '2027-01-19 18:00:00 Jazz Club']);
    expect(all.occurrences.map((o: { databaseId: number }) => o.databaseId)).toEqual(ids);
    expect(all.occurrences[2].endDate).toBe('2027-01-19 20:00:00');
    expect(all.occurrences[1].occurrenceOverridden).toBe(true);
  });

  it('ALL with a new rule re-materializes: kept dates keep their IDs, new ones appear, dropped ones go', async () => {
    const e = await series('2027-01-05 19:00:00', '2027-01-05 21:00:00', { rule: 'FREQ=WEEKLY;COUNT=3' });
    const ids = e.occurrences.map((o: { databaseId: number }) => o.databaseId);
    const all = await update(e.databaseId, { recurrence: { rule: 'FREQ=WEEKLY;INTERVAL=2;COUNT=3' } }, 'ALL');
    expect(starts(all)).toEqual(['2027-01-05 19:00:00', '2027-01-19 19:00:00', '2027-02-02 19:00:00']);
    expect(all.occurrences[1].databaseId).toBe(ids[2]);
    expect((await h.gql(GET, { id: ids[1] })).data.event).toBeNull();
  });

  it('THIS_AND_FOLLOWING splits the series: the occurrence heads a new series of the following ones', async () => {
    const e = await series('2027-01-05 19:00:00', '2027-01-05 21:00:00', { rule: 'FREQ=WEEKLY;COUNT=5', exdates: ['2027-02-02'] });
    const ids = e.occurrences.map((o: { databaseId: number }) => o.databaseId);
    expect(ids).toHaveLength(4);
    const split = await update(ids[2], { title: 'Late Jazz', startDate: '2027-01-19 21:00:00', endDate: '2027-01-19 23:00:00' }, 'THIS_AND_FOLLOWING');
    expect(split.databaseId).toBe(ids[2]);
    expect(split.series.databaseId).toBe(ids[2]);
    expect(split.recurrence).toMatchObject({ rule: 'FREQ=WEEKLY;COUNT=3', exdates: ['2027-02-02 21:00:00'] });
    expect(titles(split)).toEqual(['2027-01-19 21:00:00 Late Jazz', '2027-01-26 21:00:00 Late Jazz']);
    expect(split.occurrences.map((o: { databaseId: number }) => o.databaseId)).toEqual([ids[2], ids[3]]);
    const old = (await h.ok(GET, { id: e.databaseId })).event;
    expect(old.recurrence.rule).toBe('FREQ=WEEKLY;UNTIL=20270119T235959Z');
    expect(titles(old)).toEqual(['2027-01-05 19:00:00 Jazz', '2027-01-12 19:00:00 Jazz']);
  });

  it('gives a single event a recurrence with scope ALL, and refuses a rule change with scope THIS', async () => {
    const single = (await h.ok(`mutation { createEvent(input: { title: "Solo", startDate: "2027-01-05 10:00", endDate: "2027-01-05 11:00" }) { ... on CreateEventSuccess { event { databaseId } } } }`)).createEvent.event;
    const s = await update(single.databaseId, { recurrence: { rule: 'FREQ=DAILY;COUNT=2' } }, 'ALL');
    expect(starts(s)).toEqual(['2027-01-05 10:00:00', '2027-01-06 10:00:00']);
    expect((await h.ok(UPDATE, { id: s.occurrences[1].databaseId, input: { recurrence: { rule: 'FREQ=DAILY' } } })).updateEvent).toMatchObject({
      code: 'SCOPE_REQUIRED',
    });
  });
});

describe('deleting a series', () => {
  it('trashes, restores and purges its occurrences with it', async () => {
    const e = await series('2027-01-05 19:00:00', '2027-01-05 21:00:00', { rule: 'FREQ=WEEKLY;COUNT=3' });
    const ids = e.occurrences.map((o: { databaseId: number }) => o.databaseId);
    const status = async (id: number) => (await h.ok(`query($id: ID) { event(id: $id) { status } }`, { id })).event;
    await h.ok(`mutation($id: ID) { deleteEvent(id: $id) { ... on DeleteEventSuccess { event { status } } } }`, { id: e.databaseId });
    expect(await status(ids[2])).toEqual({ status: 'TRASH' });
    await h.ok(`mutation($id: ID) { restoreEvent(id: $id) { ... on RestoreEventSuccess { event { status } } } }`, { id: e.databaseId });
    expect(await status(ids[2])).toEqual({ status: 'PUBLISH' });
    await h.ok(`mutation($id: ID) { deleteEvent(id: $id) { ... on DeleteEventSuccess { event { status } } } }`, { id: e.databaseId });
    await h.ok(`mutation($id: ID) { purgeEvent(id: $id) { ... on Error { code } } }`, { id: e.databaseId });
    expect(await status(ids[2])).toBeNull(); // purged: not found
  });
});
