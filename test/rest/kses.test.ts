/**
 * WordPress's save-time HTML filtering (kses) for callers without `unfiltered_html` (contributors,
 * authors), over REST and GraphQL on the real app; administrators and editors keep their HTML.
 */
import { describe, expect, it } from 'vitest';
import { kses } from '../../src/domain/kses.ts';
import { useTestServer, type TestRole, type TestServer } from '../helpers/server.ts';

let s: TestServer;
useTestServer((started) => (s = started));

const GOOD = '<p>Hello <strong>bold</strong> <a href="https://example.com/x">link</a></p>';
const BAD = '<script>alert(1)</script><img src="x.png" onerror="alert(2)"><a href="javascript:alert(3)">bad</a><iframe src="https://evil.example/"></iframe><style>p{color:red}</style>';
const HTML = GOOD + BAD;
/** `HTML` through `wp_filter_post_kses` (content, excerpt). */
const POST_FILTERED = `${GOOD}<img src="x.png" /><a>bad</a>`;
const TITLE = '<strong>Jazz</strong> <a href="https://example.com/j" onclick="alert(0)">night</a><script>alert(1)</script><img src="x" onerror="alert(2)"><a href="javascript:alert(3)">!</a><iframe src="https://e.example/"></iframe>';
/** `TITLE` through `wp_filter_kses` (titles, names: `$allowedtags` has no `<p>`, `<img>`). */
const TITLE_FILTERED = '<strong>Jazz</strong> <a href="https://example.com/j">night</a><a>!</a>';

function expectClean(html: string) {
  for (const bad of ['<script', 'alert(', 'onerror', 'onclick', 'javascript:', '<iframe', '<style']) expect(html).not.toContain(bad);
}

async function rest(path: string, as: TestRole, body: Record<string, unknown>, method = 'POST') {
  const r = await s.api(path, { method, as, body });
  if (r.status !== 200 && r.status !== 201) throw new Error(`${method} ${path} → ${r.status} ${r.text}`);
  return r.body;
}

async function gql(query: string, variables: Record<string, unknown>, as: TestRole) {
  const r = await s.graphql(query, variables, as);
  if (r.errors?.length) throw new Error(JSON.stringify(r.errors));
  return r.data;
}

const EVENT_RAW = `query($id: ID!) { event(id: $id) { titleRaw descriptionRaw excerptRaw } }`;
const event = async (id: number, as: TestRole) => (await gql(EVENT_RAW, { id }, as)).event;

describe('the filters themselves', () => {
  it('keeps allowed markup and drops scripts, handlers, javascript: URLs (also entity-smuggled), frames and styles', () => {
    expect(kses(HTML, 'post')).toBe(POST_FILTERED);
    expect(kses(TITLE, 'data')).toBe(TITLE_FILTERED);
    expect(kses('<a href="jav&#x09;ascript:alert(1)">y</a><A HREF="JaVaScRiPt:alert(1)">x</A>', 'post')).toBe('<a>y</a><a>x</a>');
    expect(kses('<p style="color: red; background: url(javascript:alert(4))">s</p>', 'post')).toBe('<p style="color:red">s</p>');
    expect(kses('Rock & Roll <em>live</em>', 'data')).toBe('Rock &amp; Roll <em>live</em>');
  });
});

