/**
 * `npm run bench:slugs`: what a burst of creates wanting one slug costs beside a burst of distinct
 * ones. The real server runs as its own process on a fresh PostgreSQL database
 * (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres; the bench creates and
 * drops its database there). Each round sends BENCH_BURST (default 50) parallel authenticated
 * `POST /events` with one title, then as many with distinct titles, BENCH_ROUNDS times (default 3),
 * and prints p50/p99/max latency, the burst's wall time and the answers' statuses.
 */
import pg from 'pg';
import { startServerProcess } from '../helpers/process.ts';

const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const burst = Number(process.env.BENCH_BURST ?? 50);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const name = `cal_bench_slugs_${process.pid}`;
const admin = async (sql: string) => {
  const c = new pg.Client({ connectionString: adminUrl });
  await c.connect();
  await c.query(sql).finally(() => c.end());
};
const password = 'bench-slugs-pass';
const auth = `Basic ${Buffer.from(`admin:${password}`).toString('base64')}`;

await admin(`CREATE DATABASE "${name}"`);
const url = new URL(adminUrl);
url.pathname = `/${name}`;
const server = await startServerProcess({ DATABASE_URL: url.href, CAL_ADMIN_LOGIN: 'admin', CAL_ADMIN_PASSWORD: password });

async function create(title: string): Promise<{ ms: number; status: number; slug?: string }> {
  const t0 = performance.now();
  const res = await fetch(`${server.base}/wp-json/cal/events/v1/events`, {
    method: 'POST',
    headers: { authorization: auth, 'content-type': 'application/json' },
    body: JSON.stringify({ title, start_date: '2027-05-01 19:00', end_date: '2027-05-01 21:00', status: 'publish' }),
  });
  const body = (await res.json().catch(() => ({}))) as { slug?: string };
  return { ms: performance.now() - t0, status: res.status, slug: body.slug };
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;

async function run(label: string, title: (i: number) => string) {
  const t0 = performance.now();
  const answers = await Promise.all(Array.from({ length: burst }, (_, i) => create(title(i))));
  const wall = performance.now() - t0;
  const ms = answers.map((a) => a.ms).sort((a, b) => a - b);
  const statuses = Object.entries(answers.reduce<Record<number, number>>((n, a) => ((n[a.status] = (n[a.status] ?? 0) + 1), n), {}))
    .map(([status, n]) => `${n}×${status}`)
    .join(' ');
  const slugs = new Set(answers.map((a) => a.slug)).size;
  console.log(
    `${label.padEnd(16)} p50 ${quantile(ms, 0.5).toFixed(0).padStart(6)} ms  p99 ${quantile(ms, 0.99).toFixed(0).padStart(6)} ms  max ${ms.at(-1)!.toFixed(0).padStart(6)} ms  burst ${wall.toFixed(0).padStart(6)} ms  ${statuses}  ${slugs} slugs`,
  );
  return { p50: quantile(ms, 0.5), p99: quantile(ms, 0.99) };
}

try {
  for (let i = 0; i < 20; i++) await create(`Warm-up ${i}`);
  console.log(`${burst} parallel authenticated POST /events on PostgreSQL, ${rounds} rounds`);
  const totals = { same: [] as number[], distinct: [] as number[] };
  for (let r = 1; r <= rounds; r++) {
    totals.same.push((await run(`same title #${r}`, () => `Same Title Round ${r}`)).p50);
    totals.distinct.push((await run(`distinct #${r}`, (i) => `Distinct Title ${r} ${i}`)).p50);
  }
  const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]!;
  console.log(`median p50: same title ${median(totals.same).toFixed(0)} ms, distinct titles ${median(totals.distinct).toFixed(0)} ms (ratio ${(median(totals.same) / median(totals.distinct)).toFixed(2)})`);
} finally {
  server.stop();
  await server.exited;
  await admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
}
