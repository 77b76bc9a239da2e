/** `/venues` and `/organizers` routes over the real app (contract §4.3, §4.4, §5.6, §6, §7.7, §7.9). */
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestServer, type TestRole, type TestServer } from '../helpers/server.ts';

let s: TestServer;
useTestServer((server) => (s = server));
const create = (path: string, body: Record<string, unknown>, as?: TestRole) => s.create(path, body, as);
const names = (list: { venue?: string; organizer?: string }[]) => list.map((x) => x.venue ?? x.organizer);

describe('venues', () => {
  it('creates, reads (json_ld), updates partially by POST/PUT/PATCH, trashes, 410 on the second delete', async () => {
    const v = await create('/venues', { venue: 'Opera House', address: '1 Quay', city: 'Sydney', country: 'Australia', province: 'NSW', show_map: 'false', website: 'https://example.com/opera' });
    expect(v).toMatchObject({ venue: 'Opera House', slug: 'opera-house', stateprovince: 'NSW', show_map: false, show_map_link: true });
    expect(v).not.toHaveProperty('rest_url');
    expect(v).not.toHaveProperty('state');
    const read = await s.api(`/venues/${v.id}`);
    expect(read.body.json_ld).toMatchObject({ '@type': 'Place', name: 'Opera House' });

    for (const method of ['POST', 'PUT', 'PATCH']) {
      const r = await s.api(`/venues/${v.id}`, { method, as: 'admin', body: { phone: `555-${method}` } });
      expect([r.status, r.body.phone, r.body.stateprovince, r.body.show_map, r.body.website]).toEqual([200, `555-${method}`, 'NSW', false, 'https://example.com/opera']);
    }
    const cleared = await s.api(`/venues/${v.id}`, { method: 'POST', as: 'admin', body: { address: '' } });
    expect(cleared.body).not.toHaveProperty('address');

    const del = await s.api(`/venues/${v.id}`, { method: 'DELETE', as: 'admin' });
    expect([del.status, del.body.status, del.body.slug]).toEqual([200, 'trash', 'opera-house__trashed']);
    const again = await s.api(`/venues/${v.id}`, { method: 'DELETE', as: 'admin' });
    expect([again.status, again.body.code, again.body.message]).toEqual([410, 'venue-is-in-trash', 'The venue is already trashed']);
    expect((await s.api(`/venues/${v.id}`)).body.code).toBe('venue-not-accessible');
    expect((await s.api(`/venues/${v.id}`, { as: 'editor' })).status).toBe(200);
  });

  it('reuses a venue of the same name on create (201, same ID)', async () => {
    const a = await create('/venues', { venue: 'Twin Hall', city: 'Oslo' });
    const b = await create('/venues', { venue: 'twin hall', zip: '0150' });
    expect(b.id).toBe(a.id);
    expect(b).toMatchObject({ city: 'Oslo', zip: '0150' });
  });

  it('validates: missing name, JSON booleans for show_map, bad website, unknown ID, wrong kind', async () => {
    const missing = await s.api('/venues', { method: 'POST', as: 'admin', body: { city: 'X' } });
    expect([missing.status, missing.body.code, missing.body.data.params]).toEqual([400, 'rest_missing_callback_param', ['venue']]);
    const bool = await s.api('/venues', { method: 'POST', as: 'admin', body: { venue: 'Bool', show_map: true } });
    expect(bool.body.data.params).toEqual({ show_map: 'show_map is not of type string.' });
    const web = await s.api('/venues', { method: 'POST', as: 'admin', body: { venue: 'Web', website: 'nope' } });
    expect(Object.keys(web.body.data.params)).toEqual(['website']);
    const empty = await s.api('/venues', { method: 'POST', as: 'admin', body: { venue: '' } });
    expect(Object.keys(empty.body.data.params)).toEqual(['venue']);

    const unknown = await s.api('/venues/999999');
    expect([unknown.status, unknown.body.code, Object.keys(unknown.body.data.params)]).toEqual([400, 'rest_invalid_param', ['id']]);
    const org = await create('/organizers', { organizer: 'Not A Venue' });
    expect((await s.api(`/venues/${org.id}`)).status).toBe(400);
    expect((await s.api(`/venues/${org.id}`, { method: 'DELETE', as: 'admin' })).status).toBe(400);
    expect((await s.api('/venues/x1')).body.code).toBe('rest_no_route');
  });

  it('refuses writes to anonymous (401) and subscribers (403); validation comes first', async () => {
    expect((await s.api('/venues', { method: 'POST', body: { venue: 'Anon' } })).status).toBe(401);
    expect((await s.api('/venues', { method: 'POST', body: {} })).status).toBe(400);
    expect((await s.api('/venues', { method: 'POST', as: 'subscriber', body: { venue: 'Sub' } })).status).toBe(403);
    const v = await create('/venues', { venue: 'Guarded Hall' });
    expect((await s.api(`/venues/${v.id}`, { method: 'DELETE' })).status).toBe(401);
    expect((await s.api(`/venues/${v.id}`, { method: 'POST', as: 'author', body: { phone: '1' } })).status).toBe(403);
    expect((await s.api('/venues/999999', { method: 'DELETE' })).status).toBe(400);
  });

  it('by-slug: read, update, delete', async () => {
    const v = await create('/venues', { venue: 'Slug Venue' });
    expect((await s.api('/venues/by-slug/slug-venue')).body.id).toBe(v.id);
    const u = await s.api('/venues/by-slug/slug-venue', { method: 'PUT', as: 'admin', body: { city: 'Lyon' } });
    expect([u.status, u.body.city]).toEqual([200, 'Lyon']);
    expect((await s.api('/venues/by-slug/slug-venue', { method: 'DELETE', as: 'admin' })).body.status).toBe('trash');
    expect((await s.api('/venues/by-slug/slug-venue')).status).toBe(400);
    expect((await s.api('/venues/by-slug/no-such-venue')).body.data.params).toHaveProperty('slug');
  });
});

