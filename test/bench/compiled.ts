/**
 * `npm run bench:compiled`: what compiling the fixed operations is worth (src/server/compiled-operations.ts).
 * Two apps in one process over one database, one running the REST facade's operations with
 * graphql-js (CAL_GRAPHQL_COMPILE=false), the other compiled; REST requests in alternating batches,
 * the process's CPU time per request (the client's fetch included, the same on both sides). One
 * process and alternation make the comparison hold on a busy machine, where two servers side by side
 * drift apart. Both sides answer for one site URL, so that their answers can be compared byte for byte.
 *
 *   tsx test/bench/compiled.ts <DATABASE_URL> [path] [batches] [requests per batch]
 *   path: default `/events?per_page=50&page=` (pages 1–8 in turn); any path under the REST namespace.
 */
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import pino from 'pino';
import { buildApp } from '../../src/server/app.ts';
import { loadConfig } from '../../src/server/config.ts';
import { openDatabase } from '../../src/db/database.ts';

const [url, path = '/events?per_page=50&page=', batchArg, perArg] = process.argv.slice(2);
if (!url?.startsWith('postgres')) throw new Error('usage: tsx test/bench/compiled.ts <postgres://… of a seeded calendar> [path] [batches] [requests per batch]');
const batches = Number(batchArg ?? 12);
const perBatch = Number(perArg ?? 10);

const db = await openDatabase(url, {});
const sides: { label: string; base: string; close: () => void; cpu: number[] }[] = [];
for (const compile of [false, true]) {
  const config = loadConfig({ ...process.env, DATABASE_URL: url, CAL_LOG_LEVEL: 'silent', CAL_CACHE_TTL_S: '0', CAL_GRAPHQL_COMPILE: String(compile), CAL_SITE_URL: 'http://calendar.example' });
  const { app } = buildApp({ config, db, logger: pino({ level: 'silent' }) });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/wp-json/cal/events/v1`;
  sides.push({ label: compile ? 'compiled' : 'graphql-js', base, close: () => server.close(), cpu: [] });
}

let page = 0;
const bodies = new Map<string, string>();
async function request(base: string, label: string) {
  const target = path.endsWith('page=') ? `${path}${(page++ % 8) + 1}` : path;
  const res = await fetch(`${base}${target}`, { headers: { 'accept-encoding': 'identity' } });
  const body = await res.text();
  if (res.status !== 200) throw new Error(`${label}: ${target} answered ${res.status}`);
  // Both sides answer every page with the same bytes.
  const seen = bodies.get(target);
  if (seen === undefined) bodies.set(target, body);
  else if (seen !== body) throw new Error(`${target}: graphql-js and compiled answers differ`);
}

for (let i = 0; i < 40; i++) await request(sides[i % 2]!.base, sides[i % 2]!.label);
for (let b = 0; b < batches; b++) {
  for (const side of b % 2 ? [...sides].reverse() : sides) {
    const c0 = process.cpuUsage();
    for (let i = 0; i < perBatch; i++) await request(side.base, side.label);
    const c = process.cpuUsage(c0);
    side.cpu.push((c.user + c.system) / 1000 / perBatch);
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const [js, jit] = sides.map((s) => median(s.cpu));
console.log(
  `${path}: graphql-js ${js!.toFixed(1)} ms, compiled ${jit!.toFixed(1)} ms of CPU per request (compiled ÷ graphql-js ${(jit! / js!).toFixed(2)}; ` +
    `medians of ${batches} alternating batches of ${perBatch}, client included; load ${os.loadavg()[0]!.toFixed(1)})`,
);
for (const s of sides) s.close();
await db.close();
