import { describe, expect, it } from 'vitest';
import { createProgress } from '../../src/transfer/progress.ts';

/** A stream that keeps what is written to it. */
function sink(isTTY: boolean) {
  const chunks: string[] = [];
  return { isTTY, columns: 100, chunks, write: (s: string) => chunks.push(s) > 0, text: () => chunks.join('') };
}

describe('import progress, not a terminal', () => {
  it('writes a plain line per kind when it is done, and while it moves only every few seconds', () => {
    const out = sink(false);
    let clock = 0;
    const p = createProgress(out, false, { every: 2000, now: () => clock });
    p.start('venues', 0);
    p.total('venues', 3);
    p.tick('venues');
    p.tick('venues');
    expect(out.text()).toBe('');
    clock = 2500;
    p.tick('venues');
    expect(out.text()).toBe('venues: 3/3\n');

    p.start('events', 120);
    for (let i = 0; i < 50; i++) p.tick('events');
    clock = 3000;
    p.tick('events'); // less than `every` since the last line
    clock = 4600;
    p.tick('events');
    p.note('retrying http://x/events?page=2 (HTTP 500) in 20 ms');
    expect(out.text().split('\n')).toEqual(['venues: 3/3', 'events: 52/120', 'retrying http://x/events?page=2 (HTTP 500) in 20 ms', '']);

    // A list that turned out longer than announced (probed events), and an empty one, end with a line each.
    for (let i = 0; i < 70; i++) p.tick('events');
    p.start('tags', 0);
    p.stop();
    const lines = out.text().trimEnd().split('\n');
    expect(lines.slice(-2)).toEqual(['events: 122/122', 'tags: 0/0']);
    expect(out.text()).not.toContain('\u001b');
  });

  it('writes nothing when quiet', () => {
    const out = sink(false);
    const p = createProgress(out, true);
    p.start('events', 1);
    p.tick('events');
    p.note('x');
    p.stop();
    expect(out.chunks).toEqual([]);
  });
});

describe('import progress, on a terminal', () => {
  it('draws a bar per kind with its count and percentage, redrawn in place', () => {
    const out = sink(true);
    const p = createProgress(out);
    p.start('venues', 4);
    p.start('events', 10);
    for (let i = 0; i < 4; i++) p.tick('venues');
    for (let i = 0; i < 5; i++) p.tick('events');
    p.stop();
    const text = out.text();
    // Cursor movements: the bars are redrawn where they are, not appended as lines.
    expect(text).toMatch(/\u001b\[/);
    // eslint-disable-next-line no-control-regex
    const screen = text.replace(/\u001b\[[0-9;?]*[A-Za-z]|\u001b[78]/g, '');
    expect(screen).toMatch(/venues\s+\[█{40}\] 4\/4 100%/);
    expect(screen).toMatch(/events\s+\[█{20}░{20}\] 5\/10 50%/);
  });
});
