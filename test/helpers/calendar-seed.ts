/**
 * A small calendar for the page tests (functional and browser): a venue and an organizer with every
 * field, enough events at the venue to page its list, a parent category (Music) whose events are
 * all in its child (Jazz), a tag, an all-day multi-day event, and a weekly recurring series.
 * Dates lie after the test servers' clock (SAMPLE_CLOCK, 2026-11-21). And a series with every part
 * iCalendar carries, for the feed tests.
 */
import { expect } from 'vitest';
import type { TestServer } from './server.ts';

export interface SeededCalendar {
  venue: { id: number; slug: string };
  organizer: { id: number; slug: string };
  series: { id: number; slug: string };
  single: { id: number; slug: string };
  /** Events linked to the venue (series occurrences excluded). */
  venueEvents: number;
}

const VENUE_EVENTS = 12;

/** A GraphQL operation as the administrator that must succeed: its data. */
const adminGql =
  (s: TestServer) =>
  async <T>(query: string, variables: Record<string, unknown>): Promise<T> => {
    const r = await s.graphql<T>(query, variables, 'admin');
    expect(r.errors, JSON.stringify(r.errors)).toBeUndefined();
    return r.data!;
  };

export async function seedCalendar(s: TestServer): Promise<SeededCalendar> {
  const gql = adminGql(s);
  const venue = (
    await gql<{ createVenue: { venue: { databaseId: number; slug: string } } }>(
      `mutation($input: CreateVenueInput!) { createVenue(input: $input) { ... on CreateVenueSuccess { venue { databaseId slug } } ... on Error { code message } } }`,
      {
        input: {
          name: 'Grand Hall', address: '1 Main Street', city: 'Springfield', stateProvince: 'IL', zip: '62701', country: 'United States',
          phone: '+1 217 555 0100', website: 'https://grand-hall.example/', latitude: 39.7817, longitude: -89.6501, showMapLink: true,
          description: '<p>A <strong>historic</strong> concert hall.</p>',
        },
      },
    )
  ).createVenue.venue;
  const organizer = (
    await gql<{ createOrganizer: { organizer: { databaseId: number; slug: string } } }>(
      `mutation($input: CreateOrganizerInput!) { createOrganizer(input: $input) { ... on CreateOrganizerSuccess { organizer { databaseId slug } } ... on Error { code message } } }`,
      { input: { name: 'Jazz Society', phone: '+1 217 555 0199', email: 'info@jazz-society.example', website: 'https://jazz-society.example/', description: '<p>Friends of jazz.</p>' } },
    )
  ).createOrganizer.organizer;
  await s.create('/categories', { name: 'Music', slug: 'music' });
  const music = (await s.api('/categories?slug=music&hide_empty=false')).body.categories[0];
  await s.create('/categories', { name: 'Jazz', slug: 'jazz', parent: music.id });

  const create = `mutation($input: CreateEventInput!) { createEvent(input: $input) { ... on CreateEventSuccess { event { databaseId slug } } ... on Error { code message } } }`;
  let single = { id: 0, slug: '' };
  for (let i = 0; i < VENUE_EVENTS; i++) {
    const day = String(1 + i * 2).padStart(2, '0');
    const e = (
      await gql<{ createEvent: { event: { databaseId: number; slug: string } } }>(create, {
        input: {
          title: `Concert ${i + 1}`, startDate: `2026-12-${day} 19:00`, endDate: `2026-12-${day} 22:00`, timezone: 'America/New_York',
          venues: [{ id: venue.databaseId }], organizers: [{ id: organizer.databaseId }], categories: ['jazz'], tags: ['live'],
          cost: ['15', '25'], description: `<p>Concert number ${i + 1}.</p>`,
        },
      })
    ).createEvent.event;
    if (i === 0) single = { id: e.databaseId, slug: e.slug };
  }
  await gql(create, { input: { title: 'Winter Market', startDate: '2026-12-04', endDate: '2026-12-06', allDay: true, tags: ['outdoor'] } });
  const series = (
    await gql<{ createEvent: { event: { databaseId: number; slug: string } } }>(create, {
      input: {
        title: 'Tuesday Jam', startDate: '2026-12-01 20:00', endDate: '2026-12-01 23:00', timezone: 'America/New_York',
        venues: [{ id: venue.databaseId }], categories: ['jazz'], recurrence: { rule: 'FREQ=WEEKLY;BYDAY=TU;COUNT=30' },
      },
    })
  ).createEvent.event;
  return {
    venue: { id: venue.databaseId, slug: venue.slug },
    organizer: { id: organizer.databaseId, slug: organizer.slug },
    series: { id: series.databaseId, slug: series.slug },
    single,
    venueEvents: VENUE_EVENTS,
  };
}

/** What seedBusyMonth made, by title. */
export type BusyMonth = Record<string, { id: number; slug: string }>;

/**
 * January and February 2027 as the calendar views' browser tests need them (on top of seedCalendar,
 * whose weekly Tuesday Jam plays on 2027-01-26 at 20:00): a day of nine events (2027-01-15), an
 * overnight show (Fri 2027-01-08 22:47 – Sat 00:47), a fair over a week's end (Sat 2027-01-09 –
 * Tue 2027-01-12), a day (2027-01-26) with an all-day event, an exhibition running since the day
 * before (until 2027-02-05, so still running on 2027-02-01), timed events and one running past
 * midnight; an empty day (2027-01-20) before the exhibition opens; a gala on 2027-02-03.
 */
