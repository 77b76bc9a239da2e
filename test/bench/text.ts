/**
 * `npx tsx test/bench/text.ts [sizes]`: time of the REST text filters (title, content, excerpt)
 * on pathological texts, per size; linear filters grow ×4 when the size does.
 * Prints one line per text and size (ms).
 */
import { renderContent, renderExcerpt, renderTitle } from '../../src/domain/text.ts';

const TEXTS: Record<string, (n: number) => string> = {
  'lt <': (n) => '<'.repeat(n),
  'lsaquo ‹': (n) => '‹'.repeat(n),
  'comment <!--': (n) => '<!--'.repeat(n / 4),
  'spaces then a': (n) => `${' '.repeat(n)}a`,
  'unclosed <li': (n) => '<li'.repeat(n / 3),
  'unclosed <div': (n) => '<div'.repeat(n / 4),
  'quotes "': (n) => '"'.repeat(n),
  "apostrophes '": (n) => "'".repeat(n),
  'dashes -': (n) => '-'.repeat(n),
  'ampersands &': (n) => '&'.repeat(n),
  'mixed prose': (n) => 'It\'s "jazz" -- 3x4 & more<br>\n'.repeat(n / 30),
};

const sizes = (process.argv[2] ?? '25000,100000').split(',').map(Number);
console.log(`${'text'.padEnd(16)}${sizes.map((n) => `${n} chars`.padStart(16)).join('')}`);
for (const [name, make] of Object.entries(TEXTS)) {
  const cells = sizes.map((n, i) => {
    const text = `${make(n)} ${i}`; // distinct texts: the renderers memoize
    const t = performance.now();
    renderTitle(text);
    renderContent(text);
    renderExcerpt(text);
    return `${(performance.now() - t).toFixed(1)} ms`.padStart(16);
  });
  console.log(`${name.padEnd(16)}${cells.join('')}`);
}