describe('events', () => {
  it('filters a contributor\'s title, description and excerpt on create and update over REST', async () => {
    const created = await rest('/events', 'contributor', { title: TITLE, description: HTML, excerpt: HTML, start_date: '2026-12-01 10:00', end_date: '2026-12-01 11:00' });
    expectClean(created.title);
    expectClean(created.description);
    expectClean(created.excerpt);
    expect(created.description).toContain('<strong>bold</strong> <a href="https://example.com/x">link</a>');
    expect(await event(created.id, 'contributor')).toEqual({ titleRaw: TITLE_FILTERED, descriptionRaw: POST_FILTERED, excerptRaw: POST_FILTERED });

    await rest(`/events/${created.id}`, 'contributor', { title: `${TITLE} 2`, description: `${HTML}<p>two</p>` });
    expect(await event(created.id, 'admin')).toMatchObject({ titleRaw: `${TITLE_FILTERED} 2`, descriptionRaw: `${POST_FILTERED}<p>two</p>` });
  });

  it('filters an author\'s writes over GraphQL, and keeps an administrator\'s and an editor\'s HTML as sent', async () => {
    const create = `mutation($input: CreateEventInput!) { createEvent(input: $input) { ... on CreateEventSuccess { event { databaseId titleRaw descriptionRaw excerptRaw } } } }`;
    const input = { title: TITLE, description: HTML, excerpt: HTML, startDate: '2026-12-02 10:00', endDate: '2026-12-02 11:00' };
    const byAuthor = (await gql(create, { input }, 'author')).createEvent.event;
    expect(byAuthor).toMatchObject({ titleRaw: TITLE_FILTERED, descriptionRaw: POST_FILTERED, excerptRaw: POST_FILTERED });
    const update = `mutation($id: ID!, $input: UpdateEventInput!) { updateEvent(id: $id, input: $input) { ... on UpdateEventSuccess { event { descriptionRaw } } } }`;
    expect((await gql(update, { id: byAuthor.databaseId, input: { description: BAD } }, 'author')).updateEvent.event.descriptionRaw).toBe('<img src="x.png" /><a>bad</a>');

    for (const role of ['admin', 'editor'] as const) {
      const kept = (await gql(create, { input }, role)).createEvent.event;
      expect(kept).toMatchObject({ titleRaw: TITLE, descriptionRaw: HTML, excerptRaw: HTML });
      // An editor editing the author's event stores their own HTML unfiltered.
      expect((await gql(update, { id: byAuthor.databaseId, input: { description: HTML } }, role)).updateEvent.event.descriptionRaw).toBe(HTML);
    }
    const byAdmin = await rest('/events', 'admin', { title: 'Admin HTML', description: HTML, start_date: '2026-12-03 10:00', end_date: '2026-12-03 11:00' });
    expect((await event(byAdmin.id, 'admin')).descriptionRaw).toBe(HTML);
  });

  it('filters venues, organizers and terms created inline by a contributor\'s event write', async () => {
    const created = await rest('/events', 'contributor', {
      title: 'Inline',
      start_date: '2026-12-04 10:00',
      end_date: '2026-12-04 11:00',
      venue: { venue: `${TITLE} hall`, description: HTML },
      organizer: [{ organizer: `${TITLE} org`, description: HTML }],
      tags: ['<em>jazz</em><script>alert(1)</script>'],
    });
    const q = `query($id: ID!) { event(id: $id) { venues { nameRaw descriptionRaw } organizers { nameRaw descriptionRaw } tags { name } } }`;
    const e = (await gql(q, { id: created.id }, 'admin')).event;
    expect(e.venues).toEqual([{ nameRaw: `${TITLE_FILTERED} hall`, descriptionRaw: POST_FILTERED }]);
    expect(e.organizers).toEqual([{ nameRaw: `${TITLE_FILTERED} org`, descriptionRaw: POST_FILTERED }]);
    expect(e.tags).toEqual([{ name: '<em>jazz</em>' }]);
  });
});

describe('values filtered down to nothing', () => {
  it('answer the usual 400 naming the field, over REST and GraphQL', async () => {
    const title = await s.api('/events', { method: 'POST', as: 'contributor', body: { title: '<script>alert(1)</script>', start_date: '2026-12-05 10:00', end_date: '2026-12-05 11:00' } });
    expect([title.status, title.body.code, Object.keys(title.body.data.params ?? {})]).toEqual([400, 'rest_invalid_param', ['title']]);
    const venue = await s.api('/venues', { method: 'POST', as: 'contributor', body: { venue: '<iframe src="https://e.example/"></iframe>' } });
    expect([venue.status, Object.keys(venue.body.data.params ?? {})]).toEqual([400, ['venue']]);
    const term = await s.graphql(`mutation { createEventCategory(input: { name: "<script>x</script>" }) { __typename ... on ValidationError { field } } }`, {}, 'author');
    expect(term.data.createEventCategory).toEqual({ __typename: 'ValidationError', field: 'name' });
  });
});

describe('values kses cannot take as they are', () => {
  it('HTML nested deeper than 512, or a text kses makes longer than 1 MiB, is a 400 naming the field; the same as an administrator is kept', async () => {
    const deep = `${'<em>'.repeat(600)}x${'</em>'.repeat(600)}`;
    const ev = { title: 'Deep', start_date: '2026-12-05 10:00', end_date: '2026-12-05 11:00' };
    const nested = await s.api('/events', { method: 'POST', as: 'contributor', body: { ...ev, description: deep } });
    expect([nested.status, nested.body.code, Object.keys(nested.body.data.params ?? {})]).toEqual([400, 'rest_invalid_param', ['description']]);
    // 300,000 `<` are 1.2 million characters once escaped (`&lt;`).
    const escaped = await s.api('/events', { method: 'POST', as: 'contributor', body: { ...ev, excerpt: '<'.repeat(300_000) } });
    expect([escaped.status, Object.keys(escaped.body.data.params ?? {})]).toEqual([400, ['excerpt']]);
    const venue = await s.graphql(`mutation($d: String) { createVenue(input: { name: "Deep Hall", description: $d }) { __typename ... on ValidationError { field code } } }`, { d: deep }, 'author');
    expect(venue.data.createVenue).toEqual({ __typename: 'ValidationError', field: 'description', code: 'TOO_DEEPLY_NESTED' });
    const kept = await rest('/events', 'admin', { ...ev, description: deep });
    expect((await event(kept.id, 'admin')).descriptionRaw).toBe(deep);
  });
});