export async function seedBusyMonth(s: TestServer): Promise<BusyMonth> {
  const gql = adminGql(s);
  const venue = (
    await gql<{ createVenue: { venue: { databaseId: number } } }>(
      `mutation($input: CreateVenueInput!) { createVenue(input: $input) { ... on CreateVenueSuccess { venue { databaseId } } ... on Error { code message } } }`,
      { input: { name: 'Riverside Pavilion', address: '200 River Road', city: 'Springfield', stateProvince: 'IL', zip: '62702', country: 'United States' } },
    )
  ).createVenue.venue.databaseId;
  const create = `mutation($input: CreateEventInput!) { createEvent(input: $input) { ... on CreateEventSuccess { event { databaseId slug } } ... on Error { code message } } }`;
  const made: BusyMonth = {};
  const add = async (title: string, input: Record<string, unknown>) => {
    const e = (await gql<{ createEvent: { event: { databaseId: number; slug: string } } }>(create, { input: { title, timezone: 'America/New_York', ...input } })).createEvent.event;
    made[title] = { id: e.databaseId, slug: e.slug };
  };
  for (let i = 0; i < 9; i++) {
    const hour = String(10 + i).padStart(2, '0');
    await add(`Festival Act ${i + 1}`, {
      startDate: `2027-01-15 ${hour}:00`, endDate: `2027-01-15 ${hour}:45`, venues: [{ id: venue }], categories: ['jazz'],
      cost: i % 2 ? ['12'] : [], excerpt: `<p>Act ${i + 1} of the winter festival.</p>`,
    });
  }
  await add('Late Show', { startDate: '2027-01-08 22:47', endDate: '2027-01-09 00:47', venues: [{ id: venue }] });
  await add('Art Fair', { startDate: '2027-01-09 10:00', endDate: '2027-01-12 18:00', venues: [{ id: venue }], cost: ['8'] });
  await add('Snow Day', { startDate: '2027-01-26', endDate: '2027-01-26', allDay: true });
  await add('Winter Exhibition', { startDate: '2027-01-25 10:00', endDate: '2027-02-05 18:00', venues: [{ id: venue }], cost: ['5'], excerpt: '<p>Paintings of snow and ice.</p>' });
  await add('Morning Yoga', { startDate: '2027-01-26 09:00', endDate: '2027-01-26 10:00' });
  await add('Evening Lecture', { startDate: '2027-01-26 18:00', endDate: '2027-01-26 19:30', venues: [{ id: venue }] });
  await add('Night Owls', { startDate: '2027-01-26 21:00', endDate: '2027-01-27 02:00' });
  await add('February Gala', { startDate: '2027-02-03 19:00', endDate: '2027-02-03 23:00', venues: [{ id: venue }], cost: ['50'], categories: ['jazz'] });
  return made;
}

export interface JazzSeries {
  seriesId: number;
  /** The 2027-03-23 occurrence, moved and retitled. */
  overrideId: number;
  singleId: number;
}

/**
 * A weekly series with every part an iCalendar feed carries: "Tuesday Jazz", Tuesdays 19:00–21:00
 * in New York from 2027-03-02 until 2027-04-13, across the DST change (2027-03-14), without
 * 2027-03-16 (EXDATE), with Saturday 2027-03-20 15:00 (RDATE), its 2027-03-23 occurrence moved to
 * 20:30 and retitled "Jazz: guest night" (an override, RECURRENCE-ID); beside it one "Lone Gig" on
 * 2027-03-10. `extra` adds to the series' input (a fuller venue, categories).
 */
export async function seedJazzSeries(s: TestServer, extra: Record<string, unknown> = {}): Promise<JazzSeries> {
  const series = (
    await adminGql(s)<{ createEvent: { event: { databaseId: number; occurrences: { databaseId: number; startDate: string }[] } } }>(
      `mutation($input: CreateEventInput!) { createEvent(input: $input) { ... on CreateEventSuccess { event { databaseId occurrences { databaseId startDate } } } ... on Error { code message } } }`,
      {
        input: {
          title: 'Tuesday Jazz',
          startDate: '2027-03-02 19:00:00',
          endDate: '2027-03-02 21:00:00',
          timezone: 'America/New_York',
          venues: [{ create: { name: 'Blue Room' } }],
          recurrence: { rule: 'FREQ=WEEKLY;BYDAY=TU;UNTIL=20270413', exdates: ['2027-03-16'], rdates: ['2027-03-20 15:00:00'] },
          ...extra,
        },
      },
    )
  ).createEvent.event;
  const overrideId = series.occurrences.find((o) => o.startDate.startsWith('2027-03-23'))!.databaseId;
  const w = await s.api(`/events/${overrideId}`, { method: 'POST', as: 'admin', body: { title: 'Jazz: guest night', start_date: '2027-03-23 20:30:00', end_date: '2027-03-23 23:00:00' } });
  expect(w.status, w.text).toBe(200);
  const single = await s.create('/events', { title: 'Lone Gig', start_date: '2027-03-10 20:00:00', end_date: '2027-03-10 22:00:00' });
  return { seriesId: series.databaseId, overrideId, singleId: single.id };
}
