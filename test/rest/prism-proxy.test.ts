/**
 * A tool nobody here wrote, in front of the service: Stoplight Prism (run through `npm exec`, not
 * a dependency) in proxy mode validates every request and answer against the published document.
 * Every documented operation is called with valid and invalid input, under the English paths and
 * a language variant's; Prism reports what differs in `sl-violations`. Invalid input is meant to
 * break the request's rules: those reports count only when the service accepted it anyway.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { freePort } from '../helpers/process.ts';
import { useTestServer, type TestServer } from '../helpers/server.ts';

let s: TestServer;
let prism: ChildProcess | undefined;
const id: Record<string, number> = {};
const slug: Record<string, string> = {};
const dates = { start_date: '2026-12-05 19:00:00', end_date: '2026-12-05 22:00:00' };

useTestServer(async (server) => {
  s = server;
  for (const [kind, body] of Object.entries({ events: { title: 'Proxied', ...dates }, venues: { venue: 'Hall' }, organizers: { organizer: 'Ann' }, categories: { name: 'Music' }, tags: { name: 'jazz' } })) {
    const created = await s.create(`/${kind}`, body);
    id[kind] = created.id;
    slug[kind] = created.slug;
  }
});
// Under the repository's ignored scratch folder.
const dir = join(fileURLToPath(new URL('../..', import.meta.url)), '.scratch', `prism-${process.pid}`);
afterAll(async () => {
  prism?.kill();
  await rm(dir, { recursive: true, force: true });
});

/** Valid and invalid input of each kind of operation (the records named exist; deletes come last). */
function requests(path: string, method: string): Array<{ path: string; body?: unknown; valid: boolean }> {
  const kind = path.split('/')[1]!;
  const item = path.replace('{id}', String(id[kind])).replace('{slug}', slug[kind] ?? 'x');
  const create: Record<string, unknown> = { events: { title: 'Via Prism', ...dates, venue: { venue: 'Grand Hall' } }, venues: { venue: 'Annex' }, organizers: { organizer: 'Bob' }, categories: { name: `c${Math.random()}` }, tags: { name: `t${Math.random()}` } }[kind]!;
  if (method === 'get' && !path.includes('{')) return [{ path: `${path}?per_page=5&page=1`, valid: true }, { path: `${path}?per_page=abc`, valid: false }];
  if (method === 'get') return [{ path: item, valid: true }, { path: path.includes('{id}') ? path.replace('{id}', '999999') : item, valid: true }];
  if (method === 'post' && !path.includes('{')) return [{ path, body: create, valid: true }, { path, body: { ...create, status: 'gone' }, valid: false }];
  if (method === 'delete') return [{ path: `${item}?probe=1`, valid: false, body: undefined }];
  const name = { events: 'title', venues: 'venue', organizers: 'organizer', categories: 'name', tags: 'name' }[kind]!;
  return [{ path: item, body: { [name]: `Renamed ${method}` }, valid: true }, { path: item, body: { status: 'gone', [name]: '' }, valid: false }];
}

/** Prism in proxy mode in front of `upstream`, with the published document; resolves its port. */
async function startPrism(upstream: string): Promise<number> {
  const port = await freePort();
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'openapi.json'), JSON.stringify((await s.api('/openapi.json')).body));
  prism = spawn('npm', ['exec', '--yes', '@stoplight/prism-cli@5.14', '--', 'proxy', join(dir, 'openapi.json'), upstream, '--host', '127.0.0.1', '--port', String(port), '--errors', 'false'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  await new Promise<void>((resolve, reject) => {
    const seen = (chunk: Buffer) => {
      log += chunk.toString();
      if (log.includes('Prism is listening')) resolve();
    };
    prism!.stdout!.on('data', seen);
    prism!.stderr!.on('data', seen);
    prism!.once('exit', (code) => reject(new Error(`prism exited ${code}: ${log}`)));
  });
  return port;
}

it('sees no violation over every operation, valid and invalid input, in two languages', async () => {
  const doc = (await s.api('/openapi.json')).body;
  const violations: string[] = [];
  let calls = 0;
  let agreed = 0;
  const operations = new Set<string>();
  for (const prefix of ['', '/fr']) {
    // Prism matches request paths against the document's paths as they are (not under the
    // servers' base path): it listens for `/events…` and forwards to the namespace of one language.
    const port = await startPrism(`${s.base}${prefix}/wp-json/cal/events/v1`);
    for (const [path, item] of Object.entries<Record<string, unknown>>(doc.paths)) {
      for (const method of ['get', 'post', 'put', 'patch', 'delete'].filter((m) => item[m])) {
        for (const r of requests(path, method)) {
          const res = await fetch(`http://127.0.0.1:${port}${r.path}`, {
            method: method.toUpperCase(),
            headers: { Authorization: s.authHeader('admin'), ...(r.body ? { 'Content-Type': 'application/json' } : {}) },
            body: r.body ? JSON.stringify(r.body) : undefined,
          });
          await res.text();
          calls++;
          operations.add(`${method} ${path}`);
          const reported = JSON.parse(res.headers.get('sl-violations') ?? '[]') as Array<{ location: string[]; message: string; severity: string }>;
          for (const v of reported) {
            // The service refused what the document refuses: they agree.
            if (v.location[0] === 'request' && res.status >= 400) {
              agreed++;
              continue;
            }
            violations.push(`${method.toUpperCase()} ${prefix}${r.path} → ${res.status}: ${v.location.join('.')} ${v.message}`);
          }
        }
      }
    }
    prism?.kill();
  }
  expect(violations).toEqual([]);
  // Prism did read the requests: the invalid ones broke the document's rules, and were refused.
  expect(agreed).toBeGreaterThan(0);
  expect([operations.size, calls]).toEqual([Object.values<Record<string, unknown>>(doc.paths).reduce((n, item) => n + Object.keys(item).length, 0), calls]);
}, 600_000);
