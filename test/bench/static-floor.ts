/**
 * The HTTP floor of the machine: serves fixed bodies (captured from the real server) with Node's
 * http module and nothing else, so `server req/s ÷ static req/s` says how far a route is from the
 * limit of the transport itself. `BENCH_STATIC_BODIES` names a JSON file `{ "<path>": "<body>" }`.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const bodies = new Map(
  Object.entries(JSON.parse(readFileSync(process.env.BENCH_STATIC_BODIES!, 'utf8')) as Record<string, string>).map(([p, b]) => [p, Buffer.from(b)]),
);
createServer((req, res) => {
  if (req.url === '/readyz') return void res.end('{"status":"ok"}');
  const body = bodies.get(req.url ?? '');
  if (!body) {
    res.statusCode = 404;
    return void res.end();
  }
  res.setHeader('content-type', 'application/json; charset=UTF-8');
  res.setHeader('content-length', body.length);
  res.end(body);
}).listen(Number(process.env.PORT ?? 8082), process.env.HOST ?? '127.0.0.1');
