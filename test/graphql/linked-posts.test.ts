import { describe, expect, it } from 'vitest';
import { useGraphQLHarness, type GraphQLHarness } from '../helpers/graphql.ts';

const NOW = new Date('2026-11-21T11:55:56Z');
let h: GraphQLHarness;
useGraphQLHarness((harness) => (h = harness), { now: () => NOW });

const VENUE = `... on Venue { databaseId name slug status address city country state province stateprovince zip phone website latitude longitude showMap showMapLink }
  ... on Error { __typename code } ... on ValidationError { field }`;
const ORGANIZER_FIELDS = 'databaseId name slug status phone website email';
const ORGANIZER = `... on Organizer { ${ORGANIZER_FIELDS} } ... on Error { __typename code } ... on ValidationError { field }`;

describe('venues', () => {
  it('creates with derived stateprovince, map flags true by default, reuses by name', async () => {
    const v = (await h.ok(`mutation { createVenue(input: { name: "Grand Hall", state: "IL", country: "United States", latitude: 39.78, longitude: -89.65 }) { ${VENUE} } }`)).createVenue;
    expect(v).toMatchObject({ name: 'Grand Hall', slug: 'grand-hall', stateprovince: 'IL', showMap: true, showMapLink: true, latitude: 39.78 });
    const again = (await h.ok(`mutation { createVenue(input: { name: "grand hall", city: "Springfield" }) { ${VENUE} } }`)).createVenue;
    expect(again).toMatchObject({ databaseId: v.databaseId, city: 'Springfield', state: 'IL' });
  });

  it('updates partially, trashes (410 on repeat), restores', async () => {
    const v = (await h.ok(`mutation { createVenue(input: { name: "Hall", city: "A", showMap: false }) { ${VENUE} } }`)).createVenue;
    const u = (await h.ok(`mutation($id: Int) { updateVenue(id: $id, input: { zip: "12345" }) { ${VENUE} } }`, { id: v.databaseId })).updateVenue;
    expect(u).toMatchObject({ city: 'A', zip: '12345', showMap: false });
    const t = (await h.ok(`mutation($id: Int) { deleteVenue(id: $id) { ${VENUE} } }`, { id: v.databaseId })).deleteVenue;
    expect(t).toMatchObject({ status: 'TRASH', slug: 'hall__trashed' });
    expect((await h.ok(`mutation($id: Int) { deleteVenue(id: $id) { ${VENUE} } }`, { id: v.databaseId })).deleteVenue.__typename).toBe('GoneError');
    const r = (await h.ok(`mutation($id: Int) { restoreVenue(id: $id) { ${VENUE} } }`, { id: v.databaseId })).restoreVenue;
    expect(r).toMatchObject({ status: 'PUBLISH', slug: 'hall' });
  });

  it('refuses an empty name, a bad website, an out-of-range latitude', async () => {
    for (const [input, field] of [
      ['{ name: " " }', 'venue'],
      ['{ name: "X", website: "nope" }', 'website'],
      ['{ name: "X", latitude: 95 }', 'latitude'],
    ]) {
      expect((await h.ok(`mutation { createVenue(input: ${input}) { ${VENUE} } }`)).createVenue).toMatchObject({ __typename: 'ValidationError', field });
    }
  });

  it('lists newest first with search, has_events and event filters', async () => {
    const a = (await h.ok(`mutation { createVenue(input: { name: "Alpha Club", city: "Springfield" }) { ${VENUE} } }`)).createVenue;
    await h.ok(`mutation { createVenue(input: { name: "Beta Bar" }) { ${VENUE} } }`, {}, { now: new Date(NOW.getTime() + 1000) });
    const e = (await h.ok(
      `mutation($v: Int) { createEvent(input: { title: "E", startDate: "2026-12-20 10:00", endDate: "2026-12-20 11:00", venues: [{ id: $v }] }) { ... on Event { databaseId } } }`,
      { v: a.databaseId },
    )).createEvent;
    const list = `query($f: LinkedPostFilter) { venues(filter: $f) { totalCount edges { node { name } } } }`;
    const names = async (f: object) => (await h.ok(list, { f })).venues.edges.map((x: any) => x.node.name);
    expect(await names({})).toEqual(['Beta Bar', 'Alpha Club']);
    expect(await names({ search: 'springfield' })).toEqual(['Alpha Club']);
    expect(await names({ hasEvents: true })).toEqual(['Alpha Club']);
    expect(await names({ hasEvents: false })).toEqual(['Beta Bar']);
    expect(await names({ event: e.databaseId })).toEqual(['Alpha Club']);
    expect(await names({ onlyWithUpcoming: true })).toEqual(['Alpha Club']);
    expect(await h.refused(list, { f: { event: a.databaseId } })).toMatchObject({ type: 'ValidationError', code: 'NOT_AN_EVENT', field: 'event' });
  });
});

