/**
 * `npm run bench:changes`: what the change log costs. Writes events through the service (each with
 * two categories and a venue, so the linked changes are there too), then prints the log rows per
 * write, their bytes (table and index, as PostgreSQL counts them), the median time of one write and
 * of the same write's log insert alone, and the time of pruning the rows (CURSOR_EXPIRED's other
 * side). The whole write's cost next to the revision before the log: `npm run bench` with
 * BENCH_SCENARIOS=create, once with BENCH_REV set to that revision.
 *
 *   tsx test/bench/change-log.ts [writes=300] [PostgreSQL URL; default: an in-memory PGlite]
 */
import { openDatabase } from '../../src/db/database.ts';
import { applyMigrations } from '../../src/db/migrate.ts';
import { defaultSiteSettings } from '../../src/server/config.ts';
import { appendChanges, headCursor, pruneChanges, readChanges } from '../../src/services/change-log.ts';
import { createContext } from '../../src/services/context.ts';
import { createEvent, updateEvent } from '../../src/services/events.ts';
import { inTransaction } from '../../src/db/transactions.ts';

const writes = Number(process.argv[2] ?? 300);
const url = process.argv[3];
const db = await openDatabase(url ?? 'memory:', {});
await applyMigrations(db);
const admin = await db.prisma.user.upsert({
  where: { login: 'bench-admin' },
  create: { login: 'bench-admin', role: 'ADMINISTRATOR', displayName: 'bench', passwordHash: 'x' },
  update: {},
});
const ctx = () => createContext({ prisma: db.prisma, settings: defaultSiteSettings, viewer: { id: admin.id, login: 'bench-admin', role: 'ADMINISTRATOR' } });
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const start = await headCursor(db.prisma);
const ids: number[] = [];
const createMs: number[] = [];
for (let i = 0; i < writes; i++) {
  const t = performance.now();
  ids.push(await createEvent(ctx(), { title: `Bench ${i}`, startDate: '2030-03-01 19:00:00', endDate: '2030-03-01 21:00:00', status: 'publish', categories: ['Music', 'Jazz'], venues: [{ create: { name: 'Bench Hall' } }] }));
  createMs.push(performance.now() - t);
}
const afterCreates = await headCursor(db.prisma);
const updateMs: number[] = [];
for (const id of ids) {
  const t = performance.now();
  await updateEvent(ctx(), { id }, { title: `Bench ${id} (moved)` });
  updateMs.push(performance.now() - t);
}
// The log insert alone, in a transaction of its own, for one update's changes (the event and its two categories).
const insertMs: number[] = [];
for (const id of ids.slice(0, 100)) {
  const t = performance.now();
  await inTransaction(db.prisma, (tx) =>
    appendChanges(tx, [
      { kind: 'EVENT', id, action: 'UPDATED', before: { status: 'publish', authorId: admin.id } },
      { kind: 'EVENT_CATEGORY', id: 1, action: 'UPDATED' },
      { kind: 'EVENT_CATEGORY', id: 2, action: 'UPDATED' },
    ]),
  );
  insertMs.push(performance.now() - t);
}
/** Rows after `from`, up to and including the row whose cursor is `to` (all when absent). */
async function rowsBetween(from: string, to?: string): Promise<number> {
  let n = 0;
  for (let after = from; ; ) {
    const page = await readChanges(db.prisma, { after, limit: 1000 });
    for (const r of page) {
      n++;
      if (r.cursor === to) return n;
    }
    if (page.length < 1000) return n;
    after = page.at(-1)!.cursor;
  }
}
const rows = await rowsBetween(start);
const createRows = await rowsBetween(start, afterCreates);
const [size] = await db.prisma.$queryRaw<{ bytes: bigint }[]>`SELECT pg_total_relation_size('"ChangeLog"') AS bytes`;
const bytes = Number(size!.bytes);
await db.prisma.$executeRaw`UPDATE "ChangeLog" SET "committedAt" = now() - interval '40 days'`;
await db.prisma.$executeRaw`VACUUM ANALYZE "ChangeLog"`.catch(() => {});
const t = performance.now();
const pruned = await pruneChanges(db.prisma, 30);
const pruneMs = performance.now() - t;

const total = writes * 2;
console.log(`change log on ${db.kind}, ${writes} creates + ${writes} updates (event + 2 categories + venue each):`);
console.log(`  log rows: ${rows} (${(rows / total).toFixed(2)} per write: ${(createRows / writes).toFixed(2)} per create, ${((rows - createRows) / writes).toFixed(2)} per update)`);
console.log(`  log size: ${(bytes / 1024).toFixed(0)} KiB with its index, ${(bytes / rows).toFixed(0)} bytes per row`);
console.log(`  median create ${median(createMs).toFixed(2)} ms, update ${median(updateMs).toFixed(2)} ms; a 3-change log insert alone (own transaction) ${median(insertMs).toFixed(2)} ms`);
console.log(`  prune of ${pruned} rows: ${pruneMs.toFixed(1)} ms (${((pruneMs / Math.max(pruned, 1)) * 1000).toFixed(1)} µs per row)`);
await db.close();
