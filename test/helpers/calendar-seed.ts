/**
 * A small calendar for the page tests (functional and browser): a venue and an organizer with every
 * field, enough events at the venue to page its list, a parent category (Music) whose events are
 * all in its child (Jazz), a tag, an all-day multi-day event, and a weekly recurring series.
 * Dates lie after the test servers' clock (SAMPLE_CLOCK, 2026-11-21).
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

export async function seedCalendar(s: TestServer): Promise<SeededCalendar> {
  const gql = async <T>(query: string, variables: Record<string, unknown>): Promise<T> => {
    const r = await s.graphql<T>(query, variables, 'admin');
    expect(r.errors, JSON.stringify(r.errors)).toBeUndefined();
    return r.data!;
  };
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
