/**
 * Summary of a V8 `.cpuprofile` (node --cpu-prof): self time per function and per package.
 * Standalone: `tsx test/bench/profile.ts <file.cpuprofile> [top]`.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** This checkout (profiled file names are shown relative to it). */
const ROOT = fileURLToPath(new URL('../..', import.meta.url)).replace(/\/$/, '');

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
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
  let idleUs = 0;
  for (const [id, us] of self) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    const name = functionName || '(anonymous)';
    if (name === '(idle)') idleUs += us;
    const short = url.replace(/^file:\/\//, '').replace(/^.*\/node_modules\//, '').replace(`${ROOT}/`, '').replace(/^.*\/cal-bench-rev-[^/]+\//, '');
    const where = url ? `${short}:${lineNumber + 1}` : '';
    const key = `${name}@${where}`;
    const entry = fn.get(key) ?? { name, where, us: 0 };
    entry.us += us;
    fn.set(key, entry);
    const pk = name === '(idle)' || name === '(garbage collector)' || name === '(program)' ? name : packageOf(url, name);
    pkg.set(pk, (pkg.get(pk) ?? 0) + us);
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
  };
}

export function formatProfile(s: ProfileSummary): string {
  const lines = [`CPU profile: ${s.busyMs} ms busy of ${s.totalMs} ms (self time, % of busy)`, '', 'by package / folder:'];
  for (const p of s.packages) lines.push(`  ${p.pct.toFixed(1).padStart(5)}%  ${String(p.selfMs).padStart(6)} ms  ${p.name}`);
  lines.push('', 'top functions:');
  for (const f of s.functions) lines.push(`  ${f.pct.toFixed(1).padStart(5)}%  ${String(f.selfMs).padStart(6)} ms  ${f.name}  ${f.where}`);
  return lines.join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(formatProfile(summarizeCpuProfile(process.argv[2], Number(process.argv[3] ?? 25), Number(process.argv[4] ?? 0))));
}
