/**
 * Summary of a V8 `.cpuprofile` (node --cpu-prof): self time per function and per package.
 * Standalone: `tsx test/bench/profile.ts <file.cpuprofile> [top]`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** This checkout (profiled file names are shown relative to it). */
const ROOT = fileURLToPath(new URL('../..', import.meta.url)).replace(/\/$/, '');

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; scriptId: string | number; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

export interface ProfileSummary {
  totalMs: number;
  /** Share of samples that were not idle. */
  busyMs: number;
  functions: { name: string; where: string; selfMs: number; pct: number }[];
  packages: { name: string; selfMs: number; pct: number }[];
  /** The same time by layer of the request (LAYERS): the executor's share is `executor`. */
  layers: { name: string; selfMs: number; pct: number }[];
}

/**
 * The layers a request's CPU goes through, by where the code comes from (after the bundle's source
 * map): GraphQL execution (graphql-js's executor, Yoga's and envelop's, graphql-jit and the code it
 * generates), the schema's resolvers (Pothos and ours), Prisma's client, the database driver, the
 * REST facade (presenters, JSON encoding), garbage collection, the rest.
 */
function layerOf(pkg: string, source: string): string {
  if (pkg === '(garbage collector)') return 'garbage collection';
  if (pkg === '(compiled operation)' || pkg === 'graphql-jit') return 'executor';
  if (/(^|\/)graphql\/(execution|jsutils|type)\//.test(source) || /^(@graphql-tools\/executor|@envelop\/|graphql-yoga|@graphql-yoga)/.test(pkg)) return 'executor';
  if (pkg === 'schema' || pkg.startsWith('@pothos/')) return 'resolvers (Pothos, schema)';
  if (pkg.startsWith('@prisma/client') || pkg === 'prisma' || pkg === '@prisma/client-runtime-utils') return 'Prisma client';
  if (pkg === 'pg' || pkg.startsWith('pg-') || pkg.startsWith('@prisma/adapter') || pkg === '@prisma/driver-adapter-utils') return 'database driver';
  if (pkg.startsWith('rest-facade/')) return 'REST facade (presenters, encoding)';
  if (pkg.startsWith('src/')) return 'services, server';
  return 'other (Node, V8, Koa, …)';
}

/** Source maps of bundled files (`dist/…/main.js` → its `.map`), read once per file. */
const maps = new Map<string, { map: SourceMap; dir: string } | null>();
function original(url: string, line: number, column: number): { url: string; line: number } {
  if (!url.startsWith('file://')) return { url, line };
  const file = fileURLToPath(url);
  let entry = maps.get(file);
  if (entry === undefined) {
    entry = existsSync(`${file}.map`) ? { map: new SourceMap(JSON.parse(readFileSync(`${file}.map`, 'utf8'))), dir: path.dirname(file) } : null;
    maps.set(file, entry);
  }
  const found = entry?.map.findEntry(line, column);
  if (!entry || !found || !('originalSource' in found) || !found.originalSource) return { url, line };
  const source = found.originalSource.startsWith('file://') ? found.originalSource : pathToFileURL(path.resolve(entry.dir, found.originalSource)).href;
  return { url: source, line: found.originalLine };
}

/** `node_modules/@scope/pkg/...` → `@scope/pkg`; project files → their top folder; natives as is. */
function packageOf(url: string, name: string): string {
  if (!url) return name.startsWith('(') ? name : '(native/V8)';
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const parts = url.slice(nm + 13).split('/');
    return parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
  }
  if (url.startsWith('node:')) return 'node:internal';
  const m = /\/(src|schema|rest-facade|prisma)\/([^/]*)/.exec(url);
  if (m) return m[1] === 'src' || m[1] === 'rest-facade' ? `${m[1]}/${m[2]}` : m[1];
  return url.replace(/^file:\/\//, '');
}

/** `skipMs`: leave out the first milliseconds of the process (startup, module loading, warm-up). */
export function summarizeCpuProfile(file: string, top = 25, skipMs = 0): ProfileSummary {
  const p = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  let t = 0;
  let firstKept = -1;
  for (let i = 0; i < p.samples.length; i++) {
    t += p.timeDeltas[i] ?? 0;
    if (t < skipMs * 1000) continue;
    if (firstKept < 0) firstKept = t;
    self.set(p.samples[i], (self.get(p.samples[i]) ?? 0) + (p.timeDeltas[i] ?? 0));
  }
  const totalUs = firstKept < 0 ? 0 : t - firstKept;
  const fn = new Map<string, { name: string; where: string; us: number }>();
  const pkg = new Map<string, number>();
  const layer = new Map<string, number>();
  let idleUs = 0;
  for (const [id, us] of self) {
    const frame = byId.get(id)!.callFrame;
    const { functionName } = frame;
    const { url, line: lineNumber } = original(frame.url, frame.lineNumber, frame.columnNumber);
    // A function made by `new Function` (graphql-jit's compiled operations) has a script but no URL.
    const generated = !url && String(frame.scriptId) !== '0';
    const name = functionName || '(anonymous)';
    if (name === '(idle)') idleUs += us;
    const short = url.replace(/^file:\/\//, '').replace(/^.*\/node_modules\//, '').replace(`${ROOT}/`, '').replace(/^.*\/cal-bench-rev-[^/]+\//, '');
    const where = url ? `${short}:${lineNumber + 1}` : '';
    const key = `${name}@${where}`;
    const entry = fn.get(key) ?? { name, where, us: 0 };
    entry.us += us;
    fn.set(key, entry);
    const pk = name === '(idle)' || name === '(garbage collector)' || name === '(program)' ? name : generated ? '(compiled operation)' : packageOf(url, name);
    pkg.set(pk, (pkg.get(pk) ?? 0) + us);
    if (name !== '(idle)') {
      const l = layerOf(pk, url);
      layer.set(l, (layer.get(l) ?? 0) + us);
    }
  }
  const busyUs = totalUs - idleUs;
  const pct = (us: number) => +((100 * us) / Math.max(1, busyUs)).toFixed(1);
  return {
    totalMs: Math.round(totalUs / 1000),
    busyMs: Math.round(busyUs / 1000),
    functions: [...fn.values()]
      .filter((f) => f.name !== '(idle)')
      .sort((a, b) => b.us - a.us)
      .slice(0, top)
      .map((f) => ({ name: f.name, where: f.where, selfMs: Math.round(f.us / 1000), pct: pct(f.us) })),
    packages: [...pkg.entries()]
      .filter(([k]) => k !== '(idle)')
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, us]) => ({ name, selfMs: Math.round(us / 1000), pct: pct(us) })),
    layers: [...layer.entries()].sort((a, b) => b[1] - a[1]).map(([name, us]) => ({ name, selfMs: Math.round(us / 1000), pct: pct(us) })),
  };
}

export function formatProfile(s: ProfileSummary): string {
  const lines = [`CPU profile: ${s.busyMs} ms busy of ${s.totalMs} ms (self time, % of busy)`, '', 'by layer:'];
  for (const l of s.layers) lines.push(`  ${l.pct.toFixed(1).padStart(5)}%  ${String(l.selfMs).padStart(6)} ms  ${l.name}`);
  lines.push('', 'by package / folder:');
  for (const p of s.packages) lines.push(`  ${p.pct.toFixed(1).padStart(5)}%  ${String(p.selfMs).padStart(6)} ms  ${p.name}`);
  lines.push('', 'top functions:');
  for (const f of s.functions) lines.push(`  ${f.pct.toFixed(1).padStart(5)}%  ${String(f.selfMs).padStart(6)} ms  ${f.name}  ${f.where}`);
  return lines.join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(formatProfile(summarizeCpuProfile(process.argv[2], Number(process.argv[3] ?? 25), Number(process.argv[4] ?? 0))));
}
