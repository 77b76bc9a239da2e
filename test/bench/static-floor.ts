/**
 * The HTTP floor of the machine: serves fixed bodies (captured from the real server) with Node's
 * http module and nothing else, so `server req/s ÷ static req/s` says how far a route is from the
 * limit of the transport itself. `BENCH_STATIC_BODIES` names a JSON file `{ "<path>": "<body>" }`;
 * `BENCH_STATIC_ENCODED` optionally one `{ "<path>": { "br": "<base64>", "gzip": "<base64>" } }`:
 * those bytes are sent, with their `Content-Encoding`, to a request whose `Accept-Encoding` is
 * exactly that encoding (as the byte cache sends its stored variants).
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const bodies = new Map(
  Object.entries(JSON.parse(readFileSync(process.env.BENCH_STATIC_BODIES!, 'utf8')) as Record<string, string>).map(([p, b]) => [p, Buffer.from(b)]),
);
const encoded = new Map(
  Object.entries(
    process.env.BENCH_STATIC_ENCODED ? (JSON.parse(readFileSync(process.env.BENCH_STATIC_ENCODED, 'utf8')) as Record<string, Record<string, string>>) : {},
  ).map(([p, variants]) => [p, new Map(Object.entries(variants).map(([enc, b64]) => [enc, Buffer.from(b64, 'base64')]))]),
);
createServer((req, res) => {
  if (req.url === '/readyz') return void res.end('{"status":"ok"}');
  const variant = encoded.get(req.url ?? '')?.get(String(req.headers['accept-encoding'] ?? ''));
  const body = variant ?? bodies.get(req.url ?? '');
  if (!body) {
    res.statusCode = 404;
    return void res.end();
  }
  res.setHeader('content-type', 'application/json; charset=UTF-8');
  if (variant) res.setHeader('content-encoding', String(req.headers['accept-encoding']));
  res.setHeader('content-length', body.length);
  res.end(body);
}).listen(Number(process.env.PORT ?? 8082), process.env.HOST ?? '127.0.0.1');
