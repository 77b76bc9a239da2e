import { createServer, type Server } from 'node:http';
import type { Logger } from 'pino';
import { collectProcessMetrics, exposition } from '../telemetry/metrics.ts';

/**
 * `GET /metrics` (Prometheus's text exposition) on a listener of its own (CAL_METRICS_ADDR,
 * 127.0.0.1:9464 by default), so that the metrics are never served on the public port by accident.
 * A port already taken (another instance on the same machine) is logged and skipped: the service
 * starts all the same, without metrics. Resolves with the address it listens on, or null.
 */
export async function startMetricsListener(address: { host: string; port: number }, logger: Logger): Promise<{ server: Server; port: number } | null> {
  collectProcessMetrics();
  const server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found: metrics are at /metrics\n');
      return;
    }
    exposition().then(
      ({ contentType, body }) => res.writeHead(200, { 'Content-Type': contentType }).end(req.method === 'HEAD' ? undefined : body),
      (err: unknown) => {
        logger.error({ err }, 'metrics: exposition failed');
        res.writeHead(500).end();
      },
    );
  });
  return new Promise((resolve) => {
    server.once('error', (e: NodeJS.ErrnoException) => {
      logger.warn({ host: address.host, port: address.port, code: e.code }, `metrics: cannot listen on ${address.host}:${address.port} (${e.code ?? e.message}); serving without /metrics`);
      resolve(null);
    });
    server.listen(address.port, address.host, () => {
      const bound = server.address();
      const port = typeof bound === 'object' && bound ? bound.port : address.port;
      logger.info({ host: address.host, port }, `metrics on http://${address.host.includes(':') ? `[${address.host}]` : address.host}:${port}/metrics`);
      server.unref();
      resolve({ server, port });
    });
  });
}
