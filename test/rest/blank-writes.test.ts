/**
 * Issue 8 item 5, accepted-invalid writes: what blank or empty values mean on event, venue and
 * organizer writes. Each is a 400 as the plugin answers, or a deliberate acceptance with its reason.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s?.close();
});

const ev = { title: 'Blank', start_date: '2026-12-05 10:00', end_date: '2026-12-05 11:00' };
const invalid = (param: string) => ({
  code: 'rest_invalid_param',
  message: `Invalid parameter(s): ${param}`,
  data: { status: 400, params: { [param]: 'Invalid parameter.' } },
});

describe('blank values on writes', () => {
  it('`date`/`date_utc` "" (or blank) are no date: 400, as the plugin\'s is_time refuses them', async () => {
    const event = (await s.api('/events', { method: 'POST', as: 'admin', body: ev })).body;
    const venue = (await s.api('/venues', { method: 'POST', as: 'admin', body: { venue: 'Blank Hall' } })).body;
    for (const [path, base] of [['/events', ev], ['/venues', { venue: 'Blank Hall 2' }], ['/organizers', { organizer: 'Blank Org' }],
      [`/events/${event.id}`, {}], [`/venues/${venue.id}`, {}]] as const) {
      for (const [param, value] of [['date', ''], ['date_utc', ''], ['date_utc', '   ']]) {
        const r = await s.api(path, { method: 'POST', as: 'admin', body: { ...base, [param]: value } });
        expect([r.status, r.body], `${path} ${param}=${JSON.stringify(value)}`).toMatchObject([400, invalid(param)]);
      }
    }
    // Nothing was written by the refused updates.
    expect((await s.api(`/events/${event.id}`, { as: 'admin' })).body.date_utc).toBe(event.date_utc);
  });

  it('`date_utc: null` is accepted as absent (§1.2: WordPress validates no null parameter)', async () => {
    const r = await s.api('/events', { method: 'POST', as: 'admin', body: { ...ev, date_utc: null, date: '2026-01-02 03:04:05' } });
    expect([r.status, r.body.date]).toEqual([201, '2026-01-02 03:04:05']);
    const v = await s.api('/venues', { method: 'POST', as: 'admin', body: { venue: 'Null Date Hall', date_utc: null } });
    expect(v.status).toBe(201);
  });

  it('`image: ""` is accepted as "no image" (the plugin validates image with is_image_or_empty)', async () => {
    const e = await s.api('/events', { method: 'POST', as: 'admin', body: { ...ev, image: '' } });
    expect([e.status, e.body.image]).toEqual([201, false]);
    const v = await s.api('/venues', { method: 'POST', as: 'admin', body: { venue: 'Imageless Hall', image: '' } });
    expect([v.status, v.body.image ?? false]).toEqual([201, false]);
    const o = await s.api('/organizers', { method: 'POST', as: 'admin', body: { organizer: 'Imageless Org', image: '' } });
    expect([o.status, o.body.image ?? false]).toEqual([201, false]);
  });

  it('`image` of Unicode spaces only (U+00A0, U+3000, …) is refused as a non-URL image, never taken as "" (issue 21 item 8)', async () => {
    // PHP's trim strips ASCII white space only: to the plugin these values are neither empty, an ID nor a URL.
    const { id: imageId } = await s.db.prisma.post.create({
      data: { type: 'ATTACHMENT', attachment: { create: { url: `${s.base}/uploads/spaces.png`, mimeType: 'image/png', title: 'spaces' } } },
    });
    const event = (await s.api('/events', { method: 'POST', as: 'admin', body: { ...ev, image: imageId } })).body;
    const venue = (await s.api('/venues', { method: 'POST', as: 'admin', body: { venue: 'Spaced Hall', image: imageId } })).body;
    const organizer = (await s.api('/organizers', { method: 'POST', as: 'admin', body: { organizer: 'Spaced Org', image: imageId } })).body;
    expect([event.image.id, venue.image.id, organizer.image.id]).toEqual([imageId, imageId, imageId]);
    for (const value of ['\u00a0', '\u3000', ' \u2003\u00a0 ', '\u205f\ufeff']) {
      for (const [path, body] of [
        ['/events', ev],
        ['/venues', { venue: 'Unicode Hall' }],
        ['/organizers', { organizer: 'Unicode Org' }],
        [`/events/${event.id}`, {}],
        [`/venues/${venue.id}`, {}],
        [`/organizers/${organizer.id}`, {}],
      ] as const) {
        const r = await s.api(path, { method: 'POST', as: 'admin', body: { ...body, image: value } });
        expect([r.status, r.body], `${path} ${JSON.stringify(value)}`).toMatchObject([400, invalid('image')]);
      }
    }
    // Nothing was cleared, nor created.
    for (const path of [`/events/${event.id}`, `/venues/${venue.id}`, `/organizers/${organizer.id}`]) {
      expect((await s.api(path, { as: 'admin' })).body.image.id, path).toBe(imageId);
    }
    expect((await s.api('/venues?search=Unicode%20Hall', { as: 'admin' })).body.venues ?? []).toEqual([]);
    // GraphQL: the same rule, in the core.
    const r = await s.graphql(`mutation($id: ID, $image: String) { updateVenue(id: $id, input: { image: $image }) { __typename ... on ValidationError { field code } } }`, {
      id: venue.id,
      image: '\u00a0',
    });
    expect(r.data?.updateVenue).toEqual({ __typename: 'ValidationError', field: 'image', code: 'INVALID_IMAGE' });
    // ASCII white space is blank, as PHP trims it (the image is cleared, as by "").
    const cleared = await s.api(`/venues/${venue.id}`, { method: 'POST', as: 'admin', body: { image: ' \t ' } });
    expect([cleared.status, cleared.body.image ?? false]).toEqual([200, false]);
  });

  it('an organizer CSV naming no ID (",,,") is 400; empty items beside IDs are skipped, "" unlinks', async () => {
    const org = (await s.api('/organizers', { method: 'POST', as: 'admin', body: { organizer: 'Listed Org' } })).body;
    for (const value of [',,,', ' , ']) {
      const r = await s.api('/events', { method: 'POST', as: 'admin', body: { ...ev, organizer: value } });
      expect([r.status, r.body], value).toMatchObject([400, invalid('organizer')]);
    }
    const venue = await s.api('/events', { method: 'POST', as: 'admin', body: { ...ev, venue: ',,' } });
    expect([venue.status, venue.body]).toMatchObject([400, invalid('venue')]);

    const e = await s.api('/events', { method: 'POST', as: 'admin', body: { ...ev, organizer: `${org.id},,` } });
    expect([e.status, e.body.organizer.map((o: { id: number }) => o.id)]).toEqual([201, [org.id]]);
    const refused = await s.api(`/events/${e.body.id}`, { method: 'POST', as: 'admin', body: { organizer: ',,,' } });
    expect(refused.status).toBe(400);
    expect((await s.api(`/events/${e.body.id}`)).body.organizer.map((o: { id: number }) => o.id)).toEqual([org.id]);
    const unlinked = await s.api(`/events/${e.body.id}`, { method: 'POST', as: 'admin', body: { organizer: '' } });
    expect([unlinked.status, unlinked.body.organizer ?? []]).toEqual([200, []]);
  });

  it('GraphQL: a blank publication date is a ValidationError on the field (the rule is the core\'s)', async () => {
    for (const [mutation, input, field] of [
      ['createVenue', '{ name: "GQL Hall", date: "" }', 'date'],
      ['createOrganizer', '{ name: "GQL Org", dateUtc: " " }', 'dateUtc'],
    ]) {
      const r = await s.graphql(`mutation { ${mutation}(input: ${input}) { __typename ... on ValidationError { field code } } }`);
      expect(r.data?.[mutation], mutation).toEqual({ __typename: 'ValidationError', field, code: 'INVALID_DATE' });
    }
  });
});
