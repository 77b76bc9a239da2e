import type { ServerResponse } from 'node:http';
import { live } from '../telemetry/metrics.ts';

/**
 * The GraphQL subscriptions served over SSE right now. Each lasts as long as its client stays, so a
 * stopping process breaks them itself instead of waiting its whole shutdown timeout for them to
 * end: their clients see a broken stream and reconnect (EventSource and graphql-sse retry), behind
 * a load balancer to another instance.
 */
export class LiveStreams {
  private readonly open = new Set<ServerResponse>();

  track(res: ServerResponse): void {
    this.open.add(res);
    live.subscriptions.inc({ transport: 'sse' });
    res.once('close', () => {
      this.open.delete(res);
      live.subscriptions.dec({ transport: 'sse' });
    });
  }

  /** Breaks every stream's connection; returns how many there were. */
  breakAll(): number {
    const count = this.open.size;
    for (const res of this.open) res.destroy();
    this.open.clear();
    return count;
  }
}
