import { describe, expect, it, vi } from 'vitest';
import { ChangeLogTailer, changeLogTailer, headCursor, pruneChanges, readChanges, recordChanges, type ChangeLogRow } from '../../src/services/change-log.ts';
import { createLocalChangeBus, type ChangeBus } from '../../src/services/changes.ts';
import { createTerm } from '../../src/services/terms.ts';
import { testBackend } from '../helpers/database.ts';
import { useGraphQLHarness, type GraphQLHarness } from '../helpers/graphql.ts';

let h: GraphQLHarness;
useGraphQLHarness((harness) => (h = harness));

const summary = (rows: readonly ChangeLogRow[]) => rows.map((r) => `${r.kind}:${r.action}:${r.id}`);

/** A bus that never delivers anything: a process that dies right after its commit, or Redis away. */
function deadBus(): ChangeBus {
  const bus = createLocalChangeBus();
  return { ...bus, publish: () => {} };
}

/**
 * The rows after `after` once `count` of them are readable. On PostgreSQL the horizon is the whole
 * server's: a transaction open in another database (other test files) holds it back a moment.
 */
async function readWhenVisible(after: string, count: number): Promise<ChangeLogRow[]> {
  let rows: ChangeLogRow[] = [];
  await expect.poll(async () => (rows = await readChanges(h.db.prisma, { after })).length, { timeout: 10_000 }).toBe(count);
  return rows;
}

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe('the change log', () => {
  it('holds every change of a write, linked ones included, in commit order, from the write’s own transaction', async () => {
    const start = await headCursor(h.db.prisma);
    const { createEventCategory } = await h.ok<{ createEventCategory: { eventCategory: { databaseId: number } } }>(
      'mutation { createEventCategory(input: { name: "Music" }) { ... on CreateEventCategorySuccess { eventCategory { databaseId } } } }',
    );
    const categoryId = createEventCategory.eventCategory.databaseId;
    const { createEvent } = await h.ok<{ createEvent: { event: { databaseId: number } } }>(
      `mutation { createEvent(input: { title: "Gig", startDate: "2026-12-20 20:00:00", endDate: "2026-12-20 22:00:00", status: PUBLISH, categories: ["${categoryId}"] }) { ... on CreateEventSuccess { event { databaseId } } } }`,
    );
    const eventId = createEvent.event.databaseId;
    await h.ok(`mutation { deleteEvent(id: "${eventId}") { __typename } }`);
    const rows = await readWhenVisible(start, 5);
    expect(summary(rows)).toEqual([
      `EVENT_CATEGORY:CREATED:${categoryId}`,
      `EVENT:CREATED:${eventId}`,
      `EVENT_CATEGORY:UPDATED:${categoryId}`,
      `EVENT:DELETED:${eventId}`,
      `EVENT_CATEGORY:UPDATED:${categoryId}`,
    ]);
    // The trash carries who could read the event before it (published, by its author).
    expect(rows[3]!.before).toMatchObject({ status: 'publish' });
    // Reading on from any row gives exactly the rows after it; filters narrow.
    expect(summary(await readChanges(h.db.prisma, { after: rows[1]!.cursor }))).toEqual(summary(rows.slice(2)));
    expect(summary(await readChanges(h.db.prisma, { after: start, types: ['EVENT'], actions: ['DELETED'] }))).toEqual([`EVENT:DELETED:${eventId}`]);
    expect(await readChanges(h.db.prisma, { after: rows.at(-1)!.cursor })).toEqual([]);
    expect(await headCursor(h.db.prisma)).toBe(rows.at(-1)!.cursor);
  });

  it('keeps no row of a write that failed, and no write without its rows', async () => {
    const ctx = await h.contextFor('ADMINISTRATOR');
    const start = await headCursor(h.db.prisma);
    await expect(
      recordChanges(ctx, async (ctx) => {
        await createTerm(ctx, 'TAG', { name: 'Gone' });
        throw new Error('the write fails after its statements');
      }),
    ).rejects.toThrow('the write fails');
    expect(await h.db.prisma.tag.count({ where: { name: 'Gone' } })).toBe(0);
    expect(await readChanges(h.db.prisma, { after: start })).toEqual([]);
  });

  it('loses nothing when the process dies between its commit and the delivery (or the bus is away)', async () => {
    const writer = { ...(await h.contextFor('ADMINISTRATOR')), changes: deadBus() };
    // A reader in another process: its own bus, which hears nothing of the write.
    const tailer = changeLogTailer(h.db.prisma, createLocalChangeBus());
    const seen: ChangeLogRow[] = [];
    const got = deferred();
    const { off } = await tailer.onRows((rows) => {
      seen.push(...rows);
      if (seen.length) got.resolve();
    });
    try {
      const id = await createTerm(writer, 'TAG', { name: 'Quiet' });
      // No wake-up ever comes: the poll finds it.
      await got.promise;
      expect(summary(seen)).toEqual([`EVENT_TAG:CREATED:${id}`]);
    } finally {
      off();
    }
  });

  it('measures how far a tailer is behind the committed rows (the backlog metric), zero once it read them', async () => {
    const writer = { ...(await h.contextFor('ADMINISTRATOR')), changes: deadBus() };
    // No wake-up from the bus and, with its poll's interval never firing, no read until told.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const tailer = new ChangeLogTailer(h.db.prisma, createLocalChangeBus());
    // Started (its position set) once this resolves.
    const { off } = await tailer.onRows(() => {});
    try {
      expect(await tailer.backlog()).toEqual({ rows: 0, seconds: 0 });
      await createTerm(writer, 'TAG', { name: 'Behind' });
      await createTerm(writer, 'TAG', { name: 'Further behind' });
      const behind = await tailer.backlog();
      expect(behind.rows).toBe(2);
      expect(behind.seconds).toBeGreaterThanOrEqual(0);
      await new Promise((r) => setTimeout(r, 50));
      expect((await tailer.backlog()).seconds).toBeGreaterThan(0);
      // Once it reads (a wake-up), nothing is behind.
      await expect.poll(async () => (tailer.wake(), tailer.backlog()), { timeout: 10_000 }).toEqual({ rows: 0, seconds: 0 });
    } finally {
      off();
      vi.useRealTimers();
    }
    expect(await tailer.backlog()).toEqual({ rows: 0, seconds: 0 });
  });

  it('refuses a cursor older than the log keeps with CURSOR_EXPIRED', async () => {
    const ctx = await h.contextFor('ADMINISTRATOR');
    const start = await headCursor(h.db.prisma);
    const write = (name: string) => createTerm(ctx, 'TAG', { name });
    await write('Old');
    await write('Older');
    const [old] = await readWhenVisible(start, 2);
    await write('New');
    await readWhenVisible(start, 3);
    await h.db.prisma.$executeRaw`UPDATE "ChangeLog" SET "committedAt" = now() - interval '40 days' WHERE (txid, seq) <= (SELECT txid, seq FROM "ChangeLog" ORDER BY txid, seq OFFSET 1 LIMIT 1)`;
    expect(await pruneChanges(h.db.prisma, 30)).toBe(2);
    await expect(readChanges(h.db.prisma, { after: start })).rejects.toMatchObject({ code: 'CURSOR_EXPIRED' });
    await expect(readChanges(h.db.prisma, { after: old!.cursor })).rejects.toMatchObject({ code: 'CURSOR_EXPIRED' });
    // The head is still good, and so is the cursor of the last row pruned.
    const rest = await readChanges(h.db.prisma, { after: await headCursor(h.db.prisma) });
    expect(rest).toEqual([]);
    await expect(readChanges(h.db.prisma, { after: 'bm90IGEgY3Vyc29y' })).rejects.toMatchObject({ code: 'INVALID_CURSOR' });
  });

  it.skipIf(testBackend !== 'postgres')('never skips a transaction that took its number first and commits last (PostgreSQL)', async () => {
    const writer = await h.contextFor('ADMINISTRATOR');
    const start = await headCursor(h.db.prisma);
    const hasXid = deferred();
    const release = deferred();
    const tag = (ctx: typeof writer, name: string) => createTerm(ctx, 'TAG', { name });
    // The earlier transaction takes its ID (its first write), then waits.
    const slow = recordChanges(writer, async (ctx) => {
      const id = await tag(ctx, 'Slow');
      hasXid.resolve();
      await release.promise;
      return id;
    });
    await hasXid.promise;
    // A later one commits first.
    const fastId = await tag(writer, 'Fast');
    const tailer = changeLogTailer(h.db.prisma, createLocalChangeBus());
    const delivered: ChangeLogRow[] = [];
    const { off } = await tailer.onRows((rows) => delivered.push(...rows));
    try {
      // Committed, but not readable yet: the slow one is still open below it.
      expect(await readChanges(h.db.prisma, { after: start })).toEqual([]);
      release.resolve();
      const slowId = await slow;
      const rows = await readWhenVisible(start, 2);
      expect(summary(rows)).toEqual([`EVENT_TAG:CREATED:${slowId}`, `EVENT_TAG:CREATED:${fastId}`]);
      // A live reader gets both, in that order, too.
      await expect.poll(() => delivered.length, { timeout: 5_000 }).toBe(2);
      expect(summary(delivered)).toEqual(summary(rows));
    } finally {
      off();
    }
  });
});

