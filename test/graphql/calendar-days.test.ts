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
});
