import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { countingChangeBus } from '../helpers/changes.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { subscribeSse, type SseSubscription } from '../helpers/sse.ts';
import { pruneChanges } from '../../src/services/change-log.ts';

// Live changes over GraphQL-over-SSE on one server (in-process bus): every write, whichever API
// made it, reaches the subscribers who may read the record, judged with each subscriber's context.
let server: TestServer;
const open: SseSubscription[] = [];
const sub = async (query: string, as?: 'admin' | 'author') => {
  const s = await subscribeSse(server.base, query, as ? { authorization: server.authHeader(as) } : {});
  open.push(s);
  return s;
};
const EVENTS = 'subscription { eventChanged { action eventId deletedId event { title status categories { name } } } }';
/** A record's global ID (what a change payload's `eventId`, `deletedId`, … hold). */
const gid = (type: string, id: number) => Buffer.from(`${type}:${id}`).toString('base64');
/** An eventChanged payload: `deletedId` is the event's global ID on DELETED only. */
const change = (action: string, id: number, event: object | null) => ({ action, eventId: gid('Event', id), deletedId: action === 'DELETED' ? gid('Event', id) : null, event });
const event = (title: string, extra: object = {}) => ({
  method: 'POST',
  as: 'admin' as const,
  body: { title, start_date: '2030-02-01 19:00:00', end_date: '2030-02-01 22:00:00', status: 'publish', ...extra },
});

// The in-process bus, counting its listeners: a subscription is set up once it listens, and
// let go once closed.
const { bus, settle, subscribers } = countingChangeBus();
beforeAll(async () => {
  server = await startTestServer({ now: null, changes: bus });
  settle();
});
afterEach(async () => {
  for (const s of open.splice(0)) s.close();
  await server.reset();
});
afterAll(() => server?.close());

