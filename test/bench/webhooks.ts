/**
 * `npm run bench:webhooks`: what webhooks cost. Writes N events through the REST API with one
 * webhook endpoint registered (the dispatcher stopped: a write never waits for webhooks, it only
 * adds its change-log row), then lets the dispatcher queue and send them all to a receiver on
 * loopback that verifies every signature, and prints: deliveries per second (queueing, rendering
 * each record through the REST facade, signing, POSTing), the queue's bytes per change, and one
 * dispatcher pass over an empty log (what an idle instance pays every second).
 *
 *   npm run bench:webhooks                      in-memory PGlite, 300 events
 *   DATABASE_URL=postgres://… npm run bench:webhooks -- 1000
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { Webhook } from 'standardwebhooks';
import { openDatabase } from '../../src/db/database.ts';
import { applyMigrations } from '../../src/db/migrate.ts';
import { buildApp } from '../../src/server/app.ts';
import { loadConfig } from '../../src/server/config.ts';
import { createContext } from '../../src/services/context.ts';
import { ensureAdmin } from '../../src/services/users.ts';
import { addWebhookEndpoint } from '../../src/services/webhooks.ts';

const N = Number(process.argv[2] ?? 300);
const url = process.env.DATABASE_URL ?? 'memory:';
const config = loadConfig({ DATABASE_URL: url, CAL_LOG_LEVEL: 'silent', CAL_WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' });
const db = await openDatabase(url, {});
await applyMigrations(db);
await ensureAdmin(db.prisma, 'bench', 'bench-password');
const { app, webhooks } = buildApp({ config, db, logger: pino({ level: 'silent' }) });
const server = app.listen(0, '127.0.0.1');
await new Promise((resolve) => server.once('listening', resolve));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
webhooks.setOrigin(base);

let verifier: Webhook | null = null;
let verified = 0;
let failed = 0;
const receiver = http.createServer((req, res) => {
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (c: string) => (body += c));
  req.on('end', () => {
    try {
      verifier!.verify(body, req.headers as Record<string, string>);
      verified++;
    } catch {
      failed++;
    }
    res.writeHead(204).end();
  });
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));

const admin = await db.prisma.user.findUniqueOrThrow({ where: { login: 'bench' } });
const ctx = createContext({ prisma: db.prisma, settings: config.site, viewer: { id: admin.id, login: admin.login, role: admin.role }, webhookUrls: config.webhooks.urls });
const endpoint = await addWebhookEndpoint(ctx, { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`, types: ['EVENT'] });
verifier = new Webhook(endpoint.secret);

const auth = `Basic ${Buffer.from('bench:bench-password').toString('base64')}`;
const writesStarted = performance.now();
for (let i = 0; i < N; i++) {
  const res = await fetch(`${base}/wp-json/cal/events/v1/events`, {
    method: 'POST',
    headers: { authorization: auth, 'content-type': 'application/json' },
    body: JSON.stringify({ title: `Webhook bench ${i}`, start_date: '2027-06-05 19:00', end_date: '2027-06-05 22:00', venue: { venue: `Hall ${i % 10}` } }),
  });
  if (res.status !== 201) throw new Error(`write ${i}: ${res.status} ${await res.text()}`);
}
const writesMs = performance.now() - writesStarted;

const sendStarted = performance.now();
while (verified + failed < N) await webhooks.runOnce();
const sendMs = performance.now() - sendStarted;

const idle: number[] = [];
for (let i = 0; i < 20; i++) {
  const t = performance.now();
  await webhooks.runOnce();
  idle.push(performance.now() - t);
}
idle.sort((a, b) => a - b);

const rows = await db.prisma.webhookDelivery.count();
const payloadBytes = (await db.prisma.$queryRaw<{ bytes: bigint }[]>`SELECT coalesce(sum(octet_length(payload)), 0)::bigint AS bytes FROM "WebhookDelivery"`)[0]!.bytes;
const tableBytes = (
  await db.prisma.$queryRaw<{ bytes: bigint }[]>`SELECT (pg_total_relation_size('"WebhookDelivery"') + pg_total_relation_size('"WebhookAttempt"'))::bigint AS bytes`
)[0]!.bytes;

console.log(`\n## npm run bench:webhooks: ${N} events, one endpoint (events), ${db.kind}\n`);
console.log(`writes (REST POST /events, dispatcher stopped): ${(writesMs / N).toFixed(1)} ms each`);
console.log(`deliveries: ${verified} verified, ${failed} failing verification, ${rows} queued; ${(N / (sendMs / 1000)).toFixed(0)} per second (queue, render through the REST facade, sign, POST, record the attempt)`);
console.log(`queue: ${(Number(payloadBytes) / rows).toFixed(0)} payload bytes per delivery; ${(Number(tableBytes) / rows).toFixed(0)} bytes per delivery with its attempt and indexes (tables and indexes)`);
console.log(`idle pass (nothing new, nothing due): p50 ${idle[10]!.toFixed(1)} ms, max ${idle.at(-1)!.toFixed(1)} ms, once a second per instance`);

await webhooks.stop();
server.close();
receiver.close();
await db.close();
process.exit(failed || verified < N ? 1 : 0);
