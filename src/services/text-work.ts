/**
 * WordPress's text filters (kses on save, texturize and autop on output) on long texts, off the
 * event loop. They are linear, but a megabyte of markup still takes them hundreds of milliseconds,
 * during which no other request of the process would be answered: texts longer than
 * `LONG_TEXT_LENGTH` go to a worker thread (a Piscina pool, started on the first long text, its
 * threads ended when idle), shorter ones run in place. Same functions either way, so the output
 * does not depend on where it was computed.
 */
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { LRUCache } from 'lru-cache';
import type { Piscina } from 'piscina';
import { canPostUnfilteredHtml, type Actor } from '../domain/capabilities.ts';
import { ValidationError } from '../domain/errors.ts';
import type { KsesContext } from '../domain/kses.ts';
import { LONG_TEXT_LENGTH } from '../domain/text.ts';
import { runTextJob, type TextJob, type TextResult } from './text-worker.ts';

type Rendering = 'title' | 'content' | 'excerpt';

let pool: Piscina<TextJob, TextResult> | undefined;

function workerPool(): Piscina<TextJob, TextResult> {
  if (pool) return pool;
  // The compiled server runs text-worker.js beside this file; from the sources (tests, `npm run
  // dev`), text-worker.ts through tsx's loader, as the process itself runs.
  const fromSource = import.meta.url.endsWith('.ts');
  const tsx = fromSource && !process.execArgv.includes('tsx') ? ['--import', 'tsx'] : [];
  // Required on the first long text, not imported with this module: most processes never start the pool.
  const { Piscina: Pool } = createRequire(import.meta.url)('piscina') as typeof import('piscina');
  pool = new Pool<TextJob, TextResult>({
    filename: new URL(`./text-worker.${fromSource ? 'ts' : 'js'}`, import.meta.url).href,
    name: 'runTextJob',
    // One thread on two cores: the other is the event loop's.
    maxThreads: Math.max(1, Math.min(2, availableParallelism() - 1)),
    minThreads: 0,
    idleTimeout: 30_000,
    ...(tsx.length ? { execArgv: [...process.execArgv, ...tsx] } : {}),
  });
  return pool;
}

/** The job's answer: in place for an ordinary text, from the worker pool for a long one. */
function run(job: TextJob): TextResult | Promise<TextResult> {
  return job.text.length > LONG_TEXT_LENGTH ? workerPool().run(job) : runTextJob(job);
}

const textOf = (result: TextResult): string => (result.ok ? result.text : '');

// Long texts are read again and again too (every list that shows the record): their renderings
// are kept, bounded by size (each at most a megabyte or so, as the request body limit bounds them).
const renderings = new LRUCache<string, Promise<string>>({ maxSize: 32 * 1024 * 1024, sizeCalculation: (_v, key) => key.length * 2 });

/** `renderTitle`, `renderContent` or `renderExcerpt` (src/domain/text.ts); a promise for a long text. */
export function renderText(rendering: Rendering, text: string | null | undefined): string | Promise<string> {
  const job: TextJob = { op: rendering, text: text ?? '' };
  if (job.text.length <= LONG_TEXT_LENGTH) return textOf(runTextJob(job));
  const key = `${rendering}:${job.text}`;
  let out = renderings.get(key);
  if (!out) {
    out = workerPool().run(job).then(textOf);
    out.catch(() => renderings.delete(key));
    renderings.set(key, out);
  }
  return out;
}

/**
 * The longest text kses may hand back: a request body's limit (1 MiB) in characters. kses escapes
 * what it does not keep (`<` becomes `&lt;`), so a megabyte sent could be four stored, rendered and
 * sent back on every read; no writer could have sent that much as it is.
 */
const MAX_FILTERED_LENGTH = 1024 * 1024;

/**
 * The input with its HTML fields filtered as WordPress filters them on save for `actor`: unchanged
 * for callers who may post unfiltered HTML, else each listed string field through kses
 * (src/domain/kses.ts). HTML nesting deeper than kses can parse, or a filtered text longer than
 * `MAX_FILTERED_LENGTH`, is a ValidationError on its field.
 */
export async function filterHtmlFields<T extends object>(actor: Actor | null, input: T, fields: { readonly [K in keyof T]?: KsesContext }): Promise<T> {
  if (canPostUnfilteredHtml(actor)) return input;
  const out = { ...input } as Record<string, unknown>;
  await Promise.all(
    (Object.entries(fields) as [string, KsesContext][]).map(async ([field, context]) => {
      const value = out[field];
      if (typeof value !== 'string') return;
      const result = await run({ op: 'kses', text: value, context });
      if (!result.ok) throw new ValidationError(`${field}: ${result.message}`, field, 'TOO_DEEPLY_NESTED');
      if (result.text.length > MAX_FILTERED_LENGTH) {
        throw new ValidationError(`${field} is too long once filtered (${MAX_FILTERED_LENGTH} characters at most).`, field, 'TOO_LONG');
      }
      out[field] = result.text;
    }),
  );
  return out as T;
}
