import { describe, expect, it } from 'vitest';
import { useGraphQLHarness, type GraphQLHarness } from '../helpers/graphql.ts';

const NOW = new Date('2026-11-21T11:55:56Z');
let h: GraphQLHarness;
useGraphQLHarness((harness) => (h = harness), { now: () => NOW });

const VENUE_FIELDS = 'databaseId name slug status address city country state province stateprovince zip phone website latitude longitude showMap showMapLink';
const ERRORS = '... on Error { __typename code } ... on ValidationError { field }';
/** A venue write's selection: its payload's venue, or the typed error. */
const VENUE = (verb: string) => `... on ${verb}VenueSuccess { venue { ${VENUE_FIELDS} } } ${ERRORS}`;
const ORGANIZER_FIELDS = 'databaseId name slug status phone website email';
const ORGANIZER = (verb: string) => `... on ${verb}OrganizerSuccess { organizer { ${ORGANIZER_FIELDS} } } ${ERRORS}`;

describe('venues', () => {
  it('creates with derived stateprovince, map flags true by default, reuses by name', async () => {
    const v = (await h.ok(`mutation { createVenue(input: { name: "Grand Hall", state: "IL", country: "United States", latitude: 39.78, longitude: -89.65 }) { ${VENUE('Create')} } }`)).createVenue.venue;
    expect(v).toMatchObject({ name: 'Grand Hall', slug: 'grand-hall', stateprovince: 'IL', showMap: true, showMapLink: true, latitude: 39.78 });
    const again = (await h.ok(`mutation { createVenue(input: { name: "grand hall", city: "Springfield" }) { ${VENUE('Create')} } }`)).createVenue.venue;
    expect(again).toMatchObject({ databaseId: v.databaseId, city: 'Springfield', state: 'IL' });
  });

  it('updates partially, trashes (410 on repeat), restores', async () => {
    const v = (await h.ok(`mutation { createVenue(input: { name: "Hall", city: "A", showMap: false }) { ${VENUE('Create')} } }`)).createVenue.venue;
    const u = (await h.ok(`mutation($id: ID) { updateVenue(id: $id, input: { zip: "12345" }) { ${VENUE('Update')} } }`, { id: v.databaseId })).updateVenue.venue;
    expect(u).toMatchObject({ city: 'A', zip: '12345', showMap: false });
    const t = (await h.ok(`mutation($id: ID) { deleteVenue(id: $id) { ${VENUE('Delete')} } }`, { id: v.databaseId })).deleteVenue.venue;
    expect(t).toMatchObject({ status: 'TRASH', slug: 'hall__trashed' });
    expect((await h.ok(`mutation($id: ID) { deleteVenue(id: $id) { ${VENUE('Delete')} } }`, { id: v.databaseId })).deleteVenue.__typename).toBe('GoneError');
    const r = (await h.ok(`mutation($id: ID) { restoreVenue(id: $id) { ${VENUE('Restore')} } }`, { id: v.databaseId })).restoreVenue.venue;
    expect(r).toMatchObject({ status: 'PUBLISH', slug: 'hall' });
  });

  it('refuses an empty name, a bad website, an out-of-range latitude', async () => {
    for (const [input, field] of [
      ['{ name: " " }', 'venue'],
      ['{ name: "X", website: "nope" }', 'website'],
      ['{ name: "X", latitude: 95 }', 'latitude'],
    ]) {
      expect((await h.ok(`mutation { createVenue(input: ${input}) { ${VENUE('Create')} } }`)).createVenue).toMatchObject({ __typename: 'ValidationError', field });
    }
  });

  it('lists newest first with search, has_events and event filters', async () => {
    const a = (await h.ok(`mutation { createVenue(input: { name: "Alpha Club", city: "Springfield" }) { ${VENUE('Create')} } }`)).createVenue.venue;
    await h.ok(`mutation { createVenue(input: { name: "Beta Bar" }) { ${VENUE('Create')} } }`, {}, { now: new Date(NOW.getTime() + 1000) });
    const e = (await h.ok(
      `mutation($v: ID) { createEvent(input: { title: "E", startDate: "2026-12-20 10:00", endDate: "2026-12-20 11:00", venues: [{ id: $v }] }) { ... on CreateEventSuccess { event { databaseId } } } }`,
      { v: a.databaseId },
    )).createEvent.event;
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
    const o = (await h.ok(`mutation { createOrganizer(input: { name: "Jane Org", email: "jane@example.com" }) { ${ORGANIZER('Create')} } }`)).createOrganizer.organizer;
    expect(o).toMatchObject({ slug: 'jane-org', email: 'jane@example.com' });
    const bySlug = (await h.ok(`query { organizer(slug: "Jane-Org") { ${ORGANIZER_FIELDS} } }`)).organizer;
    expect(bySlug.databaseId).toBe(o.databaseId);
    const u = (await h.ok(`mutation($id: ID) { updateOrganizer(id: $id, input: { phone: "555" }) { ${ORGANIZER('Update')} } }`, { id: o.databaseId })).updateOrganizer.organizer;
    expect(u).toMatchObject({ phone: '555', email: 'jane@example.com' });
    expect((await h.ok(`query { organizer(slug: "nope") { ${ORGANIZER_FIELDS} } }`)).organizer).toBeNull();
    expect(await h.refused(`query { organizer(slug: "nope", strict: true) { ${ORGANIZER_FIELDS} } }`)).toMatchObject({ type: 'NotFoundError', code: 'NOT_FOUND', field: 'slug' });
  });

  it('trashes, restores and purges; purging needs the trash first', async () => {
    const o = (await h.ok(`mutation { createOrganizer(input: { name: "Temp" }) { ${ORGANIZER('Create')} } }`)).createOrganizer.organizer;
    const purge = `mutation($id: ID) { purgeOrganizer(id: $id) { ... on PurgeOrganizerSuccess { deletedId } ... on Error { code } } }`;
    expect((await h.ok(purge, { id: o.databaseId })).purgeOrganizer.code).toBe('NOT_TRASHED');
    await h.ok(`mutation($id: ID) { deleteOrganizer(id: $id) { ${ORGANIZER('Delete')} } }`, { id: o.databaseId });
    const restored = (await h.ok(`mutation($id: ID) { restoreOrganizer(id: $id) { ${ORGANIZER('Restore')} } }`, { id: o.databaseId })).restoreOrganizer.organizer;
    expect(restored).toMatchObject({ status: 'PUBLISH', slug: 'temp' });
    await h.ok(`mutation($id: ID) { deleteOrganizer(id: $id) { ${ORGANIZER('Delete')} } }`, { id: o.databaseId });
    expect((await h.ok(purge, { id: o.databaseId })).purgeOrganizer.deletedId).toBe(Buffer.from(`Organizer:${o.databaseId}`).toString('base64'));
    expect((await h.ok(`query($id: ID) { organizer(id: $id) { ${ORGANIZER_FIELDS} } }`, { id: o.databaseId })).organizer).toBeNull();
  });

  it('refuses writes to anonymous callers and subscribers, and others’ records to contributors', async () => {
    const o = (await h.ok(`mutation { createOrganizer(input: { name: "Owned" }) { ${ORGANIZER('Create')} } }`)).createOrganizer.organizer;
    expect((await h.gql(`mutation { createOrganizer(input: { name: "X" }) { ${ORGANIZER('Create')} } }`, {}, { as: null })).data.createOrganizer.__typename).toBe('UnauthenticatedError');
    expect((await h.gql(`mutation { createOrganizer(input: { name: "X" }) { ${ORGANIZER('Create')} } }`, {}, { as: 'SUBSCRIBER' })).data.createOrganizer.__typename).toBe('ForbiddenError');
    const upd = await h.gql(`mutation($id: ID) { updateOrganizer(id: $id, input: { phone: "1" }) { ${ORGANIZER('Update')} } }`, { id: o.databaseId }, { as: 'CONTRIBUTOR' });
    expect(upd.data.updateOrganizer.__typename).toBe('ForbiddenError');
    const del = await h.gql(`mutation($id: ID) { deleteOrganizer(id: $id) { ${ORGANIZER('Delete')} } }`, { id: o.databaseId }, { as: 'AUTHOR' });
    expect(del.data.deleteOrganizer.__typename).toBe('ForbiddenError');
  });

  it('hides drafts from anonymous readers', async () => {
    const o = (await h.ok(`mutation { createOrganizer(input: { name: "Secret", status: DRAFT }) { ${ORGANIZER('Create')} } }`)).createOrganizer.organizer;
    expect((await h.ok(`query($id: ID) { organizer(id: $id) { ${ORGANIZER_FIELDS} } }`, { id: o.databaseId }, { as: null })).organizer).toBeNull();
    const strict = `query($id: ID) { organizer(id: $id, strict: true) { ${ORGANIZER_FIELDS} } }`;
    expect(await h.refused(strict, { id: o.databaseId }, { as: null })).toMatchObject({ type: 'ForbiddenError', code: 'NOT_ACCESSIBLE', field: null });
    const list = await h.ok(`query { organizers { totalCount } }`, {}, { as: null });
    expect(list.organizers.totalCount).toBe(0);
  });
});