describe('venues and organizers', () => {
  it('filters a contributor\'s name and description on create and update (REST and GraphQL); an administrator\'s stay', async () => {
    for (const [path, field, type] of [['/venues', 'venue', 'Venue'], ['/organizers', 'organizer', 'Organizer']] as const) {
      const created = await rest(path, 'contributor', { [field]: `${TITLE} ${field}`, description: HTML });
      expectClean(created[field]);
      expectClean(created.description);
      const read = `query($id: ID!) { ${field}(id: $id) { nameRaw descriptionRaw } }`;
      expect((await gql(read, { id: created.id }, 'contributor'))[field]).toEqual({ nameRaw: `${TITLE_FILTERED} ${field}`, descriptionRaw: POST_FILTERED });

      await rest(`${path}/${created.id}`, 'contributor', { description: `<p>new</p>${BAD}` });
      expect((await gql(read, { id: created.id }, 'admin'))[field].descriptionRaw).toBe('<p>new</p><img src="x.png" /><a>bad</a>');

      const update = `mutation($id: ID!, $input: Update${type}Input!) { update${type}(id: $id, input: $input) { ... on Update${type}Success { ${field} { nameRaw descriptionRaw } } } }`;
      const byGql = (await gql(update, { id: created.id, input: { name: `${TITLE} again`, description: HTML } }, 'contributor'))[`update${type}`][field];
      expect(byGql).toEqual({ nameRaw: `${TITLE_FILTERED} again`, descriptionRaw: POST_FILTERED });

      const byAdmin = await rest(path, 'admin', { [field]: `Admin ${field}`, description: HTML });
      expect((await gql(read, { id: byAdmin.id }, 'admin'))[field]).toEqual({ nameRaw: `Admin ${field}`, descriptionRaw: HTML });
    }
  });
});

describe('terms', () => {
  it('filters an author\'s category name and description (wp_filter_kses) over REST and GraphQL; an administrator\'s stay', async () => {
    const created = await rest('/categories', 'author', { name: `${TITLE} cat`, description: HTML });
    const read = `query($id: ID!) { eventCategory(id: $id) { name description } }`;
    const termFiltered = '<strong>bold</strong> <a href="https://example.com/x">link</a>';
    expect((await gql(read, { id: created.id }, 'admin')).eventCategory).toEqual({ name: `${TITLE_FILTERED} cat`, description: `Hello ${termFiltered}<a>bad</a>` });

    await rest(`/categories/${created.id}`, 'author', { description: `<p>x</p>${BAD}` });
    expect((await gql(read, { id: created.id }, 'admin')).eventCategory.description).toBe('x<a>bad</a>');

    const update = `mutation($id: ID!, $input: UpdateTermInput!) { updateEventCategory(id: $id, input: $input) { ... on UpdateEventCategorySuccess { eventCategory { name description } } } }`;
    expect((await gql(update, { id: created.id, input: { name: `${TITLE} again`, description: HTML } }, 'author')).updateEventCategory.eventCategory).toEqual({
      name: `${TITLE_FILTERED} again`,
      description: `Hello ${termFiltered}<a>bad</a>`,
    });
    const create = `mutation($input: CreateTermInput!) { createEventCategory(input: $input) { ... on CreateEventCategorySuccess { eventCategory { name description } } } }`;
    expect((await gql(create, { input: { name: '<em>Fresh</em><script>alert(1)</script>', description: BAD } }, 'author')).createEventCategory.eventCategory).toEqual({
      name: '<em>Fresh</em>',
      description: '<a>bad</a>',
    });

    const byAdmin = (await gql(create, { input: { name: 'Admin <em>cat</em>', description: HTML } }, 'admin')).createEventCategory.eventCategory;
    expect(byAdmin).toEqual({ name: 'Admin <em>cat</em>', description: HTML });
  });
});
