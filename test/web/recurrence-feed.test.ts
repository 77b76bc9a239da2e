/**
 * iCal feeds of recurring series: a series is one VEVENT with RRULE/EXDATE/RDATE, an
 * override a VEVENT with the series' UID and a RECURRENCE-ID, all with TZID. Parsed back by ical.js
 * into the instants the REST API lists, across the New York DST change (2027-03-14).
 */
import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { seedJazzSeries } from '../helpers/calendar-seed.ts';
import { useTestServer, type TestServer } from '../helpers/server.ts';

let s: TestServer;
let seriesId: number;
let overrideId: number;
let singleId: number;
useTestServer(async (server) => {
  s = server;
  ({ seriesId, overrideId, singleId } = await seedJazzSeries(s));
});

function parseFeed(text: string) {
  const root = new ICAL.Component(ICAL.parse(text));
  for (const tz of root.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(tz);
  return root.getAllSubcomponents('vevent').map((v) => new ICAL.Event(v));
}

const iso = (t: ICAL.Time) => t.toJSDate().toISOString().slice(0, 19).replace('T', ' ');

/** Every instance a client computes from the feed: each series expanded with its exceptions, single events as they are. */
function instances(events: ICAL.Event[]): { title: string; start: string; end: string }[] {
  const masters = events.filter((e) => !e.isRecurrenceException());
  for (const exception of events.filter((e) => e.isRecurrenceException())) masters.find((m) => m.uid === exception.uid)!.relateException(exception);
  const out: { title: string; start: string; end: string }[] = [];
  for (const e of masters) {
    if (!e.isRecurring()) {
      out.push({ title: e.summary, start: iso(e.startDate), end: iso(e.endDate) });
      continue;
    }
    const it = e.iterator();
    for (let next = it.next(), n = 0; next && n < 100; next = it.next(), n++) {
      const d = e.getOccurrenceDetails(next);
      out.push({ title: d.item.summary, start: iso(d.startDate), end: iso(d.endDate) });
    }
  }
  return out.sort((a, b) => a.start.localeCompare(b.start));
}

describe('iCal feed of a recurring series', () => {
  it('is one VEVENT with RRULE, EXDATE and RDATE, and the override a VEVENT with RECURRENCE-ID, all with TZID', async () => {
    const feed = await s.request('/events.ics?start_date=2027-03-01&end_date=2027-04-30');
    expect(feed.status).toBe(200);
    const events = parseFeed(feed.text);
    expect(events).toHaveLength(3);
    const master = events.find((e) => e.isRecurring())!;
    expect(master.uid).toBe(`cal-events-${seriesId}@${new URL(s.base).host}`);
    expect(master.component.getFirstPropertyValue('rrule')!.toString()).toBe('FREQ=WEEKLY;BYDAY=TU;UNTIL=20270414T035959Z');
    expect(feed.text).toContain('DTSTART;TZID=America/New_York:20270302T190000');
    expect(feed.text).toContain('EXDATE;TZID=America/New_York:20270316T190000');
    expect(feed.text).toContain('RDATE;TZID=America/New_York:20270320T150000');
    const exception = events.find((e) => e.isRecurrenceException())!;
    expect(exception.uid).toBe(master.uid);
    expect(exception.summary).toBe('Jazz: guest night');
    expect(feed.text).toContain('RECURRENCE-ID;TZID=America/New_York:20270323T190000');
    expect(events.find((e) => e.summary === 'Lone Gig')!.uid).toBe(`cal-events-${singleId}@${new URL(s.base).host}`);
  });

  it('parses back into the instants the REST API lists, across the DST change', async () => {
    const rest = await s.api('/events?start_date=2027-03-01&end_date=2027-04-30&per_page=50');
    expect(rest.body.total).toBe(8);
    const listed = rest.body.events.map((e: { title: string; utc_start_date: string; utc_end_date: string }) => ({
      title: e.title,
      start: e.utc_start_date,
      end: e.utc_end_date,
    }));
    const feed = await s.request('/events.ics?start_date=2027-03-01&end_date=2027-04-30');
    expect(instances(parseFeed(feed.text))).toEqual(listed);
    // 19:00 New York on both sides of 2027-03-14: 00:00 UTC (EST), then 23:00 UTC (EDT).
    expect(listed[0].start).toBe('2027-03-03 00:00:00');
    expect(listed.find((e: { title: string }) => e.title === 'Jazz: guest night').start).toBe('2027-03-24 00:30:00');
    expect(listed.at(-1).start).toBe('2027-04-13 23:00:00');
  });

  it('carries an override outside the feed window, so its slot is not shown twice; a single occurrence .ics is its series', async () => {
    const feed = await s.request('/events.ics?start_date=2027-03-01&end_date=2027-03-10');
    const events = parseFeed(feed.text);
    expect(events.filter((e) => e.isRecurrenceException()).map((e) => e.summary)).toEqual(['Jazz: guest night']);
    expect(instances(events).filter((i) => i.start.startsWith('2027-03-23'))).toEqual([]);
    const one = await s.request(`/?post_type=cal_events&p=${overrideId}&ical=1`);
    expect(one.status).toBe(200);
    expect(parseFeed(one.text).map((e) => e.uid)).toEqual([`cal-events-${seriesId}@${new URL(s.base).host}`, `cal-events-${seriesId}@${new URL(s.base).host}`]);
  });
});

describe('iCal feed text and the series iCalendar can describe', () => {
  it('writes titles and names as stored, where the REST API renders them (TEC’s iCal export writes the raw title)', async () => {
    const e = await s.create('/events', {
      title: "Uni Potsdam - Mother's Day -- \"sale\"",
      description: 'Bring <b>friends</b> -- it\'s free',
      start_date: '2027-05-09 10:00:00',
      end_date: '2027-05-09 12:00:00',
      venue: { venue: "Bob's Bar - upstairs" },
    });
    expect(e.title).toBe('Uni Potsdam &#8211; Mother&#8217;s Day &#8212; &#8220;sale&#8221;');
    const feed = await s.request(`/events.ics?start_date=2027-05-09&end_date=2027-05-09`);
    const [event] = parseFeed(feed.text);
    expect(event!.summary).toBe(`Uni Potsdam - Mother's Day -- "sale"`);
    expect(event!.description).toBe("Bring friends -- it's free");
    expect(event!.location).toBe("Bob's Bar - upstairs");
  });

  it('writes an all-day override’s RECURRENCE-ID as a DATE, several RRULEs, and DTSTART among the RDATEs of a series without rule', async () => {
    const create = (input: Record<string, unknown>) =>
      s.graphql(`mutation($input: CreateEventInput!) { createEvent(input: $input) { ... on CreateEventSuccess { event { databaseId occurrences { databaseId startDate } } } ... on Error { code message } } }`, { input });
    const days = await create({ title: 'Bin day', startDate: '2027-06-03', endDate: '2027-06-03', allDay: true, recurrence: { rule: 'FREQ=WEEKLY;COUNT=3' } });
    const second = days.data.createEvent.event.occurrences[1].databaseId;
    expect((await s.api(`/events/${second}`, { method: 'POST', as: 'admin', body: { start_date: '2027-06-11', end_date: '2027-06-11', all_day: true } })).status).toBe(200);
    await create({ title: 'Two rules', startDate: '2027-06-07 18:00:00', endDate: '2027-06-07 19:00:00', timezone: 'UTC', recurrence: { rules: ['FREQ=WEEKLY;BYDAY=MO;COUNT=2', 'FREQ=WEEKLY;BYDAY=WE;COUNT=2'] } });
    await create({ title: 'Dates', startDate: '2027-06-20 09:00:00', endDate: '2027-06-20 10:00:00', timezone: 'UTC', recurrence: { rdates: ['2027-06-27 09:00:00'] } });
    const feed = await s.request('/events.ics?start_date=2027-06-01&end_date=2027-06-30');
    expect(feed.text).toMatch(/RECURRENCE-ID;VALUE=DATE:20270610\r\n/);
    expect(feed.text).toMatch(/RRULE:FREQ=WEEKLY;BYDAY=MO;COUNT=2\r\nRRULE:FREQ=WEEKLY;BYDAY=WE;COUNT=2\r\n/);
    expect(feed.text).toMatch(/\r\nRDATE;TZID=UTC:20270620T090000,20270627T090000\r\n/);
    expect(feed.text).not.toMatch(/RRULE:(RDATE|RECURRENCE-ID)/);
    const all = instances(parseFeed(feed.text));
    expect(all.filter((i) => i.title === 'Bin day').map((i) => i.start.slice(0, 10))).toEqual(['2027-06-03', '2027-06-11', '2027-06-17']);
    // (ical.js counts the two COUNTs together and stops at 3: the list is the reference here.)
    const listed = await s.api('/events?start_date=2027-06-01&end_date=2027-06-30&search=rules');
    expect(listed.body.events.map((e: { utc_start_date: string }) => e.utc_start_date)).toEqual(['2027-06-07 18:00:00', '2027-06-09 18:00:00', '2027-06-14 18:00:00', '2027-06-16 18:00:00']);
    expect(all.filter((i) => i.title === 'Dates').map((i) => i.start)).toEqual(['2027-06-20 09:00:00', '2027-06-27 09:00:00']);
  });
});
