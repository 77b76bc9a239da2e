/**
 * Normal traffic latency while abusive requests arrive: starts the real server
 * (`memory:` unless BENCH_DATABASE_URL), runs GET /events + POST /graphql at c=4 for ROUNDS
 * rounds, alone and then with the abusive requests of abuse-requests.ts fired in a loop, and prints
 * p50/p99 of the normal traffic and the abusive requests' answer times.
 * Run: npx tsx test/bench/abuse.ts
 */
import { startServerProcess } from '../helpers/process.ts';
import { abusiveRequests } from './abuse-requests.ts';

const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 8000);
const proc = await startServerProcess({ DATABASE_URL: process.env.BENCH_DATABASE_URL ?? 'memory:', CAL_LOG_LEVEL: 'info' });
const base = proc.base;

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] ?? NaN;

async function normalTraffic(until: number): Promise<{ ms: number[]; errors: number }> {
  const ms: number[] = [];
  let errors = 0;
  await Promise.all(
    Array.from({ length: 4 }, async (_, worker) => {
      while (Date.now() < until) {
        const started = performance.now();
        const r =
          worker % 2
            ? await fetch(`${base}/wp-json/cal/events/v1/events`)
            : await fetch(`${base}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query":"{ events(first: 10) { __typename } }"}' });
        await r.arrayBuffer();
        ms.push(performance.now() - started);
        if (r.status !== 200) errors++;
      }
    }),
  );
  return { ms, errors };
}

await normalTraffic(Date.now() + 3000); // warm-up (JIT, first queries), not counted
const quiet = await normalTraffic(Date.now() + DURATION_MS);
const abuse = abusiveRequests(base);
const abuseMs = new Map<string, number[]>();
let stop = false;
const attackers = abuse.map(async (a) => {
  while (!stop) {
    const started = performance.now();
    await a.send().catch(() => ({ status: 0 }));
    abuseMs.set(a.name, [...(abuseMs.get(a.name) ?? []), performance.now() - started]);
  }
});
const loud = await normalTraffic(Date.now() + DURATION_MS);
stop = true;
await Promise.all(attackers);

const f = (x: number) => x.toFixed(1).padStart(8);
console.log('normal traffic (GET /events, POST /graphql; c=4)      n   p50 ms   p99 ms  errors');
console.log(`  alone                                         ${String(quiet.ms.length).padStart(5)} ${f(pct(quiet.ms, 50))} ${f(pct(quiet.ms, 99))} ${quiet.errors}`);
console.log(`  during abuse                                  ${String(loud.ms.length).padStart(5)} ${f(pct(loud.ms, 50))} ${f(pct(loud.ms, 99))} ${loud.errors}`);
console.log('abusive requests (refused)                          n   p50 ms   p99 ms');
for (const [name, ms] of abuseMs) console.log(`  ${name.padEnd(44)}${String(ms.length).padStart(5)} ${f(pct(ms, 50))} ${f(pct(ms, 99))}`);
console.log(`server alive: ${proc.child.exitCode === null}; RSS not measured here (see npm run bench)`);
proc.stop();
process.exit(0);