describe('organizers', () => {
  it('creates, reads, updates partially, trashes, 410', async () => {
    const o = await create('/organizers', { organizer: 'Ann Org', email: 'ann@example.com', phone: '555', website: 'https://example.com/ann', description: 'Bio' });
    expect(Object.keys(o)).toEqual(['id', 'author', 'status', 'date', 'date_utc', 'modified', 'modified_utc', 'url', 'organizer', 'description', 'slug', 'phone', 'website', 'email', 'global_id', 'global_id_lineage']);
    const read = await s.api(`/organizers/${o.id}`);
    expect(read.body.json_ld).toMatchObject({ '@type': 'Person', name: 'Ann Org' });
    const u = await s.api(`/organizers/${o.id}`, { method: 'PATCH', as: 'admin', body: { email: 'ann2@example.com' } });
    expect([u.body.email, u.body.phone, u.body.description]).toEqual(['ann2@example.com', '555', '<p>Bio</p>']);
    expect((await s.api(`/organizers/${o.id}`, { method: 'DELETE', as: 'admin' })).body.status).toBe('trash');
    const again = await s.api(`/organizers/${o.id}`, { method: 'DELETE', as: 'admin' });
    expect([again.status, again.body.code]).toEqual([410, 'organizer-is-in-trash']);
    expect((await s.api(`/organizers/${o.id}`)).body.code).toBe('organizer-not-accessible');
    expect((await s.api('/organizers/999999')).status).toBe(400);
    expect((await s.api('/organizers/by-slug/ann-org')).status).toBe(400);
  });
});

