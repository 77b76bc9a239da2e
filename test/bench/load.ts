/** autocannon runs with exact (sub-millisecond) latency percentiles. */
import autocannon from 'autocannon';

export interface LoadSpec {
  baseUrl: string;
  method?: 'GET' | 'POST';
  /** A fixed path, or one chosen per request. */
  path: string | (() => string);
  headers?: Record<string, string>;
  body?: string | (() => string);
  connections: number;
  durationSec: number;
  /** Return every latency (`samples`), to merge several runs' percentiles. */
  keepSamples?: boolean;
}

export interface LoadResult {
  connections: number;
  durationSec: number;
  requests: number;
  rps: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  statusCodes: Record<string, number>;
  bytesPerReq: number;
  /** Every latency in ms, sorted (with `keepSamples`). */
  samples?: Float64Array;
}

function percentile(sorted: Float64Array, p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

export function runLoad(spec: LoadSpec): Promise<LoadResult> {
  const dynamic = typeof spec.path === 'function' || typeof spec.body === 'function';
  const pathOf = () => (typeof spec.path === 'function' ? spec.path() : spec.path);
  const bodyOf = () => (typeof spec.body === 'function' ? spec.body() : spec.body);
  const latencies: number[] = [];
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: spec.baseUrl,
        method: spec.method ?? 'GET',
        connections: spec.connections,
        duration: spec.durationSec,
        headers: spec.headers,
        timeout: 30,
        requests: [
          dynamic
            ? {
                method: spec.method ?? 'GET',
                setupRequest: (req: Record<string, unknown>) => {
                  req.path = pathOf();
                  const body = bodyOf();
                  if (body !== undefined) req.body = body;
                  return req as never;
                },
              }
            : { method: spec.method ?? 'GET', path: pathOf(), ...(spec.body !== undefined ? { body: bodyOf() } : {}) },
        ] as autocannon.Request[],
      },
      (err: Error | null, r: autocannon.Result) => {
        if (err) return reject(err);
        const sorted = Float64Array.from(latencies).sort();
        const total = r.requests.total;
        const statusCodes: Record<string, number> = {};
        for (const [code, v] of Object.entries((r as unknown as { statusCodeStats?: Record<string, { count: number }> }).statusCodeStats ?? {})) statusCodes[code] = v.count;
        resolve({
          connections: spec.connections,
          durationSec: r.duration,
          requests: total,
          rps: +(total / r.duration).toFixed(1),
          p50: +percentile(sorted, 50).toFixed(2),
          p90: +percentile(sorted, 90).toFixed(2),
          p99: +percentile(sorted, 99).toFixed(2),
          max: +percentile(sorted, 100).toFixed(2),
          errors: r.errors,
          timeouts: r.timeouts,
          non2xx: r.non2xx,
          statusCodes,
          bytesPerReq: total ? Math.round(r.throughput.total / total) : 0,
          ...(spec.keepSamples ? { samples: sorted } : {}),
        });
      },
    );
    instance.on('response', (_client: unknown, _status: number, _bytes: number, responseTime: number) => {
      if (latencies.length < 2_000_000) latencies.push(responseTime);
    });
  });
}
