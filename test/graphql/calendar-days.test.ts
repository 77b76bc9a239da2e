// Query.calendarDays (the month and day views' data) in the site's frame: timezone mode `site`
// places events by their instant in the site's zone; the multi-day cutoff moves the day boundary.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';

let s: TestServer;
const Q = `query($from: String!, $to: String!, $filter: EventFilter, $per: Int) {
  calendarDays(from: $from, to: $to, filter: $filter, eventsPerDay: $per) { date today totalCount events { title } }
}`;

beforeAll(async () => {
  // Site zone America/New_York; clock 2026-11-21 07:12 there.
  s = await startTestServer({ env: { CAL_TIMEZONE_MODE: 'site', CAL_MULTIDAY_CUTOFF: '06:00' } });
  // 01:00 in Paris on Dec 3 is 19:00 on Dec 2 in New York.
  await s.create('/events', { title: 'Paris Night', start_date: '2026-12-03 01:00', end_date: '2026-12-03 02:00', timezone: 'Europe/Paris' });
  // Ends before the 06:00 cutoff: one day only.
  await s.create('/events', { title: 'Late Party', start_date: '2026-12-04 21:00', end_date: '2026-12-05 04:00', timezone: 'America/New_York' });
  await s.create('/events', { title: 'Draft', start_date: '2026-12-04 10:00', end_date: '2026-12-04 11:00', status: 'draft' });
  // December 10: an all-day event, one running since the day before, two starting that day.
  const ny = { timezone: 'America/New_York' };
  await s.create('/events', { title: 'Night Run', start_date: '2026-12-10 22:00', end_date: '2026-12-11 09:00', ...ny });
  await s.create('/events', { title: 'Fair', start_date: '2026-12-09 10:00', end_date: '2026-12-11 18:00', ...ny });
  await s.create('/events', { title: 'Breakfast', start_date: '2026-12-10 08:00', end_date: '2026-12-10 09:00', ...ny });
  await s.create('/events', { title: 'Holiday', start_date: '2026-12-10 00:00', end_date: '2026-12-10 23:59', all_day: true, ...ny });
  // Before the 06:00 cutoff: still the 9th.
  await s.create('/events', { title: 'Early Bird', start_date: '2026-12-10 05:00', end_date: '2026-12-10 05:30', ...ny });
}, 60_000);
afterAll(async () => s?.close());

/** The query as an anonymous caller (`s.graphql` signs in as admin). */
async function anonymous(variables: Record<string, unknown>) {
  const r = await s.request('/graphql', { method: 'POST', body: { query: Q, variables } });
  expect(r.status).toBe(200);
  return r.body;
}

const titles = (days: { date: string; events: { title: string }[] }[]) => Object.fromEntries(days.filter((d) => d.events.length).map((d) => [d.date, d.events.map((e) => e.title)]));

describe('Query.calendarDays', () => {
  it('places events on the site-zone days they span, cutoff applied; published only for anonymous callers', async () => {
    const r = await anonymous({ from: '2026-12-01', to: '2026-12-07' });
    expect(r.errors).toBeUndefined();
    expect(r.data.calendarDays).toHaveLength(7);
    expect(titles(r.data.calendarDays)).toEqual({ '2026-12-02': ['Paris Night'], '2026-12-04': ['Late Party'] });
    const admin = await s.graphql(Q, { from: '2026-12-04', to: '2026-12-04', filter: { statuses: ['PUBLISH', 'DRAFT'] } }, 'admin');
    expect(titles(admin.data.calendarDays)).toEqual({ '2026-12-04': ['Draft', 'Late Party'] });
  });

  it('eventsPerDay caps a day, totalCount still counts; today is the site day', async () => {
    const r = await anonymous({ from: '2026-11-21', to: '2026-11-21' });
    expect(r.data.calendarDays[0]).toMatchObject({ date: '2026-11-21', today: true, totalCount: 0 });
    const capped = await s.graphql(Q, { from: '2026-12-04', to: '2026-12-04', filter: { statuses: ['PUBLISH', 'DRAFT'] }, per: 1 }, 'admin');
    expect(capped.data.calendarDays[0]).toMatchObject({ totalCount: 2, events: [{ title: 'Draft' }] });
    const bad = await anonymous({ from: '2026-12-04', to: '2026-12-04', per: -1 });
    expect((bad.errors?.[0] as { extensions?: { code?: string } }).extensions?.code).toBe('INVALID');
  });

  it('orders a day as TEC\'s day view: all-day, then ongoing (begun on an earlier day), then by start; Event.daySpan names the days', async () => {
    const q = `query($from: String!, $to: String!) { calendarDays(from: $from, to: $to) { date events { title daySpan { first last } } } }`;
    const r = await anonymous({ from: '2026-12-09', to: '2026-12-11' });
    expect(r.errors).toBeUndefined();
    expect(titles(r.data.calendarDays)).toEqual({
      '2026-12-09': ['Fair', 'Early Bird'],
      '2026-12-10': ['Holiday', 'Fair', 'Breakfast', 'Night Run'],
      '2026-12-11': ['Fair', 'Night Run'],
    });
    const spans = await s.request('/graphql', { method: 'POST', body: { query: q, variables: { from: '2026-12-10', to: '2026-12-10' } } });
    expect(Object.fromEntries(spans.body.data.calendarDays[0].events.map((e: { title: string; daySpan: unknown }) => [e.title, e.daySpan]))).toEqual({
      Holiday: { first: '2026-12-10', last: '2026-12-10' },
      Fair: { first: '2026-12-09', last: '2026-12-11' },
      Breakfast: { first: '2026-12-10', last: '2026-12-10' },
      'Night Run': { first: '2026-12-10', last: '2026-12-11' },
    });
    const early = await s.graphql(`{ events(filter: { search: "Early Bird" }) { nodes { daySpan { first last } } } }`);
    expect(early.data.events.nodes).toEqual([{ daySpan: { first: '2026-12-09', last: '2026-12-09' } }]);
  });
});
