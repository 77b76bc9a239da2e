/**
 * `npx tsx test/bench/recurrence.ts`: lists of occurrences vs lists of plain events (issue 13).
 * Seeds, in two in-memory PGlite databases, N weekly series (materialized over the 2-year horizon,
 * ~104 occurrences each) and N single events, then times the REST list's GraphQL operation
 * (`events(perPage)` with its total) in-process, sequentially. Prints the figures; no assertion.
 *
 * Environment: BENCH_SERIES=1000 (N), BENCH_REPEAT=50 (list requests per case), BENCH_PER_PAGE=50.
 */
import { performance } from 'node:perf_hooks';
import { createContext } from '../../src/context.ts';
import { openDatabase } from '../../src/db/database.ts';
import { applyMigrations } from '../../src/db/migrate.ts';
import { defaultSiteSettings, loadConfig } from '../../src/server/config.ts';
import { createGraphQLServer } from '../../src/server/yoga.ts';
import { schema } from '../../schema/index.ts';

const N = Number(process.env.BENCH_SERIES ?? 1000);
const REPEAT = Number(process.env.BENCH_REPEAT ?? 50);
const PER_PAGE = Number(process.env.BENCH_PER_PAGE ?? 50);
const NOW = new Date('2026-11-21T12:00:00Z');

const CREATE = `mutation($input: CreateEventInput!) { createEvent(input: $input) { ... on Event { databaseId } ... on Error { code message } } }`;
const LIST = `query($perPage: Int, $page: Int) { events(perPage: $perPage, page: $page) {
  ... on EventConnection { totalCount edges { node { databaseId title startDate endDate startDateUtc cost categories { name } venues { name } } } }
  ... on Error { code } } }`;

async function scenario(label: string, recurring: boolean) {
  const db = await openDatabase('memory:', {});
  await applyMigrations(db);
  const admin = await db.prisma.user.create({ data: { login: 'admin', role: 'ADMINISTRATOR', passwordHash: 'x' } });
  const yoga = createGraphQLServer(schema, { logger: { error: () => {} }, limits: loadConfig({}).graphql });
  const run = async (query: string, variables: Record<string, unknown>) => {
    const cal = createContext({ prisma: db.prisma, settings: defaultSiteSettings, viewer: { id: admin.id, login: 'admin', role: 'ADMINISTRATOR' }, now: NOW });
    const r = await yoga.fetch('http://bench/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query, variables }) }, { cal });
    const body = (await r.json()) as { data?: Record<string, any>; errors?: unknown };
    if (body.errors) throw new Error(JSON.stringify(body.errors));
    return body.data!;
  };
  const t0 = performance.now();
  for (let i = 0; i < N; i++) {
    // Weekly series: one a day over the first N days; single events: one a day too, same fields.
    const day = new Date(Date.UTC(2026, 11, 1) + (i % 365) * 86_400_000).toISOString().slice(0, 10);
    const input = {
      title: `Event ${i}`,
      startDate: `${day} 19:00:00`,
      endDate: `${day} 21:00:00`,
      cost: ['$10'],
      categories: [`cat-${i % 10}`],
      ...(recurring ? { recurrence: { rule: 'FREQ=WEEKLY' } } : {}),
    };
    const r = await run(CREATE, { input });
    if (!r.createEvent.databaseId) throw new Error(JSON.stringify(r.createEvent));
  }
  const seedMs = performance.now() - t0;
  const rows = await db.prisma.event.count();
  const times: number[] = [];
  let total = 0;
  for (let i = 0; i < REPEAT + 5; i++) {
    const t = performance.now();
    const r = await run(LIST, { perPage: PER_PAGE, page: 1 + (i % 3) });
    if (i >= 5) times.push(performance.now() - t);
    total = r.events.totalCount;
  }
  times.sort((a, b) => a - b);
  const mean = times.reduce((a, b) => a + b, 0) / times.length;
  const p50 = times[Math.floor(times.length / 2)];
  console.log(
    `${label.padEnd(28)} rows ${String(rows).padStart(7)}  seed ${(seedMs / 1000).toFixed(1).padStart(6)} s  list total ${String(total).padStart(7)}  ` +
      `mean ${mean.toFixed(1).padStart(6)} ms  p50 ${p50.toFixed(1).padStart(6)} ms`,
  );
  await db.close();
  return mean;
}

console.log(`# ${N} weekly series vs ${N} single events · PGlite in-memory · events(perPage: ${PER_PAGE}) with total · ${REPEAT} requests`);
const single = await scenario(`${N} single events`, false);
const series = await scenario(`${N} weekly series`, true);
console.log(`ratio occurrences / plain: ${(series / single).toFixed(2)} (target ≤ 1.2)`);
