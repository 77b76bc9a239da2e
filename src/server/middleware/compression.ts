import { ReadStream } from 'node:fs';
import { pipeline } from 'node:stream';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Context, Middleware } from 'koa';

/**
 * `Content-Encoding` of every compressible answer: brotli or gzip as the client's
 * `Accept-Encoding` allows (brotli preferred at equal weight), with `Vary: Accept-Encoding`. Bodies
 * under MIN_BYTES stay as they are (the frame would cost more than it saves), so do answers already
 * encoded (GraphiQL's gzipped assets, the byte cache's precompressed variants), event streams and
 * multipart (incremental delivery: compression would hold chunks back), images and other binaries.
 * Brotli at quality 4 and gzip at level 6: a 160 KB list compresses in about 2 ms either way.
 */

export type Encoding = 'br' | 'gzip' | 'identity';

/** Smallest body worth compressing. */
const MIN_BYTES = 1024;
const COMPRESSIBLE = /^(?:text\/(?!event-stream)|application\/(?:json|javascript|[\w.+-]*\+json|xml|[\w.+-]*\+xml|graphql-response\+json)|image\/svg\+xml)/i;

/** Whether an answer of this type and size is sent compressed to clients that accept it. */
export function compressible(type: string, bytes: number): boolean {
  return bytes >= MIN_BYTES && COMPRESSIBLE.test(type);
}

/** The best encoding the request accepts: `br` unless gzip is weighted higher, `identity` when neither is accepted. */
export function negotiateEncoding(acceptEncoding: string | undefined): Encoding {
  if (!acceptEncoding) return 'identity';
  let br = 0;
  let gzip = 0;
  let any = -1;
  for (const part of acceptEncoding.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const q = qParam ? Number(qParam.slice(2)) : 1;
    const weight = Number.isFinite(q) ? q : 0;
    if (name === 'br') br = weight;
    else if (name === 'gzip' || name === 'x-gzip') gzip = Math.max(gzip, weight);
    else if (name === '*') any = weight;
  }
  if (any > 0) {
    if (!/\bbr\b/i.test(acceptEncoding)) br = any;
    if (!/\bgzip\b/i.test(acceptEncoding)) gzip = any;
  }
  if (br > 0 && br >= gzip) return 'br';
  return gzip > 0 ? 'gzip' : 'identity';
}

const gzipAsync = promisify(zlib.gzip);
const brotliAsync = promisify(zlib.brotliCompress);
const brotliParams = (size: number) => ({
  params: {
    [zlib.constants.BROTLI_PARAM_QUALITY]: 4,
    [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
    [zlib.constants.BROTLI_PARAM_SIZE_HINT]: size,
  },
});

/** One body in one encoding (zlib's thread pool: the event loop keeps serving meanwhile). */
export function encode(body: Buffer, encoding: Exclude<Encoding, 'identity'>): Promise<Buffer> {
  return encoding === 'br' ? brotliAsync(body, brotliParams(body.length)) : gzipAsync(body, { level: 6 });
}

/** Answers whose body is already in the encoding the client gets (the byte cache's variants). */
const encoded = new WeakSet<Context>();
export function markEncoded(ctx: Context): void {
  encoded.add(ctx);
}

/** The body as bytes when it can be compressed whole (string, Buffer, JSON value); null for streams and empty bodies. */
function bytesOf(body: unknown): Buffer | null {
  if (body === null || body === undefined) return null;
  if (Buffer.isBuffer(body)) return body;
  if (typeof body === 'string') return Buffer.from(body);
  // A plain JSON value (health, OpenAPI): what Koa itself would send. Streams of any kind are not.
  if (Array.isArray(body) || (typeof body === 'object' && Object.getPrototypeOf(body) === Object.prototype)) {
    return Buffer.from(JSON.stringify(body));
  }
  return null;
}

/**
 * `Vary: Accept-Encoding` tells a shared cache that the body depends on the request's encoding. An
 * answer to a request with credentials is never stored by a shared cache (RFC 9111 §3.5) and the
 * WordPress answers the REST facade reproduces carry no `Vary` then (test/rest/samples.test.ts):
 * those are compressed all the same, without the header.
 */
export function varyOnEncoding(ctx: Context): void {
  if (!ctx.get('Authorization') && !ctx.get('Cookie')) ctx.vary('Accept-Encoding');
}

export function useCompression(): Middleware {
  return async function compression(ctx, next) {
    await next();
    if (encoded.has(ctx) || ctx.response.get('Content-Encoding') || ctx.body === null || ctx.body === undefined) return;
    const type = ctx.response.get('Content-Type');
    const body: unknown = ctx.body;
    // Files streamed from disk (the API reference's script and styles): compressed as they stream.
    if (body instanceof ReadStream) {
      if (!COMPRESSIBLE.test(type)) return;
      varyOnEncoding(ctx);
      const encoding = negotiateEncoding(ctx.get('Accept-Encoding'));
      if (encoding === 'identity') return;
      ctx.set('Content-Encoding', encoding);
      ctx.body = pipeline(body, encoding === 'br' ? zlib.createBrotliCompress(brotliParams(0)) : zlib.createGzip({ level: 6 }), () => {});
      return;
    }
    const bytes = bytesOf(body);
    if (!bytes || !compressible(type, bytes.length)) return;
    varyOnEncoding(ctx);
    const encoding = negotiateEncoding(ctx.get('Accept-Encoding'));
    if (encoding === 'identity') return;
    ctx.body = await encode(bytes, encoding);
    ctx.set('Content-Encoding', encoding);
  };
}