describe('subscription eventChanged', () => {
  it('delivers REST and GraphQL writes, and never a draft to an anonymous subscriber', async () => {
    const anonymous = await sub(EVENTS);
    const admin = await sub(EVENTS, 'admin');

    expect(subscribers()).toBe(2);
    const started = performance.now();
    const published = await server.api('/events', event('Open Rehearsal', { categories: ['Jazz'] }));
    const answered = performance.now();
    expect(published.status).toBe(201);
    const first = await anonymous.next();
    const at = anonymous.received[0].at;
    console.log(`in-process delivery: REST write answered in ${(answered - started).toFixed(1)} ms; SSE payload ${(at - answered).toFixed(1)} ms after the answer`);
    expect(first).toEqual({
      data: { eventChanged: change('CREATED', published.body.id, { title: 'Open Rehearsal', status: 'PUBLISH', categories: [{ name: 'Jazz' }] }) },
      // Every event carries its change's cursor (resume after it), selected or not.
      extensions: { cursor: expect.any(String) },
    });
    expect((await admin.next()).data.eventChanged).toMatchObject({ action: 'CREATED', eventId: gid('Event', published.body.id) });

    const draft = await server.api('/events', event('Secret Draft', { status: 'draft' }));
    expect((await admin.next()).data.eventChanged).toEqual(change('CREATED', draft.body.id, { title: 'Secret Draft', status: 'DRAFT', categories: [] }));
    // Changes arrive in order: the anonymous subscriber's next payload is the one after the draft.
    const marker = await server.graphql<{ updateEvent: { databaseId: number } }>(
      `mutation { updateEvent(id: ${published.body.id}, input: { title: "Open Rehearsal (moved)" }) { ... on UpdateEventSuccess { event { databaseId } } } }`,
    );
    expect(marker.errors).toBeUndefined();
    expect((await anonymous.next()).data.eventChanged).toMatchObject({ action: 'UPDATED', eventId: gid('Event', published.body.id), event: { title: 'Open Rehearsal (moved)' } });
    expect(JSON.stringify(anonymous.received)).not.toContain('Secret Draft');
    expect(anonymous.received.map((r) => r.data.data.eventChanged.eventId)).not.toContain(gid('Event', draft.body.id));

    anonymous.close();
    admin.close();
    await expect.poll(subscribers, { timeout: 2_000 }).toBe(0);
  });

  it('tells a subscriber who could read an event that it is gone (unpublished, trashed, restored, purged)', async () => {
    const created = await server.api('/events', event('Fleeting'));
    const id = created.body.id as number;
    // The filter takes database IDs and global IDs alike.
    const anonymous = await sub(`subscription { eventChanged(filter: { ids: [${id}] }) { action eventId deletedId event { title } } }`);
    const admin = await sub(`subscription { eventChanged(filter: { ids: ["${gid('Event', id)}"] }) { action eventId deletedId event { title } } }`, 'admin');

    await server.api(`/events/${id}`, { method: 'POST', as: 'admin', body: { status: 'draft' } });
    expect((await anonymous.next()).data).toEqual({ eventChanged: change('DELETED', id, null) });
    expect((await admin.next()).data.eventChanged).toEqual(change('UPDATED', id, { title: 'Fleeting' }));

    await server.api(`/events/${id}`, { method: 'POST', as: 'admin', body: { status: 'publish' } });
    expect((await anonymous.next()).data.eventChanged).toEqual(change('UPDATED', id, { title: 'Fleeting' }));
    await admin.next();

    expect((await server.api(`/events/${id}`, { method: 'DELETE', as: 'admin' })).status).toBe(200);
    expect((await anonymous.next()).data).toEqual({ eventChanged: change('DELETED', id, null) });
    expect((await admin.next()).data).toEqual({ eventChanged: change('DELETED', id, null) });

    const restored = await server.graphql(`mutation { restoreEvent(id: ${id}) { ... on RestoreEventSuccess { event { status } } } }`);
    expect(restored.errors).toBeUndefined();
    expect((await anonymous.next()).data.eventChanged).toEqual(change('RESTORED', id, { title: 'Fleeting' }));
    await admin.next();

    await server.api(`/events/${id}`, { method: 'DELETE', as: 'admin' });
    await admin.next();
    await anonymous.next();
    const purged = await server.graphql(`mutation { purgeEvent(id: ${id}) { ... on PurgeEventSuccess { deletedId } } }`);
    expect(purged.errors).toBeUndefined();
    expect((await admin.next()).data).toEqual({ eventChanged: change('DELETED', id, null) });
    // The trashed event was not readable anonymously any more: its purge is not news to them.
    await expect(anonymous.next(300)).rejects.toThrow(/no subscription payload/);
  });

  it('an author sees changes of their own draft, not of others’', async () => {
    const author = await sub(EVENTS, 'author');
    const theirs = await server.api('/events', { ...event('Author Draft', { status: 'draft' }), as: 'author' });
    expect(theirs.status).toBe(201);
    await server.api('/events', event('Admin Draft', { status: 'draft' }));
    await server.api('/events', event('Public'));
    expect((await author.next()).data.eventChanged.event.title).toBe('Author Draft');
    expect((await author.next()).data.eventChanged.event.title).toBe('Public');
  });
});

describe('subscription eventChanged with recurring series', () => {
  it('reports occurrences created, moved by a series edit, cancelled, and trashed with their series', async () => {
    const anonymous = await sub('subscription { eventChanged { action eventId deletedId event { title startDate } } }');
    // The changes with their event's database ID (`id`) in place of its global ID.
    const ids = (changes: { action: string; eventId: string }[]) =>
      changes.map(({ eventId, ...c }) => ({ ...c, id: Number(Buffer.from(eventId, 'base64').toString().split(':')[1]) }));
    const created = await server.graphql(
      `mutation { createEvent(input: { title: "Weekly", startDate: "2030-03-05 19:00", endDate: "2030-03-05 20:00", status: PUBLISH,
        recurrence: { rule: "FREQ=WEEKLY;COUNT=3" } }) { ... on CreateEventSuccess { event { databaseId occurrences { databaseId } } } } }`,
    );
    const seriesId = created.data.createEvent.event.databaseId as number;
    const [, second, third] = created.data.createEvent.event.occurrences.map((o: { databaseId: number }) => o.databaseId);
    const first3 = ids([await anonymous.next(), await anonymous.next(), await anonymous.next()].map((m) => m.data.eventChanged));
    expect(first3.map((c) => [c.action, c.id]).sort()).toEqual([['CREATED', second], ['CREATED', seriesId], ['CREATED', third]].sort());

    const moved = await server.graphql(`mutation { updateEvent(id: ${seriesId}, scope: ALL, input: { startDate: "2030-03-05 20:00", endDate: "2030-03-05 21:00" }) { ... on UpdateEventSuccess { event { databaseId } } } }`);
    expect(moved.errors).toBeUndefined();
    const updates = ids([await anonymous.next(), await anonymous.next(), await anonymous.next()].map((m) => m.data.eventChanged));
    expect(updates.find((c) => c.id === third)).toEqual({ action: 'UPDATED', id: third, deletedId: null, event: { title: 'Weekly', startDate: '2030-03-19 20:00:00' } });

    const cancelled = await server.graphql(`mutation { cancelOccurrence(id: ${second}) { ... on CancelOccurrenceSuccess { deletedId event { databaseId } } } }`);
    expect(cancelled.errors).toBeUndefined();
    expect(cancelled.data.cancelOccurrence).toEqual({ deletedId: gid('Event', second), event: { databaseId: seriesId } });
    const afterCancel = ids([await anonymous.next(), await anonymous.next()].map((m) => m.data.eventChanged));
    expect(afterCancel).toContainEqual({ action: 'DELETED', id: second, deletedId: gid('Event', second), event: null });
    expect(afterCancel.find((c) => c.id === seriesId)?.action).toBe('UPDATED');

    expect((await server.api(`/events/${seriesId}`, { method: 'DELETE', as: 'admin' })).status).toBe(200);
    const trashed = ids([await anonymous.next(), await anonymous.next()].map((m) => m.data.eventChanged));
    expect(trashed.map((c) => [c.action, c.id]).sort()).toEqual([['DELETED', seriesId], ['DELETED', third]].sort());
  });
});

