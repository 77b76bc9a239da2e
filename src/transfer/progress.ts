import { MultiBar, Presets, type SingleBar } from 'cli-progress';

/**
 * Progress of an import or export per kind: bars on a terminal (cli-progress), plain lines every
 * few seconds otherwise, nothing at all when `quiet`.
 */
export interface Progress {
  start(kind: string, total: number): void;
  tick(kind: string, n?: number): void;
  total(kind: string, total: number): void;
  note(line: string): void;
  stop(): void;
}

export function createProgress(stream: NodeJS.WriteStream | { isTTY?: boolean; write(s: string): unknown }, quiet = false): Progress {
  if (quiet) return { start() {}, tick() {}, total() {}, note() {}, stop() {} };
  if (stream.isTTY) {
    const multi = new MultiBar(
      { format: ' {kind} [{bar}] {value}/{total} {percentage}% | {eta_formatted}', hideCursor: true, clearOnComplete: false, stream: stream as NodeJS.WriteStream },
      Presets.shades_classic,
    );
    const bars = new Map<string, SingleBar>();
    return {
      start: (kind, total) => void bars.set(kind, multi.create(total, 0, { kind: kind.padEnd(10) })),
      tick: (kind, n = 1) => bars.get(kind)?.increment(n),
      total: (kind, total) => bars.get(kind)?.setTotal(total),
      note: (line) => multi.log(line + '\n'),
      stop: () => multi.stop(),
    };
  }
  const counts = new Map<string, { done: number; total: number }>();
  let last = Date.now();
  const line = (kind: string) => {
    const c = counts.get(kind)!;
    stream.write(`${kind}: ${c.done}/${c.total}\n`);
  };
  return {
    start(kind, total) {
      counts.set(kind, { done: 0, total });
    },
    tick(kind, n = 1) {
      const c = counts.get(kind);
      if (!c) return;
      c.done += n;
      if (Date.now() - last >= 2000 || c.done === c.total) {
        last = Date.now();
        line(kind);
      }
    },
    total(kind, total) {
      const c = counts.get(kind);
      if (c) c.total = total;
    },
    note: (l) => void stream.write(l + '\n'),
    stop() {},
  };
}