describe('GET /venues and /organizers', () => {
  const id: Record<string, number> = {};
  beforeAll(async () => {
    await s.reset();
    id.alpha = (await create('/venues', { venue: 'Alpha Hall', city: 'Boston', zip: '02110' })).id;
    id.beta = (await create('/venues', { venue: 'Beta Club', city: 'Denver', country: 'Boston Land' })).id;
    id.gamma = (await create('/venues', { venue: 'Gamma Room', phone: '555-0199' })).id;
    id.draft = (await create('/venues', { venue: 'Draft Venue', status: 'draft' })).id;
    id.anna = (await create('/organizers', { organizer: 'Anna', email: 'anna@example.com' })).id;
    id.bob = (await create('/organizers', { organizer: 'Bob' })).id;
    const e = await create('/events', { title: 'Linked', start_date: '2026-12-05 10:00:00', end_date: '2026-12-05 11:00:00', venue: id.alpha, organizer: [id.anna] });
    id.event = e.id;
    const past = await create('/events', { title: 'Linked Past', start_date: '2026-01-05 10:00:00', end_date: '2026-01-05 11:00:00', venue: id.beta, organizer: [id.bob] });
    id.past = past.id;
    await create('/events', { title: 'Linked Draft', start_date: '2026-12-05 10:00:00', end_date: '2026-12-05 11:00:00', venue: id.gamma, status: 'draft' });
  });

  it('lists newest first (ID descending on equal dates), published only for anonymous', async () => {
    const r = await s.api('/venues');
    expect(r.body.venues.map((v: { id: number }) => v.id)).toEqual([id.gamma, id.beta, id.alpha]);
    expect(r.body.rest_url).toBe(`${s.base}/wp-json/cal/events/v1/venues/?page=1&per_page=10&status=publish`);
    expect(r.headers.get('x-tec-total')).toBe('3');
    const admin = await s.api('/venues', { as: 'admin' });
    expect(admin.body.venues.map((v: { id: number }) => v.id)).toContain(id.draft);
    expect(admin.body.rest_url).toContain('status=any');
    expect((await s.api('/venues?status=draft')).status).toBe(400);
    expect(names((await s.api('/venues?status=draft', { as: 'editor' })).body.venues)).toEqual(['Draft Venue']);
  });

  it('pages; past the end is 404; bad page values 400', async () => {
    const p2 = await s.api('/venues?per_page=2&page=2');
    expect([names(p2.body.venues), p2.body.total, p2.body.total_pages]).toEqual([['Alpha Hall'], 3, 2]);
    expect(p2.body.previous_rest_url).toBe(`${s.base}/wp-json/cal/events/v1/venues/?per_page=2&status=publish`);
    const past = await s.api('/venues?page=3&per_page=2');
    expect([past.status, past.body.code]).toEqual([404, 'venue-archive-page-not-found']);
    const pastOrg = await s.api('/organizers?page=5');
    expect([pastOrg.status, pastOrg.body.code]).toEqual([404, 'organizer-archive-page-not-found']);
    for (const q of ['per_page=0', 'per_page=abc', 'page=0', 'page=99999999999']) expect((await s.api(`/venues?${q}`)).status, q).toBe(400);
    expect((await s.api('/organizers?per_page=500')).body.rest_url).toContain('per_page=50');
  });

  it('search, event, has_events, only_with_upcoming', async () => {
    expect(names((await s.api('/venues?search=boston')).body.venues)).toEqual(['Alpha Hall']); // country is not searched
    expect(names((await s.api('/venues?search=0199')).body.venues)).toEqual(['Gamma Room']);
    const none = await s.api('/venues?search=zzz');
    expect([none.status, none.body.venues, none.body.total, none.body.total_pages]).toEqual([200, [], 0, 0]);
    expect((await s.api('/venues?search=')).status).toBe(400);
    expect(names((await s.api(`/venues?event=${id.event}`)).body.venues)).toEqual(['Alpha Hall']);
    expect((await s.api(`/venues?event=${id.alpha}`)).status).toBe(400);
    expect(names((await s.api('/venues?has_events=1')).body.venues)).toEqual(['Beta Club', 'Alpha Hall']);
    expect(names((await s.api('/venues?has_events=no')).body.venues)).toEqual(['Gamma Room']);
    expect(names((await s.api('/venues?only_with_upcoming=true')).body.venues)).toEqual(['Alpha Hall']);
    expect(names((await s.api('/organizers?only_with_upcoming=yes')).body.organizers)).toEqual(['Anna']);
    expect(names((await s.api('/organizers?search=example.com')).body.organizers)).toEqual(['Anna']);
    expect(names((await s.api(`/organizers?event=${id.past}`)).body.organizers)).toEqual(['Bob']);
  });

  it('trashing a venue unlinks it from its events', async () => {
    const v = await create('/venues', { venue: 'Doomed Hall' });
    const e = await create('/events', { title: 'Loses Venue', start_date: '2026-12-05 10:00:00', end_date: '2026-12-05 11:00:00', venue: v.id });
    expect(e.venue.id).toBe(v.id);
    await s.api(`/venues/${v.id}`, { method: 'DELETE', as: 'admin' });
    expect((await s.api(`/events/${e.id}`)).body.venue).toEqual([]);
  });

  it('creates venues and organizers inline from an event write', async () => {
    const e = await create('/events', {
      title: 'Inline',
      start_date: '2026-12-05 10:00:00',
      end_date: '2026-12-05 11:00:00',
      venue: { venue: 'Inline Venue', city: 'Rome' },
      organizer: [{ organizer: 'Inline One' }, id.bob, { id: id.anna }],
    });
    expect(e.venue).toMatchObject({ venue: 'Inline Venue', city: 'Rome' });
    expect(names(e.organizer)).toEqual(['Inline One', 'Bob', 'Anna']);
    const bad = await s.api('/events', { method: 'POST', as: 'admin', body: { title: 'Bad inline', start_date: '2026-12-05', end_date: '2026-12-05', venue: { city: 'No name' } } });
    expect([bad.status, Object.keys(bad.body.data.params)]).toEqual([400, ['venue']]);
  });
});
