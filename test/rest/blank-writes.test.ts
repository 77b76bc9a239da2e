/**
 * Accepted-invalid writes: what blank or empty values mean on
 * event, venue and organizer writes. Each is a 400 as the plugin answers, or a deliberate
 * acceptance with its reason.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSample } from '../helpers/samples.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

interface Recorded {
  request: { body: Record<string, unknown> };
  response: { status: number; body: unknown };
}

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

  it('`image` of Unicode spaces only (U+00A0, U+3000, …) is refused as a non-URL image, never taken as "" (PHP keeps them: not blank)', async () => {
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
    // "" clears the image.
    const cleared = await s.api(`/venues/${venue.id}`, { method: 'POST', as: 'admin', body: { image: '' } });
    expect([cleared.status, cleared.body.image ?? false]).toEqual([200, false]);
  });

  it('`image` of 0, -0 or blank text on venues and organizers is refused as the plugin refuses it (recorded samples)', async () => {
    const number = readSample<Recorded>('POST_venues_400_image_number.json');
    const blank = readSample<Recorded>('POST_venues_400_image_blank.json');
    const { id: imageId } = await s.db.prisma.post.create({
      data: { type: 'ATTACHMENT', attachment: { create: { url: `${s.base}/uploads/kept.png`, mimeType: 'image/png', title: 'kept' } } },
    });
    const venue = (await s.api('/venues', { method: 'POST', as: 'admin', body: { venue: 'Pictured Hall', image: imageId } })).body;
    const organizer = (await s.api('/organizers', { method: 'POST', as: 'admin', body: { organizer: 'Pictured Org', image: imageId } })).body;
    for (const path of [`/venues/${venue.id}`, `/organizers/${organizer.id}`, '/venues', '/organizers']) {
      const name = path.startsWith('/venues') ? { venue: 'Other Hall' } : { organizer: 'Other Org' };
      // JSON numbers: `0` and `-0` (JSON.stringify writes -0 as 0, so the body is written by hand).
      for (const raw of ['0', '-0']) {
        const r = await s.api(path, { method: 'POST', as: 'admin', body: `{"image": ${raw}, ${JSON.stringify(name).slice(1, -1)}}`, headers: { 'Content-Type': 'application/json' } });
        expect([r.status, r.body], `${path} ${raw}`).toEqual([number.response.status, number.response.body]);
      }
      for (const value of [' ', '\t\n', ' \t ']) {
        const r = await s.api(path, { method: 'POST', as: 'admin', body: { ...name, image: value } });
        expect([r.status, r.body], `${path} ${JSON.stringify(value)}`).toEqual([blank.response.status, blank.response.body]);
      }
    }
    // An ID sent as a JSON number is still taken (REC §1.4), and the refused writes changed nothing.
    for (const path of [`/venues/${venue.id}`, `/organizers/${organizer.id}`]) {
      expect((await s.api(path, { as: 'admin' })).body.image.id, path).toBe(imageId);
    }
    expect((await s.api('/venues?search=Other%20Hall', { as: 'admin' })).body.venues ?? []).toEqual([]);
    // GraphQL: blank text is refused by the core too ("" is what removes an image).
    const r = await s.graphql(`mutation($id: ID, $image: String) { updateOrganizer(id: $id, input: { image: $image }) { __typename ... on ValidationError { field code } } }`, {
      id: organizer.id,
      image: ' \t\n',
    });
    expect(r.data?.updateOrganizer).toEqual({ __typename: 'ValidationError', field: 'image', code: 'INVALID_IMAGE' });
  });

  it('`start_date: ""` (or `end_date`) on an event update is refused as the plugin refuses it (recorded sample)', async () => {
    const recorded = readSample<Recorded>('POST_events_400_start_date_empty.json');
    const event = (await s.api('/events', { method: 'POST', as: 'admin', body: ev })).body;
    const r = await s.api(`/events/${event.id}`, { method: 'POST', as: 'admin', body: recorded.request.body });
    expect([r.status, r.body]).toEqual([recorded.response.status, recorded.response.body]);
    const end = await s.api(`/events/${event.id}`, { method: 'POST', as: 'admin', body: { end_date: ' ' } });
    expect([end.status, end.body]).toMatchObject([400, invalid('end_date')]);
    const created = await s.api('/events', { method: 'POST', as: 'admin', body: { ...ev, start_date: '' } });
    expect([created.status, created.body]).toMatchObject([400, invalid('start_date')]);
    const after = (await s.api(`/events/${event.id}`, { as: 'admin' })).body;
    expect([after.start_date, after.end_date]).toEqual([event.start_date, event.end_date]);
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