describe('organizers', () => {
  it('creates, finds by slug, updates, trashes', async () => {
    const o = (await h.ok(`mutation { createOrganizer(input: { name: "Jane Org", email: "jane@example.com" }) { ${ORGANIZER} } }`)).createOrganizer;
    expect(o).toMatchObject({ slug: 'jane-org', email: 'jane@example.com' });
    const bySlug = (await h.ok(`query { organizer(slug: "Jane-Org") { ${ORGANIZER_FIELDS} } }`)).organizer;
    expect(bySlug.databaseId).toBe(o.databaseId);
    const u = (await h.ok(`mutation($id: Int) { updateOrganizer(id: $id, input: { phone: "555" }) { ${ORGANIZER} } }`, { id: o.databaseId })).updateOrganizer;
    expect(u).toMatchObject({ phone: '555', email: 'jane@example.com' });
    expect((await h.ok(`query { organizer(slug: "nope") { ${ORGANIZER_FIELDS} } }`)).organizer).toBeNull();
    expect(await h.refused(`query { organizer(slug: "nope", strict: true) { ${ORGANIZER_FIELDS} } }`)).toMatchObject({ type: 'NotFoundError', code: 'NOT_FOUND', field: 'slug' });
  });

  it('trashes, restores and purges; purging needs the trash first', async () => {
    const o = (await h.ok(`mutation { createOrganizer(input: { name: "Temp" }) { ${ORGANIZER} } }`)).createOrganizer;
    const purge = `mutation($id: Int) { purgeOrganizer(id: $id) { ... on MutationPurgeOrganizerSuccess { data } ... on Error { code } } }`;
    expect((await h.ok(purge, { id: o.databaseId })).purgeOrganizer.code).toBe('NOT_TRASHED');
    await h.ok(`mutation($id: Int) { deleteOrganizer(id: $id) { ${ORGANIZER} } }`, { id: o.databaseId });
    const restored = (await h.ok(`mutation($id: Int) { restoreOrganizer(id: $id) { ${ORGANIZER} } }`, { id: o.databaseId })).restoreOrganizer;
    expect(restored).toMatchObject({ status: 'PUBLISH', slug: 'temp' });
    await h.ok(`mutation($id: Int) { deleteOrganizer(id: $id) { ${ORGANIZER} } }`, { id: o.databaseId });
    expect((await h.ok(purge, { id: o.databaseId })).purgeOrganizer.data).toBe(o.databaseId);
    expect((await h.ok(`query($id: Int) { organizer(id: $id) { ${ORGANIZER_FIELDS} } }`, { id: o.databaseId })).organizer).toBeNull();
  });

  it('refuses writes to anonymous callers and subscribers, and others’ records to contributors', async () => {
    const o = (await h.ok(`mutation { createOrganizer(input: { name: "Owned" }) { ${ORGANIZER} } }`)).createOrganizer;
    expect((await h.gql(`mutation { createOrganizer(input: { name: "X" }) { ${ORGANIZER} } }`, {}, { as: null })).data.createOrganizer.__typename).toBe('UnauthenticatedError');
    expect((await h.gql(`mutation { createOrganizer(input: { name: "X" }) { ${ORGANIZER} } }`, {}, { as: 'SUBSCRIBER' })).data.createOrganizer.__typename).toBe('ForbiddenError');
    const upd = await h.gql(`mutation($id: Int) { updateOrganizer(id: $id, input: { phone: "1" }) { ${ORGANIZER} } }`, { id: o.databaseId }, { as: 'CONTRIBUTOR' });
    expect(upd.data.updateOrganizer.__typename).toBe('ForbiddenError');
    const del = await h.gql(`mutation($id: Int) { deleteOrganizer(id: $id) { ${ORGANIZER} } }`, { id: o.databaseId }, { as: 'AUTHOR' });
    expect(del.data.deleteOrganizer.__typename).toBe('ForbiddenError');
  });

  it('hides drafts from anonymous readers', async () => {
    const o = (await h.ok(`mutation { createOrganizer(input: { name: "Secret", status: DRAFT }) { ${ORGANIZER} } }`)).createOrganizer;
    expect((await h.ok(`query($id: Int) { organizer(id: $id) { ${ORGANIZER_FIELDS} } }`, { id: o.databaseId }, { as: null })).organizer).toBeNull();
    const strict = `query($id: Int) { organizer(id: $id, strict: true) { ${ORGANIZER_FIELDS} } }`;
    expect(await h.refused(strict, { id: o.databaseId }, { as: null })).toMatchObject({ type: 'ForbiddenError', code: 'NOT_ACCESSIBLE', field: null });
    const list = await h.ok(`query { organizers { totalCount } }`, {}, { as: null });
    expect(list.organizers.totalCount).toBe(0);
  });
});
