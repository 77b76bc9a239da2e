/**
 * Keyset pages against offset pages deep into a long event list, and the plans PostgreSQL gives
 * the keyset conditions (schema/keyset.ts): the same 50-event page (rows P×50 … P×50+49 of the
 * upcoming list) read as `page: P+1, perPage: 50` (offset; past 50 rows its IDs first, then the
 * records: schema/pagination.ts `prismaList`) and as `first: 50, after: <cursor of the row before>`,
 * the end of the list (`last: 50`) and the page before a cursor (`last: 50, before:`), each
 * selecting every field and relation the REST facade selects. Prints the medians and the plan of
 * the keyset statement (the index it walks).
 *
 *   tsx test/bench/keyset.ts [events=10000] [postgres admin URL, default postgres://postgres@127.0.0.1:5432/postgres]
 */
import { DateTime } from 'luxon';
import pg from 'pg';
import { schema } from '../../schema/index.ts';
import { openDatabase } from '../../src/db/database.ts';
import { defaultSiteSettings, loadConfig } from '../../src/server/config.ts';
import { createGraphQLServer } from '../../src/server/yoga.ts';
import { createContext } from '../../src/services/context.ts';
import { eventsArchiveDocument } from './uncached-page.ts';
import { ROOT } from './process.ts';
import { seedUrl } from './seed.ts';

const events = Number(process.argv[2] ?? 10_000);
const adminUrl = process.argv[3] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const RUNS = 15;
const now = DateTime.fromISO('2026-11-21T12:00:00Z').toJSDate();

const name = `cal_keyset_bench_${process.pid}`;
const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
await admin.query(`CREATE DATABASE "${name}"`);
const url = Object.assign(new URL(adminUrl), { pathname: `/${name}` }).href;
try {
  await seedUrl(url, undefined, { events, now, progress: false });
  const statements: { sql: string; args: readonly unknown[] }[] = [];
  const db = await openDatabase(url, { onQuery: (sql, args) => statements.push({ sql, args: args ?? [] }) });
  const yoga = createGraphQLServer(schema, { logger: { error: () => {} }, limits: loadConfig({}).graphql });
  const settings = { ...defaultSiteSettings, maxPerPage: 50 };
  // The facade's selection of an event (EventsArchive's fragments), on a page asked for either way.
  const archive = eventsArchiveDocument(ROOT);
  const fragments = archive.slice(archive.indexOf('fragment '));
  const query = `query($page: Int, $perPage: Int, $first: Int, $after: String, $last: Int, $before: String) {
    events(page: $page, perPage: $perPage, first: $first, after: $after, last: $last, before: $before) {
      ...RestPage pageInfo { startCursor endCursor } edges { node { ...RestEvent } }
    }
  }\n${fragments}`;
  const run = async (variables: Record<string, unknown>) => {
    const cal = createContext({ prisma: db.prisma, settings, viewer: null, now });
    const res = await yoga.fetch('http://bench/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query, variables }) }, { cal });
    const body = (await res.json()) as { data?: { events: { totalCount: number; pageInfo: { startCursor: string; endCursor: string }; edges: unknown[] } }; errors?: unknown };
    if (!body.data) throw new Error(JSON.stringify(body.errors));
    return body.data.events;
  };
  const median = async (variables: Record<string, unknown>) => {
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const t = performance.now();
      await run(variables);
      times.push(performance.now() - t);
    }
    return times.sort((a, b) => a - b)[RUNS >> 1]!;
  };

  const total = (await run({ perPage: 1 })).totalCount;
  const pages = Math.floor(total / 50);
  console.log(`${events} events seeded; ${total} in the upcoming list (${pages} full pages of 50), PostgreSQL, ${RUNS} runs each, median ms:`);
  for (const p of [1, Math.floor(pages / 2), pages - 1]) {
    const before = await run({ page: p, perPage: 50 });
    const offset = await median({ page: p + 1, perPage: 50 });
    const keyset = await median({ first: 50, after: before.pageInfo.endCursor });
    const back = await median({ last: 50, before: (await run({ page: p + 2, perPage: 50 })).pageInfo.startCursor });
    console.log(`  rows ${p * 50}–${p * 50 + 49}: offset page ${(offset).toFixed(1)}, keyset after ${keyset.toFixed(1)}, keyset before ${back.toFixed(1)}`);
  }
  console.log(`  list end: last 50 ${(await median({ last: 50 })).toFixed(1)}`);

  // The plans of a deep keyset page's statements: its rows (after the cursor), and whether any row
  // lies before it (hasPreviousPage).
  const cursor = (await run({ page: pages - 1, perPage: 50 })).pageInfo.endCursor;
  statements.length = 0;
  await run({ first: 50, after: cursor });
  const keyed = statements.filter((s) => /"id" > \$/.test(s.sql) || /"id" < \$/.test(s.sql) || /"id" <= \$/.test(s.sql));
  for (const statement of keyed) {
    const plan = await db.prisma.$queryRawUnsafe<{ 'QUERY PLAN': string }[]>(`EXPLAIN (ANALYZE, COSTS OFF) ${statement.sql}`, ...statement.args);
    const lines = plan.map((r) => r['QUERY PLAN']);
    console.log(`  plan of a keyset statement (${/LIMIT \$\d+ OFFSET/.test(statement.sql) ? 'the page' : 'a check'}; first: 50, after: a cursor near the end):`);
    for (const line of lines.filter((l) => /^\s*(->\s*)?(Limit|Index|Seq Scan|Sort|Bitmap)|Index Cond|Execution Time/.test(l)).slice(0, 8)) console.log(`    ${line.trim().slice(0, 160)}`);
  }
  // The database's own time for the deepest full page read both ways (less noisy than the wall times
  // above on a shared machine): the offset page's ID statement, and the keyset page's statement.
  const timed = async (variables: Record<string, unknown>, pick: (sql: string) => boolean) => {
    statements.length = 0;
    await run(variables);
    const statement = statements.find((s) => pick(s.sql));
    if (!statement) return NaN;
    const plan = await db.prisma.$queryRawUnsafe<{ 'QUERY PLAN': string }[]>(`EXPLAIN (ANALYZE) ${statement.sql}`, ...statement.args);
    return Number(/Execution Time: ([\d.]+)/.exec(plan.at(-1)!['QUERY PLAN'])?.[1]);
  };
  const offsetIds = await timed({ page: pages, perPage: 50 }, (sql) => /OFFSET/.test(sql) && !/LEFT JOIN/.test(sql));
  const offsetRecords = await timed({ page: pages, perPage: 50 }, (sql) => /"id" IN \(/.test(sql) && /LEFT JOIN/.test(sql));
  const keysetPage = await timed({ first: 50, after: cursor }, (sql) => /"id" > \$/.test(sql) && /LIMIT/.test(sql) && /LEFT JOIN/.test(sql));
  console.log(
    `  database time of the last full page (EXPLAIN ANALYZE): offset ${(offsetIds + offsetRecords).toFixed(2)} ms ` +
      `(IDs ${offsetIds.toFixed(2)} + records ${offsetRecords.toFixed(2)}), keyset ${keysetPage.toFixed(2)} ms (one statement)`,
  );
  await db.close();
} finally {
  await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await admin.end();
}
