import { CREATE_EVENT, createVariables, mutatedEvent, NS, restEvent, UPDATE_EVENT, updateVariables } from './operations.ts';

/**
 * The mixed load of `npm run topology`, through the edge: anonymous readers over many URLs, and
 * signed-in writers — REST and GraphQL — that create events and rename "hot" events every reader
 * sees (their titles carry a version: `Topology hot 3 v17`). Every request is recorded with its
 * start and end; every acknowledged write with the time of its answer, so that reads can be judged:
 * a read that started after a newer version of a hot event was acknowledged (plus the purge's
 * repeat window) and still shows an older one is stale.
 */

export interface Request {
  start: number;
  end: number;
  ok: boolean;
  /** HTTP status, 0 when no answer came. */
  status: number;
  what: string;
}

export interface Hot {
  /** 1-based number in the title. */
  n: number;
  id: number;
  slug: string;
  /** The versions acknowledged, in order, each with the times its write was sent and answered. */
  acks: { version: number; start: number; at: number }[];
  /** Highest version sent (acknowledged or not: an unanswered write may have been committed). */
  attempted: number;
}

export interface Created {
  id: number;
  title: string;
  start: number;
  at: number;
}

export interface Stale {
  start: number;
  url: string;
  hot: number;
  seen: number;
  acknowledged: number;
}

/** A read is stale when it started this long after a newer version was acknowledged (src/server/purge.ts repeats each purge 2 s later). */
export const STALE_AFTER_MS = 2_500;

const HOT_TITLE = /Topology hot (\d+) v(\d+)/g;
export const hotTitle = (n: number, version: number) => `Topology hot ${n} v${version}`;

/** (hot number, version) pairs a body shows. */
export function hotVersions(text: string): [number, number][] {
  return [...text.matchAll(HOT_TITLE)].map((m) => [Number(m[1]), Number(m[2])]);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const jitter = (ms: number) => ms * (0.5 + Math.random());

export interface LoadOptions {
  edge: string;
  auth: string;
  hot: Hot[];
  readUrls: string[];
  readers: number;
  readThinkMs: number;
  /** REST writers; one GraphQL writer besides. */
  restWriters: number;
  writeThinkMs: number;
}

export class Load {
  readonly reads: Request[] = [];
  readonly writes: Request[] = [];
  readonly created: Created[] = [];
  readonly stale: Stale[] = [];
  private stopped = false;
  private paused = false;
  private busy = 0;
  private loops: Promise<void>[] = [];
  private idleWaiters: (() => void)[] = [];

  constructor(private readonly opts: LoadOptions) {}

  start(): void {
    for (let i = 0; i < this.opts.readers; i++) this.loops.push(this.reader());
    const writers = this.opts.restWriters + 1;
    // Each hot event has one writer: its versions are committed in the order they are sent.
    const owned = (w: number) => this.opts.hot.filter((_, i) => i % writers === w);
    for (let w = 0; w < this.opts.restWriters; w++) this.loops.push(this.writer(w, owned(w), 'rest'));
    this.loops.push(this.writer(this.opts.restWriters, owned(this.opts.restWriters), 'graphql'));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all(this.loops);
  }

  /** Writers finish what they are doing and wait; resolves once none is in flight. */
  async pauseWrites(): Promise<void> {
    this.paused = true;
    if (this.busy) await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
  }

  resumeWrites(): void {
    this.paused = false;
  }

  private async reader(): Promise<void> {
    const urls = this.opts.readUrls;
    while (!this.stopped) {
      const url = urls[Math.floor(Math.random() * urls.length)]!;
      const start = performance.now();
      let status = 0;
      let text = '';
      try {
        const res = await fetch(this.opts.edge + url, { signal: AbortSignal.timeout(20_000) });
        status = res.status;
        text = await res.text();
      } catch {
        // no answer (refused, reset, timed out): status 0
      }
      const ok = status >= 200 && status < 300;
      this.reads.push({ start, end: performance.now(), ok, status, what: url });
      if (ok) this.judge(url, start, text);
      await sleep(jitter(this.opts.readThinkMs));
    }
  }

  /** Records every hot event the body shows older than a version acknowledged well before the read started. */
  judge(url: string, start: number, text: string): Stale[] {
    const found: Stale[] = [];
    for (const [n, seen] of hotVersions(text)) {
      const hot = this.opts.hot[n - 1];
      const newer = hot?.acks.findLast((a) => a.version > seen && a.at + STALE_AFTER_MS < start);
      if (newer) found.push({ start, url, hot: n, seen, acknowledged: newer.version });
    }
    this.stale.push(...found);
    return found;
  }

  private async writer(w: number, hot: Hot[], api: 'rest' | 'graphql'): Promise<void> {
    let seq = 0;
    while (!this.stopped) {
      if (this.paused) {
        await sleep(100);
        continue;
      }
      this.busy++;
      try {
        const target = hot.length && Math.random() < 0.5 ? hot[Math.floor(Math.random() * hot.length)] : undefined;
        if (target) await this.rename(target, api);
        else await this.create(`Topology new ${w}-${++seq}`, api, seq);
      } finally {
        this.busy--;
        if (!this.busy) for (const wake of this.idleWaiters.splice(0)) wake();
      }
      await sleep(jitter(this.opts.writeThinkMs));
    }
  }

  private async send(path: string, body: unknown): Promise<{ status: number; json: unknown }> {
    try {
      const res = await fetch(this.opts.edge + path, {
        method: 'POST',
        headers: { authorization: this.opts.auth, 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(30_000),
      });
      const text = await res.text();
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      return { status: res.status, json };
    } catch {
      return { status: 0, json: undefined };
    }
  }

  private async rename(hot: Hot, api: 'rest' | 'graphql'): Promise<void> {
    const version = ++hot.attempted;
    const title = hotTitle(hot.n, version);
    const start = performance.now();
    let ok: boolean;
    let status: number;
    if (api === 'rest') {
      ({ status } = await this.send(`${NS}/events/${hot.id}`, { title }));
      ok = status === 200;
    } else {
      const r = await this.send('/graphql', { query: UPDATE_EVENT, variables: updateVariables(hot.id, title) });
      status = r.status;
      ok = r.status === 200 && !('error' in mutatedEvent(r.json, 'updateEvent'));
    }
    const end = performance.now();
    this.writes.push({ start, end, ok, status, what: `${api} rename hot ${hot.n}` });
    if (ok) hot.acks.push({ version, start, at: end });
  }

  private async create(title: string, api: 'rest' | 'graphql', seq: number): Promise<void> {
    const day = `2031-07-${String((seq % 28) + 1).padStart(2, '0')}`;
    const start = performance.now();
    let id: number | undefined;
    let status: number;
    if (api === 'rest') {
      const r = await this.send(`${NS}/events`, restEvent(title, day));
      status = r.status;
      if (r.status === 201) id = (r.json as { id: number }).id;
    } else {
      const r = await this.send('/graphql', { query: CREATE_EVENT, variables: createVariables(title, day) });
      status = r.status;
      const event = r.status === 200 ? mutatedEvent(r.json, 'createEvent') : undefined;
      if (event && 'id' in event) id = event.id;
    }
    const end = performance.now();
    this.writes.push({ start, end, ok: id !== undefined, status, what: `${api} create` });
    if (id !== undefined) this.created.push({ id, title, start, at: end });
  }
}
