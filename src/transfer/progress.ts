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

export function createProgress(
  stream: NodeJS.WriteStream | { isTTY?: boolean; write(s: string): unknown },
  quiet = false,
  { every = 2000, now = Date.now }: { every?: number; now?: () => number } = {},
): Progress {
  if (quiet) return { start() {}, tick() {}, total() {}, note() {}, stop() {} };
  if (stream.isTTY) {
    const multi = new MultiBar(
      { format: ' {kind} [{bar}] {value}/{total} {percentage}% | {eta_formatted}', hideCursor: true, clearOnComplete: false, stream: stream as NodeJS.WriteStream },
      Presets.shades_classic,
    );
    const bars = new Map<string, SingleBar>();
    let stopped = false;
    return {
      start: (kind, total) => void bars.set(kind, multi.create(total, 0, { kind: kind.padEnd(10) })),
      tick: (kind, n = 1) => bars.get(kind)?.increment(n),
      total: (kind, total) => bars.get(kind)?.setTotal(total),
      note: (line) => multi.log(line + '\n'),
      // Once only: the bars end with a line break, so what is printed next starts a line of its own.
      stop: () => {
        if (!stopped) multi.stop();
        stopped = true;
      },
    };
  }
  // Not a terminal: a line per kind every few seconds (`every` ms) while it moves, and one when it
  // is done (all counted, or at the end: an empty list, or more records than the total announced).
  const counts = new Map<string, { done: number; total: number; printed: string }>();
  let last = now();
  const current = (kind: string, c: { done: number; total: number }) => `${kind}: ${c.done}/${Math.max(c.total, c.done)}`;
  const line = (kind: string) => {
    const c = counts.get(kind)!;
    c.printed = current(kind, c);
    stream.write(c.printed + '\n');
  };
  return {
    start(kind, total) {
      for (const [k, c] of counts) if (c.printed !== current(k, c)) line(k);
      counts.set(kind, { done: 0, total, printed: '' });
    },
    tick(kind, n = 1) {
      const c = counts.get(kind);
      if (!c) return;
      c.done += n;
      if (now() - last >= every || c.done === c.total) {
        last = now();
        line(kind);
      }
    },
    total(kind, total) {
      const c = counts.get(kind);
      if (c) c.total = total;
    },
    note: (l) => void stream.write(l + '\n'),
    stop() {
      for (const [k, c] of counts) if (c.printed !== current(k, c)) line(k);
    },
  };
}
