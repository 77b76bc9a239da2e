/**
 * Write time of a long event description next to a short one: the same event updated
 * with a new description of 1 KB, then of 100 KB (distinct texts: nothing is answered from a
 * cache), as a contributor (kses, then texturize and autop) and as an administrator (no kses).
 * Per size: p50 and max answer time, the server's CPU per write (the whole process: worker
 * threads included), and the slowest `/healthz` answer while the writes ran, which is how long
 * the event loop was held. `npm run bench` runs it as the `longtext` scenario
 * (`BENCH_SCENARIOS=longtext` runs just it).
 */
import { readCpuMs } from './process.ts';

export interface LongTextRow {
  role: string;
  bytes: number;
  p50: number;
  max: number;
  cpuMs: number | null;
  healthzMaxMs: number;
}

const WRITES = 8;

/** Prose with markup, quotes, dashes and entities (what texturize, autop and kses work on), `bytes` long. */
function description(bytes: number, salt: number): string {
  const paragraph = `<p>The "Summer Jazz Night" -- our ${salt}th -- opens at 7 p.m. &amp; runs 'til late; doors at 6:30... <strong>Bring a chair</strong>, it's on the lawn.</p>\n\n`;
  return paragraph.repeat(Math.ceil(bytes / paragraph.length)).slice(0, bytes);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

export async function measureLongText(baseUrl: string, pid: number, auth: { admin: string }): Promise<LongTextRow[]> {
  const api = `${baseUrl}/wp-json/cal/events/v1`;
  const post = async (path: string, body: unknown, authorization: string) => {
    const r = await fetch(`${api}${path}`, { method: 'POST', headers: { authorization, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const text = await r.text();
    if (r.status >= 300) throw new Error(`POST ${path} answered ${r.status}: ${text.slice(0, 200)}`);
    return JSON.parse(text) as { id: number; databaseId?: number };
  };
  // A contributor of this run, through GraphQL as the administrator.
  const login = `bench-contributor-${process.pid}`;
  const password = `bench-contributor-${Date.now().toString(36)}`;
  const created = await fetch(`${baseUrl}/graphql`, {
    method: 'POST',
    headers: { authorization: auth.admin, 'content-type': 'application/json' },
    body: JSON.stringify({ query: 'mutation($i: CreateUserInput!) { createUser(input: $i) { __typename } }', variables: { i: { login, password, role: 'CONTRIBUTOR' } } }),
  });
  await created.text();
  const roles = { administrator: auth.admin, contributor: `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}` };

  const rows: LongTextRow[] = [];
  let salt = 0;
  for (const [role, authorization] of Object.entries(roles)) {
    const event = await post('/events', { title: 'Long text bench', start_date: '2030-06-01 19:00', end_date: '2030-06-01 22:00', status: 'draft' }, authorization);
    for (const bytes of [1_000, 100_000]) {
      await post(`/events/${event.id}`, { description: description(bytes, ++salt) }, authorization); // warm-up
      const times: number[] = [];
      let healthzMaxMs = 0;
      const cpu0 = readCpuMs(pid);
      for (let i = 0; i < WRITES; i++) {
        let done = false;
        const t = performance.now();
        const write = post(`/events/${event.id}`, { description: description(bytes, ++salt) }, authorization).finally(() => (done = true));
        const poll = (async () => {
          while (!done) {
            const h = performance.now();
            await (await fetch(`${baseUrl}/healthz`)).arrayBuffer();
            healthzMaxMs = Math.max(healthzMaxMs, performance.now() - h);
          }
        })();
        await write;
        times.push(performance.now() - t);
        await poll;
      }
      const cpu1 = readCpuMs(pid);
      rows.push({ role, bytes, p50: median(times), max: Math.max(...times), cpuMs: cpu0 === null || cpu1 === null ? null : (cpu1 - cpu0) / WRITES, healthzMaxMs });
    }
  }
  return rows;
}

export function formatLongText(rows: LongTextRow[]): string {
  const cell = (r: LongTextRow) =>
    `${(r.bytes / 1000).toFixed(0)} KB: p50 ${r.p50.toFixed(1)} ms (max ${r.max.toFixed(0)}), CPU ${r.cpuMs === null ? '?' : r.cpuMs.toFixed(1)} ms/write, /healthz max ${r.healthzMaxMs.toFixed(0)} ms`;
  const roles = [...new Set(rows.map((r) => r.role))];
  return roles.map((role) => `description write (${role}): ${rows.filter((r) => r.role === role).map(cell).join('  ·  ')}`).join('\n');
}
