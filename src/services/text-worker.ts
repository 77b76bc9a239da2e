/**
 * The text work that may take long on a long text, as one function of a job: run in place for
 * ordinary texts and, for long ones, in a worker thread of src/services/text-work.ts (this module
 * is that worker's task: `runTextJob`).
 */
import { HtmlTooDeepError, kses, type KsesContext } from '../domain/kses.ts';
import { renderContent, renderExcerpt, renderTitle } from '../domain/text.ts';

export type TextJob =
  | { op: 'kses'; text: string; context: KsesContext }
  | { op: 'title' | 'content' | 'excerpt'; text: string };

export type TextResult = { ok: true; text: string } | { ok: false; message: string };

const RENDER = { title: renderTitle, content: renderContent, excerpt: renderExcerpt };

/**
 * The job's answer. kses's refusal of the input (`HtmlTooDeepError`) is a value, not a throw: an
 * error crossing the thread boundary would lose its class.
 */
export function runTextJob(job: TextJob): TextResult {
  if (job.op !== 'kses') return { ok: true, text: RENDER[job.op](job.text) };
  try {
    return { ok: true, text: kses(job.text, job.context) };
  } catch (error) {
    if (error instanceof HtmlTooDeepError) return { ok: false, message: error.message };
    throw error;
  }
}