describe('subscriptions of linked records and terms', () => {
  it('term counts, venues and organizers publish their changes too', async () => {
    const categories = await sub('subscription { eventCategoryChanged { action eventCategoryId eventCategory { name count } } }');
    const venues = await sub('subscription { venueChanged { action venueId deletedId venue { name } venueEdge { cursor node { name } } } }');
    const created = await server.api('/events', event('With Links', { categories: ['Blues'], venue: { venue: 'Blue Hall' } }));
    expect(created.status).toBe(201);
    const venueId = created.body.venue.id as number;
    // A creation carries the record's edge (cursor of the default list) for clients to add to a list.
    const createdVenue = (await venues.next()).data.venueChanged;
    expect(createdVenue).toMatchObject({ action: 'CREATED', venueId: gid('Venue', venueId), deletedId: null, venue: { name: 'Blue Hall' }, venueEdge: { node: { name: 'Blue Hall' } } });
    expect(typeof createdVenue.venueEdge.cursor).toBe('string');
    const category = await categories.next();
    expect(category.data.eventCategoryChanged).toMatchObject({ action: 'CREATED', eventCategory: { name: 'Blues' } });
    // The event was published with the category: its count moved.
    expect((await categories.next()).data.eventCategoryChanged).toMatchObject({ action: 'UPDATED', eventCategory: { name: 'Blues', count: 1 } });

    await server.api(`/events/${created.body.id}`, { method: 'DELETE', as: 'admin' });
    expect((await categories.next()).data.eventCategoryChanged).toMatchObject({ action: 'UPDATED', eventCategory: { count: 0 } });

    await server.api(`/venues/${venueId}`, { method: 'POST', as: 'admin', body: { venue: 'Blue Hall (upstairs)' } });
    expect((await venues.next()).data.venueChanged).toEqual({
      action: 'UPDATED',
      venueId: gid('Venue', venueId),
      deletedId: null,
      venue: { name: 'Blue Hall (upstairs)' },
      venueEdge: null,
    });
  });
});

