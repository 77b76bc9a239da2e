/** Recurring series in the REST API: each occurrence is an event of its own in lists and reads. Server clock 2026-11-21. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';

let s: TestServer;
let seriesId: number;
let occurrenceIds: number[];
beforeAll(async () => {
  s = await startTestServer();
  const r = await s.graphql(
    `mutation($input: CreateEventInput!) { createEvent(input: $input) { ... on CreateEventSuccess { event { databaseId occurrences { databaseId } } } ... on Error { code message } } }`,
    {
      input: {
        title: 'Tuesday Jazz',
        startDate: '2027-03-02 19:00:00',
        endDate: '2027-03-02 21:00:00',
        timezone: 'America/New_York',
        categories: ['Music'],
        venues: [{ create: { name: 'Blue Room' } }],
        recurrence: { rule: 'FREQ=WEEKLY;BYDAY=TU;COUNT=6', exdates: ['2027-03-16'] },
      },
    },
  );
  seriesId = r.data.createEvent.event.databaseId;
  occurrenceIds = r.data.createEvent.event.occurrences.map((o: { databaseId: number }) => o.databaseId);
  // A single event in the middle, to check ordering and totals.
  const single = await s.api('/events', { method: 'POST', as: 'admin', body: { title: 'Lone Gig', start_date: '2027-03-10 20:00:00', end_date: '2027-03-10 22:00:00' } });
  expect(single.status).toBe(201);
});
afterAll(async () => {
  await s?.close();
});

describe('GET /events with a series', () => {
  it('lists every occurrence as an event with its own ID, the series fields and its own dates', async () => {
    expect(occurrenceIds).toHaveLength(5);
    const r = await s.api('/events?start_date=2027-03-01&end_date=2027-04-30&per_page=10');
    expect(r.status).toBe(200);
    expect(r.body.total).toBe(6);
    const rows = r.body.events.map((e: { id: number; title: string; start_date: string; utc_start_date: string }) => [e.id, e.title, e.start_date, e.utc_start_date]);
    expect(rows.map((x: unknown[]) => x[2])).toEqual([
      '2027-03-02 19:00:00',
      '2027-03-09 19:00:00',
      '2027-03-10 20:00:00',
      '2027-03-23 19:00:00',
      '2027-03-30 19:00:00',
      '2027-04-06 19:00:00',
    ]);
    // 19:00 on the wall clock across the 2027-03-14 DST change.
    expect(rows[0][3]).toBe('2027-03-03 00:00:00');
    expect(rows[3][3]).toBe('2027-03-23 23:00:00');
    expect(rows[0][0]).toBe(seriesId);
    const occurrence = r.body.events[1];
    expect(occurrence.title).toBe('Tuesday Jazz');
    expect(occurrence.categories.map((c: { name: string }) => c.name)).toEqual(['Music']);
    expect(occurrence.venue.venue).toBe('Blue Room');
  });

  it('applies date windows, pagination totals and other filters to occurrences', async () => {
    const page = await s.api('/events?start_date=2027-03-01&end_date=2027-04-30&per_page=4&page=2');
    expect(page.body.total).toBe(6);
    expect(page.body.total_pages).toBe(2);
    expect(page.body.events.map((e: { start_date: string }) => e.start_date)).toEqual(['2027-03-30 19:00:00', '2027-04-06 19:00:00']);
    const window = await s.api('/events?start_date=2027-03-20&end_date=2027-03-31');
    expect(window.body.total).toBe(2);
    const music = await s.api('/events?start_date=2027-03-01&end_date=2027-04-30&categories=music');
    expect(music.body.total).toBe(5);
    const search = await s.api('/events?start_date=2027-03-01&end_date=2027-04-30&search=lone');
    expect(search.body.total).toBe(1);
  });

  it('reads an occurrence at /events/{id} with its own dates', async () => {
    const r = await s.api(`/events/${occurrenceIds[2]}`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: occurrenceIds[2], title: 'Tuesday Jazz', start_date: '2027-03-23 19:00:00', end_date: '2027-03-23 21:00:00' });
  });

  it('a single-event write to an occurrence applies to that occurrence only', async () => {
    const r = await s.api(`/events/${occurrenceIds[3]}`, { method: 'POST', as: 'admin', body: { title: 'Jazz: guest night', start_date: '2027-03-30 20:00:00', end_date: '2027-03-30 23:00:00' } });
    expect(r.status, r.text).toBe(200);
    const list = await s.api('/events?start_date=2027-03-01&end_date=2027-04-30');
    const titles = list.body.events.map((e: { title: string; start_date: string }) => `${e.start_date} ${e.title}`);
    expect(titles).toContain('2027-03-30 20:00:00 Jazz: guest night');
    expect(titles).toContain('2027-04-06 19:00:00 Tuesday Jazz');
    const q = await s.graphql(`query($id: ID) { event(id: $id) { ... on Event { occurrenceOverridden series { databaseId } } } }`, { id: occurrenceIds[3] });
    expect(q.data.event).toEqual({ occurrenceOverridden: true, series: { databaseId: seriesId } });
  });
});
