/**
 * A client generated from the published document works unchanged: `openapi-typescript` (run
 * through `npm exec`, not a dependency) turns `/openapi.json` into types, a small program written
 * as a user would write it calls the live server through `openapi-fetch` with them — a filtered
 * list, a create with a nested venue, an error — and it type-checks under `tsc --strict`. Its
 * answers go through the same check as every other REST answer of the suite (helpers/openapi-check.ts).
 */
import { execFile } from 'node:child_process';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, expect, it } from 'vitest';
import { answerChecker } from '../helpers/openapi-check.ts';
import { useTestServer, type TestServer } from '../helpers/server.ts';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));
// Under the repository (so that `openapi-fetch` resolves from its node_modules), in the ignored scratch folder.
const dir = join(root, '.scratch', `generated-client-${process.pid}`);

let s: TestServer;
let music: number;
useTestServer(async (server) => {
  s = server;
  music = (await s.create('/categories', { name: 'Music' })).id;
  await s.create('/events', { title: 'Featured concert', start_date: '2026-12-05 19:00:00', end_date: '2026-12-05 22:00:00', featured: true, categories: [music] });
  await s.create('/events', { title: 'Plain talk', start_date: '2026-12-06 19:00:00', end_date: '2026-12-06 20:00:00' });
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** What a user writes against the generated `paths`: nothing here is typed by hand. */
const CLIENT = `import createClient from 'openapi-fetch';
import type { paths } from './schema.js';

export async function calls(baseUrl: string, authorization: string, fetch: (request: Request) => Promise<Response>) {
  const client = createClient<paths>({ baseUrl, fetch });
  const list = await client.GET('/events', { params: { query: { featured: true, categories: ['music'], per_page: 5 } } });
  const titles: string[] = (list.data?.events ?? []).map((event) => event.title);
  const total: number | undefined = list.data?.total;

  const created = await client.POST('/events', {
    headers: { Authorization: authorization },
    body: { title: 'Generated', start_date: '2026-12-07 19:00:00', end_date: '2026-12-07 21:00:00', venue: { venue: 'Grand Hall' } },
  });
  const venue = created.data?.venue;
  const venueName: string | undefined = venue && !Array.isArray(venue) ? venue.venue : undefined;
  const start: string | undefined = created.data?.start_date_details.year;

  const missing = await client.GET('/events/{id}', { params: { path: { id: 999999 } } });
  const code: string | undefined = missing.error?.code;

  return { titles, total, created: created.response.status, venueName, start, missing: missing.response.status, code };
}
`;

it('generates types, type-checks a client and calls the live server through it', async () => {
  await mkdir(dir, { recursive: true });
  const spec = `${s.base}/wp-json/cal/events/v1/openapi.json`;
  await run('npm', ['exec', '--yes', 'openapi-typescript@7.9.1', '--', spec, '--output', join(dir, 'schema.d.ts')], { cwd: dir, timeout: 170_000 });
  await writeFile(join(dir, 'client.ts'), CLIENT);
  await writeFile(join(dir, 'package.json'), '{"type":"module"}');
  const tsc = join(root, 'node_modules/.bin/tsc');
  const flags = ['--noEmit', '--strict', '--target', 'es2022', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--types', 'node', '--skipLibCheck', join(dir, 'client.ts')];
  const checked = await run(tsc, flags, { cwd: root }).then(
    () => '',
    (e: { stdout: string }) => e.stdout,
  );
  expect(checked).toBe('');

  // Every answer the client receives is checked against the document like the suite's own.
  const check = answerChecker(s.base);
  const checkedFetch = async (request: Request) => {
    const sent = request.body ? await request.clone().json() : undefined;
    const response = await fetch(request);
    const text = await response.clone().text();
    const url = new URL(request.url);
    await check({ method: request.method, url: url.pathname + url.search, requestHeaders: {}, sent, status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined, text });
    return response;
  };
  const client = (await import(join(dir, 'client.ts'))) as { calls: (base: string, auth: string, f: typeof checkedFetch) => Promise<Record<string, unknown>> };
  const result = await client.calls(`${s.base}/wp-json/cal/events/v1`, s.authHeader('admin'), checkedFetch);
  expect(result).toEqual({ titles: ['Featured concert'], total: 1, created: 201, venueName: 'Grand Hall', start: '2026', missing: 404, code: 'rest-event-not-found' });
}, 240_000);
