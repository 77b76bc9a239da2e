/**
 * Server CPU of one uncached 50-event page: `GET /events?per_page=50&page=N` on the REST facade and
 * the same operation (EventsArchive, perPage 50, page N) over GraphQL, on a server with its caches
 * off (CAL_CACHE_TTL_S=0), the page number N going round the first `pages` pages. Requests are
 * sent one at a time, in batches alternating REST and GraphQL; a batch's figure is the server
 * process's CPU time (user + system, /proc) over its requests, and the medians of the batches are
 * reported, so a busy machine inflates the figures less than wall times (the load generator's own
 * CPU is not counted).
 *
 * run.ts measures it twice: alone, and (`scratch`) in alternation with the minimal handler.
 *
 * Used by `npm run bench` (run.ts) on its seeded servers; standalone against a running server:
 *   tsx test/bench/uncached-page.ts <baseUrl> <server pid> [batches] [requests per batch]
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parse, print, visit, type DefinitionNode, type FragmentDefinitionNode } from 'graphql';
import { readCpuMs, ROOT } from './process.ts';

const NS = '/wp-json/cal/events/v1';
/**
 * Uncompressed answers: the handler's own work, as the minimal handler (which never compresses) is
 * measured; fetch would otherwise ask for gzip, a few ms of zlib per 300 KB page on top.
 */
const IDENTITY = { 'accept-encoding': 'identity' };

/** EventsArchive with the fragments it uses (unused ones would fail validation), from the facade's operation files under `root`. */
export function eventsArchiveDocument(root: string): string {
  // Older snapshots (pinned baselines) kept every operation in rest-facade/operations/.
  const files = existsSync(path.join(root, 'rest-facade/operations'))
    ? ['rest-facade/operations/events.graphql', 'rest-facade/operations/fragments.graphql']
    : ['rest-facade/resources/events/operations.graphql', 'rest-facade/resources/fragments.graphql'];
  const doc = parse(files.map((f) => readFileSync(path.join(root, f), 'utf8')).join('\n'));
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of doc.definitions) if (d.kind === 'FragmentDefinition') fragments.set(d.name.value, d);
  const op = doc.definitions.find((d) => d.kind === 'OperationDefinition' && d.name?.value === 'EventsArchive');
  if (!op) throw new Error(`EventsArchive not found in ${files[0]}`);
  const needed = new Set<string>();
  const queue: DefinitionNode[] = [op];
  while (queue.length) {
    visit(queue.pop()!, {
      FragmentSpread(node) {
        if (!needed.has(node.name.value)) {
          needed.add(node.name.value);
          queue.push(fragments.get(node.name.value)!);
        }
      },
    });
  }
  return [op, ...[...needed].map((n) => fragments.get(n)!)].map((d) => print(d)).join('\n\n');
}

