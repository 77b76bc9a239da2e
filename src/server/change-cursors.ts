import type { Plugin } from 'graphql-yoga';
import { deliveredCursor } from '../../schema/types/changes.ts';

/**
 * Every event of a `…Changed` subscription carries its change's cursor in `extensions.cursor`,
 * whatever fields the client selected: the SSE stream writes it as the event's `id:` line
 * (`sseEventIds`), so a browser EventSource (and graphql-sse) that reconnects sends it back as
 * `Last-Event-ID` and resumes after it on its own.
 */
export function useChangeCursors(): Plugin {
  return {
    onSubscribe() {
      return {
        onSubscribeResult({ args }) {
          return {
            onNext({ result, setResult }) {
              const cursor = deliveredCursor(args.contextValue as object);
              if (cursor) setResult({ ...result, extensions: { ...result.extensions, cursor } });
            },
          };
        },
      };
    },
  };
}

/** The `extensions.cursor` of one serialized result (it comes last: `setResult` above appends it). */
const CURSOR = /"extensions":\{(?:[^{}]*,)?"cursor":"([A-Za-z0-9_-]+)"/;

/**
 * Yoga's SSE stream with an `id:` line before the `data:` of every event that has a cursor. Yoga
 * writes `event: next\n` and `data: …\n\n` as chunks of their own; the transform keeps the text of
 * an event until its end (a blank line) and passes everything else through as it comes.
 */
export function sseEventIds(body: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let pending = '';
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        pending += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = pending.indexOf('\n\n')) >= 0) {
          const event = pending.slice(0, end + 2);
          pending = pending.slice(end + 2);
          const dataAt = event.indexOf('data: ');
          const cursor = event.startsWith('event: next\n') && dataAt >= 0 ? CURSOR.exec(event)?.[1] : undefined;
          controller.enqueue(encoder.encode(cursor ? `${event.slice(0, dataAt)}id: ${cursor}\n${event.slice(dataAt)}` : event));
        }
      },
      flush(controller) {
        if (pending) controller.enqueue(encoder.encode(pending));
      },
    }),
  );
}