describe('Query.changes', () => {
  const CHANGES = `query($after: String, $types: [ChangeType!], $actions: [ChangeAction!]) {
    changes(after: $after, first: 50, types: $types, actions: $actions) {
      edges { cursor node { type action recordId deletedId event { title } } }
      pageInfo { hasNextPage endCursor }
    }
  }`;
  const create = async (title: string, status: string) =>
    (
      await h.ok(
        `mutation { createEvent(input: { title: "${title}", startDate: "2026-12-20 20:00:00", endDate: "2026-12-20 22:00:00", status: ${status} }) { ... on CreateEventSuccess { event { databaseId } } } }`,
      )
    ).createEvent.event.databaseId as number;
  const seen = (data: any) => data.changes.edges.map((e: any) => `${e.node.type}:${e.node.action}:${e.node.event?.title ?? '-'}`);

  it('gives each reader the changes it may see since a cursor, deletes included, a record leaving its view as DELETED', async () => {
    const start = await headCursor(h.db.prisma);
    const shown = await create('Shown', 'PUBLISH');
    await create('Hidden draft', 'DRAFT');
    await h.ok(`mutation { updateEvent(id: ${shown}, input: { status: DRAFT }) { __typename } }`);
    await readWhenVisible(start, 3);

    const anonymous = await h.ok(CHANGES, { after: start }, { as: null });
    // Judged now, as a subscriber reading them now would: the draft never appears; the event
    // published then unpublished arrives once, as gone (its creation, unreadable now, is left out).
    expect(seen(anonymous)).toEqual(['EVENT:DELETED:-']);
    expect(anonymous.changes.edges[0].node.deletedId).toBe(Buffer.from(`Event:${shown}`).toString('base64'));
    expect(anonymous.changes.pageInfo).toMatchObject({ hasNextPage: false });
    const admin = await h.ok(CHANGES, { after: start });
    expect(seen(admin)).toEqual(['EVENT:CREATED:Shown', 'EVENT:CREATED:Hidden draft', 'EVENT:UPDATED:Shown']);
    expect(seen(await h.ok(CHANGES, { after: start, actions: ['UPDATED'] }))).toEqual(['EVENT:UPDATED:Shown']);
    expect(seen(await h.ok(CHANGES, { after: start, types: ['VENUE'] }))).toEqual([]);
    // Reading on from the end cursor: nothing more, until the next write.
    const end = admin.changes.pageInfo.endCursor;
    expect(seen(await h.ok(CHANGES, { after: end }))).toEqual([]);
  });

  it('refuses a cursor older than the log keeps: CURSOR_EXPIRED', async () => {
    const start = await headCursor(h.db.prisma);
    await create('Old', 'PUBLISH');
    await readWhenVisible(start, 1);
    await h.db.prisma.$executeRaw`UPDATE "ChangeLog" SET "committedAt" = now() - interval '40 days'`;
    expect(await pruneChanges(h.db.prisma, 30)).toBe(1);
    expect(await h.refused(CHANGES, { after: start })).toMatchObject({ code: 'CURSOR_EXPIRED', field: 'after' });
  });
});
