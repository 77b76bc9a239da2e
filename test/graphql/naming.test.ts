import { describe, expect, it } from 'vitest';
import { useGraphQLHarness, type GraphQLHarness } from '../helpers/graphql.ts';

// The schema conventions (docs/graphql.md → Schema conventions): relations as objects beside the
// deprecated foreign keys, one name per concept, instants as DateTime beside formatted variants.
let h: GraphQLHarness;
useGraphQLHarness((harness) => (h = harness));

const POST = `databaseId authorId author { databaseId login displayName email role }
  date dateUtc modified modifiedUtc publishedDate publishedDateUtc modifiedDate modifiedDateUtc publishedAt modifiedAt`;
const wallClockUtc = (iso: string) => iso.slice(0, 19).replace('T', ' ');

describe('schema naming', () => {
  it('venues: author as an object (public fields only), stateProvince, dates under one pattern', async () => {
    const created = (await h.ok(
      `mutation { createVenue(input: { name: "Grand Hall", state: "IL", country: "United States" }) { ... on CreateVenueSuccess { venue { databaseId } } ... on Error { code } } }`,
      {},
      { as: 'AUTHOR' },
    )).createVenue.venue;
    expect(created.databaseId).toEqual(expect.any(Number));
    const author = await h.userFor('AUTHOR');
    const v = (await h.ok(`query($id: ID) { venue(id: $id) { ${POST} state province stateprovince stateProvince } }`, { id: created.databaseId }, { as: null })).venue;
    expect(v.authorId).toBe(author.id);
    // Anonymous readers see the author's public fields, as in any user read; email and role stay private.
    expect(v.author).toEqual({ databaseId: author.id, login: 'author', displayName: 'author', email: null, role: null });
    expect(v.stateProvince).toBe('IL');
    expect(v.stateProvince).toBe(v.stateprovince);
    expect([v.publishedDate, v.publishedDateUtc, v.modifiedDate, v.modifiedDateUtc]).toEqual([v.date, v.dateUtc, v.modified, v.modifiedUtc]);
    expect(wallClockUtc(v.publishedAt)).toBe(v.publishedDateUtc);
    expect(wallClockUtc(v.modifiedAt)).toBe(v.modifiedDateUtc);
  });

  it('venue inputs: stateProvince sets the shown value, stateprovince still works (deprecated)', async () => {
    const V = (verb: string) => `... on ${verb}VenueSuccess { venue { databaseId stateProvince stateprovince } } ... on Error { code }`;
    const v = (await h.ok(`mutation { createVenue(input: { name: "Hall", province: "ON", country: "Canada", stateProvince: "Ontario" }) { ${V('Create')} } }`)).createVenue.venue;
    expect(v).toMatchObject({ stateProvince: 'Ontario', stateprovince: 'Ontario' });
    const old = (await h.ok(`mutation($id: ID) { updateVenue(id: $id, input: { stateprovince: "Ont." }) { ${V('Update')} } }`, { id: v.databaseId })).updateVenue.venue;
    expect(old).toMatchObject({ stateProvince: 'Ont.' });
    const both = (await h.ok(`mutation($id: ID) { updateVenue(id: $id, input: { stateprovince: "x", stateProvince: "Québec" }) { ${V('Update')} } }`, { id: v.databaseId })).updateVenue.venue;
    expect(both).toMatchObject({ stateProvince: 'Québec' });
    const inputFields = (await h.ok(`{ __type(name: "UpdateVenueInput") { inputFields(includeDeprecated: true) { name deprecationReason } } }`)).__type.inputFields;
    expect(inputFields).toContainEqual({ name: 'stateprovince', deprecationReason: 'Use stateProvince.' });
    expect(inputFields).toContainEqual({ name: 'stateProvince', deprecationReason: null });
  });

  it('events: author null once the account is deleted; startsAt is the instant of startDateUtc', async () => {
    const editor = await h.userFor('EDITOR');
    const e = (await h.ok(
      `mutation { createEvent(input: { title: "Gig", startDate: "2026-12-05 19:00", endDate: "2026-12-05 21:00" }) { ... on CreateEventSuccess { event { databaseId } } ... on Error { code } } }`,
      {},
      { as: 'EDITOR' },
    )).createEvent.event;
    const read = async () => (await h.ok(`query($id: ID) { event(id: $id) { ${POST} startDateUtc startsAt endDateUtc endsAt } }`, { id: e.databaseId })).event;
    const before = await read();
    expect(before.author).toMatchObject({ databaseId: editor.id, login: 'editor', role: 'EDITOR' });
    expect(wallClockUtc(before.startsAt)).toBe(before.startDateUtc);
    expect(wallClockUtc(before.endsAt)).toBe(before.endDateUtc);
    await h.ok(`mutation($id: ID!) { deleteUser(id: $id) { ... on DeleteUserSuccess { deleted { databaseId } } ... on Error { code } } }`, { id: editor.id });
    const after = await read();
    expect([after.authorId, after.author]).toEqual([null, null]);
  });

  it('categories: parent as an object beside parentId', async () => {
    const term = `... on CreateEventCategorySuccess { eventCategory { id databaseId parentId parent { databaseId name } } } ... on Error { code }`;
    const music = (await h.ok(`mutation { createEventCategory(input: { name: "Music" }) { ${term} } }`)).createEventCategory.eventCategory;
    // The parent by its global ID (a database ID works too, as for every ID argument).
    const jazz = (await h.ok(`mutation($p: ID) { createEventCategory(input: { name: "Jazz", parentId: $p }) { ${term} } }`, { p: music.id })).createEventCategory.eventCategory;
    expect(music).toMatchObject({ parentId: 0, parent: null });
    expect(jazz).toMatchObject({ parentId: music.databaseId, parent: { databaseId: music.databaseId, name: 'Music' } });
  });

  it('every deprecated field names its replacement', async () => {
    const deprecated = async (type: string) =>
      Object.fromEntries(
        (await h.ok(`query($t: String!) { __type(name: $t) { fields(includeDeprecated: true) { name isDeprecated deprecationReason } } }`, { t: type })).__type.fields
          .filter((f: { isDeprecated: boolean }) => f.isDeprecated)
          .map((f: { name: string; deprecationReason: string }) => [f.name, f.deprecationReason]),
      );
    const post = { authorId: 'Use author.', date: 'Use publishedDate.', dateUtc: 'Use publishedDateUtc.', modified: 'Use modifiedDate.', modifiedUtc: 'Use modifiedDateUtc.' };
    expect(await deprecated('Venue')).toEqual({ ...post, stateprovince: 'Use stateProvince.' });
    expect(await deprecated('Event')).toEqual(post);
    expect(await deprecated('Organizer')).toEqual(post);
    expect(await deprecated('EventCategory')).toEqual({ parentId: 'Use parent.' });
  });
});
