/**
 * A GraphQL-over-SSE client for tests: subscribes through `GET /graphql` with
 * `Accept: text/event-stream`, as a browser's EventSource would, and collects the `next` payloads.
 */
export interface SseSubscription {
  /** Payloads received so far, with the time each arrived (performance.now()) and the event's `id:` line, if any. */
  received: { data: any; at: number; id?: string }[];
  /** Resolves with the next payload not yet taken, or rejects after `timeoutMs`. */
  next(timeoutMs?: number): Promise<any>;
  close(): void;
}

export async function subscribeSse(base: string, query: string, headers: Record<string, string> = {}): Promise<SseSubscription> {
  const abort = new AbortController();
  const url = `${base}/graphql?query=${encodeURIComponent(query)}`;
  const res = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: abort.signal });
  if (res.status !== 200 || !res.headers.get('content-type')?.startsWith('text/event-stream')) {
    throw new Error(`subscription answered ${res.status} ${res.headers.get('content-type')}: ${await res.text()}`);
  }
  const received: { data: any; at: number; id?: string }[] = [];
  let taken = 0;
  let wake: (() => void) | undefined;
  let opened!: () => void;
  const open = new Promise<void>((resolve) => (opened = resolve));
  void (async () => {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          opened();
          const lines = block.split('\n');
          if (lines[0] !== 'event: next') continue;
          const data = lines.find((l) => l.startsWith('data: '))!.slice(6);
          const id = lines.find((l) => l.startsWith('id: '))?.slice(4);
          received.push({ data: JSON.parse(data), at: performance.now(), ...(id ? { id } : {}) });
          wake?.();
        }
      }
    } catch {
      // aborted
    }
  })();
  await open; // the server's first ping: the subscription is set up
  return {
    received,
    async next(timeoutMs = 2_000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length <= taken) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`no subscription payload within ${timeoutMs} ms (received ${JSON.stringify(received.map((r) => r.data))})`);
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, left);
        });
      }
      return received[taken++].data;
    },
    close: () => abort.abort(),
  };
}