describe('resuming a subscription', () => {
  const subAfter = async (headers: Record<string, string>, after?: string) => {
    const query = `subscription { eventChanged${after ? `(after: "${after}")` : ''} { cursor action event { title } } }`;
    const s = await subscribeSse(server.base, query, headers);
    open.push(s);
    return s;
  };
  const titleOf = (p: any) => p.data.eventChanged.event?.title;
  // On PostgreSQL a change is read once every older transaction of the server has ended: other
  // test files' transactions on the same server can hold it back for a while under load.
  const DELIVERY = 10_000;

  it('resumes after Last-Event-ID (an EventSource reconnecting) and after `after`, with nothing missed or repeated', async () => {
    const first = await subAfter({});
    await server.api('/events', event('One'));
    const one = await first.next();
    expect(titleOf(one)).toBe('One');
    // The event's id is its change's cursor, as the payload's `cursor` and `extensions.cursor` say.
    expect(first.received[0]!.id).toBe(one.data.eventChanged.cursor);
    expect(one.extensions.cursor).toBe(one.data.eventChanged.cursor);
    first.close();

    // Written while the subscriber is away.
    await server.api('/events', event('Two'));
    await server.api('/events', event('Three'));

    const resumed = await subAfter({ 'last-event-id': first.received[0]!.id! });
    const viaArg = await subAfter({}, one.data.eventChanged.cursor);
    const live = await subAfter({});
    expect(titleOf(await resumed.next(DELIVERY))).toBe('Two');
    expect(titleOf(await resumed.next(DELIVERY))).toBe('Three');
    expect([titleOf(await viaArg.next(DELIVERY)), titleOf(await viaArg.next(DELIVERY))]).toEqual(['Two', 'Three']);
    // Then live, past the seam: the next write once, to every one of them.
    await server.api('/events', event('Four'));
    expect(titleOf(await resumed.next(DELIVERY))).toBe('Four');
    expect(titleOf(await viaArg.next(DELIVERY))).toBe('Four');
    expect(titleOf(await live.next(DELIVERY))).toBe('Four');
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(resumed.received.map((r) => titleOf(r.data))).toEqual(['Two', 'Three', 'Four']);
    expect(live.received.map((r) => titleOf(r.data))).toEqual(['Four']);
    // Each cursor follows the one before it: resuming after the last gives nothing more.
    const after = await subAfter({}, resumed.received[2]!.id);
    await expect(after.next(1_500)).rejects.toThrow('no subscription payload');
  });

  it('refuses a cursor older than the log keeps (CURSOR_EXPIRED) and one that is not a cursor', async () => {
    const s = await subAfter({});
    await server.api('/events', event('Old'));
    const old = (await s.next(DELIVERY)).data.eventChanged.cursor as string;
    await server.api('/events', event('Newer'));
    await s.next();
    await server.db.prisma.$executeRaw`UPDATE "ChangeLog" SET "committedAt" = now() - interval '40 days'`;
    expect(await pruneChanges(server.db.prisma, 30)).toBe(2);
    // Answered 400 (an EventSource does not retry it), with the coded error as the stream's one event.
    const refusal = async (headers: Record<string, string>, after?: string) => {
      const query = `subscription { eventChanged${after ? `(after: "${after}")` : ''} { cursor } }`;
      const res = await fetch(`${server.base}/graphql?query=${encodeURIComponent(query)}`, { headers: { accept: 'text/event-stream', ...headers } });
      const body = await res.text();
      return { status: res.status, extensions: JSON.parse(/^data: (.+)$/m.exec(body)![1]!).errors[0].extensions };
    };
    expect(await refusal({}, old)).toEqual({ status: 400, extensions: expect.objectContaining({ code: 'CURSOR_EXPIRED', field: 'after' }) });
    expect(await refusal({ 'last-event-id': 'nonsense' })).toEqual({ status: 400, extensions: expect.objectContaining({ code: 'INVALID_CURSOR', field: 'Last-Event-ID' }) });
  });
});

describe('subscribers of one process', () => {
  it('share the read of a changed record with the subscribers who may read the same (one read per audience, not one each)', async () => {
    const statements: string[] = [];
    let counting = false;
    const shared = await startTestServer({ now: null, changes: countingChangeBus().bus, onQuery: (sql) => counting && statements.push(sql) });
    const subs: SseSubscription[] = [];
    try {
      const QUERY = 'subscription { eventChanged { action event { title } } }';
      for (let i = 0; i < 6; i++) subs.push(await subscribeSse(shared.base, QUERY));
      for (let i = 0; i < 2; i++) subs.push(await subscribeSse(shared.base, QUERY, { authorization: shared.authHeader('admin') }));
      counting = true;
      expect((await shared.api('/events', event('Shared Read'))).status).toBe(201);
      for (const s of subs) expect((await s.next(5_000)).data.eventChanged).toEqual({ action: 'CREATED', event: { title: 'Shared Read' } });
      counting = false;
      // The subscriptions' own read of the event (`readableNow`: its ID, the viewer's condition, not trashed).
      const reads = statements.filter((s) => /FROM "public"\."Event" AS "t0" WHERE \("t0"\."id" = \$1 AND .*NOT "t0"\."status" =/.test(s));
      // Anonymous subscribers read published events, administrators any: two audiences.
      expect(reads).toHaveLength(2);
    } finally {
      for (const s of subs) s.close();
      await shared.close();
    }
  });
});