export interface UncachedPage {
  /** Page numbers gone round (1..pages). */
  pages: number;
  /** Median server CPU per REST page, ms. */
  restMs: number;
  /** Median server CPU per GraphQL request, ms. */
  graphqlMs: number;
  /** restMs ÷ graphqlMs. */
  ratio: number;
  restKB: number;
  /** PostgreSQL backends' CPU per REST page / GraphQL request, ms (when a reader was given). */
  restDbMs?: number;
  graphqlDbMs?: number;
  batches: number;
  perBatch: number;
  /** The same measure again, in alternation with the minimal handler (run.ts). */
  scratch?: UncachedPage;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

/** `root`: the checkout whose operation files give the GraphQL document (the measured product). */
export async function measureUncachedPage(
  baseUrl: string,
  pid: number,
  opts: {
    root?: string;
    batches?: number;
    perBatch?: number;
    warmup?: number;
    pages?: number;
    /** CPU (ms) used so far by the database backends serving this server (PostgreSQL), to count the database's share too. */
    dbCpuMs?: () => Promise<number>;
    /** false: REST pages only (the minimal handler has no GraphQL). */
    graphql?: boolean;
  } = {},
): Promise<UncachedPage> {
  const withGraphql = opts.graphql ?? true;
  const batches = opts.batches ?? 7;
  const perBatch = opts.perBatch ?? 10;
  const query = eventsArchiveDocument(opts.root ?? ROOT);
  // At most the pages there are (a page past the last answers 400).
  const first = await fetch(`${baseUrl}${NS}/events?per_page=50`);
  await first.arrayBuffer();
  const pages = Math.max(1, Math.min(opts.pages ?? 8, Number(first.headers.get('x-tec-totalpages') ?? 1)));
  let restPage = 0;
  let graphqlPage = 0;
  let restBytes = 0;
  const rest = async () => {
    const res = await fetch(`${baseUrl}${NS}/events?per_page=50&page=${(restPage++ % pages) + 1}`, { headers: IDENTITY });
    const body = await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`REST page answered ${res.status}`);
    restBytes = Math.max(restBytes, body.byteLength);
  };
  const graphql = async () => {
    const gqlBody = JSON.stringify({ query, operationName: 'EventsArchive', variables: { perPage: 50, page: (graphqlPage++ % pages) + 1 } });
    const res = await fetch(`${baseUrl}/graphql`, { method: 'POST', headers: { ...IDENTITY, 'content-type': 'application/json', accept: 'application/json' }, body: gqlBody });
    const json = (await res.json()) as { errors?: unknown };
    if (res.status !== 200 || json.errors) throw new Error(`GraphQL answered ${res.status} ${JSON.stringify(json.errors)}`);
  };
  for (let i = 0; i < Math.max(opts.warmup ?? 15, pages); i++) {
    await rest();
    if (withGraphql) await graphql();
  }
  const batch = async (f: () => Promise<void>) => {
    const d0 = await opts.dbCpuMs?.();
    const c0 = readCpuMs(pid);
    for (let i = 0; i < perBatch; i++) await f();
    const c1 = readCpuMs(pid);
    const d1 = await opts.dbCpuMs?.();
    if (c0 === null || c1 === null) throw new Error('server process gone');
    return { server: (c1 - c0) / perBatch, db: d0 === undefined || d1 === undefined ? NaN : (d1 - d0) / perBatch };
  };
  const r: { server: number; db: number }[] = [];
  const g: { server: number; db: number }[] = [];
  for (let b = 0; b < batches; b++) {
    r.push(await batch(rest));
    if (withGraphql) g.push(await batch(graphql));
  }
  const med = (xs: number[]) => (xs.length && xs.every(Number.isFinite) ? +median(xs).toFixed(1) : NaN);
  const restMs = med(r.map((x) => x.server));
  const graphqlMs = med(g.map((x) => x.server));
  const out: UncachedPage = { pages, restMs, graphqlMs, ratio: +(restMs / graphqlMs).toFixed(2), restKB: +(restBytes / 1024).toFixed(1), batches, perBatch };
  if (opts.dbCpuMs) {
    out.restDbMs = med(r.map((x) => x.db));
    out.graphqlDbMs = med(g.map((x) => x.db));
  }
  return out;
}

export const formatUncachedPage = (u: UncachedPage) =>
  `uncached 50-event page, server CPU (pages 1-${u.pages} in turn, median of ${u.batches} batches of ${u.perBatch} sequential requests): ` +
  `REST ${u.restMs} ms, GraphQL ${u.graphqlMs} ms, REST ÷ GraphQL ${u.ratio} (${u.restKB} KB)` +
  (u.scratch ? `; again, alternating with the minimal handler: REST ${u.scratch.restMs} ms, GraphQL ${u.scratch.graphqlMs} ms, REST ÷ GraphQL ${u.scratch.ratio}` : '');

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [baseUrl, pid, batches, perBatch] = process.argv.slice(2);
  if (!baseUrl || !pid) throw new Error('usage: tsx test/bench/uncached-page.ts <baseUrl> <server pid> [batches] [requests per batch]');
  const u = await measureUncachedPage(baseUrl, Number(pid), { batches: batches ? Number(batches) : undefined, perBatch: perBatch ? Number(perBatch) : undefined });
  console.log(formatUncachedPage(u));
}
