/**
 * Request bodies as WordPress reads them: the raw bytes with a size limit, JSON decoded with PHP
 * `json_last_error()` codes, urlencoded and multipart forms parsed like PHP does.
 */
import type { IncomingMessage } from 'node:http';
import busboy from 'busboy';
import { msg, wpError, type WpError } from './errors.ts';
import { requestHeader } from './locate.ts';
import { InvalidValue, MAX_INPUT_VARS, parseQueryString, phpParams } from './query-string.ts';
import { payloadTooLarge, type ResponseWriter } from './response.ts';
import type { WpHttpRequest } from './types.ts';

const utf8 = new TextDecoder('utf-8', { fatal: true });

export const DEFAULT_BODY_LIMIT = 1024 * 1024;

export class BodyTooLargeError extends Error {
  constructor() {
    super('request body too large');
  }
}

/** Read the whole request body, refusing more than `limit` bytes. */
export async function readRawBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    req.resume();
    throw new BodyTooLargeError();
  }
  if (req.readableEnded) return Buffer.alloc(0);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const b = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += b.length;
    if (size > limit) {
      req.resume();
      throw new BodyTooLargeError();
    }
    chunks.push(b);
  }
  return Buffer.concat(chunks);
}

/** Parse a multipart/form-data body (fields only; files are discarded). Field text is UTF-8-checked. */
export function parseMultipart(body: Buffer, contentType: string): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const fields: Array<[string | InvalidValue, unknown]> = [];
    let bb: busboy.Busboy;
    try {
      bb = busboy({
        headers: { 'content-type': contentType },
        defCharset: 'latin1',
        defParamCharset: 'latin1',
        limits: { fields: MAX_INPUT_VARS, fieldSize: DEFAULT_BODY_LIMIT, files: 20, parts: MAX_INPUT_VARS + 20 },
      });
    } catch (e) {
      reject(e);
      return;
    }
    bb.on('field', (name: string, val: string) => fields.push([utf8Text(name), utf8Text(val)]));
    bb.on('file', (_name: string, stream: NodeJS.ReadableStream) => {
      stream.resume();
    });
    bb.on('error', reject);
    bb.on('close', () => resolve(phpParams(fields)));
    bb.end(body);
  });
}

/** Latin-1 byte string → UTF-8 text (no percent-decoding). */
function utf8Text(s: string): string | InvalidValue {
  try {
    return utf8.decode(Buffer.from(s, 'latin1'));
  } catch {
    return new InvalidValue(s);
  }
}

/** PHP `json_last_error()` codes and messages (not translated by WordPress). */
export const JSON_ERRORS = {
  1: 'Maximum stack depth exceeded',
  3: 'Control character error, possibly incorrectly encoded',
  4: 'Syntax error',
  5: 'Malformed UTF-8 characters, possibly incorrectly encoded',
} as const;

export type JsonResult = { ok: true; value: unknown } | { ok: false; code: keyof typeof JSON_ERRORS; message: string };

const JSON_MAX_DEPTH = 512;

/** Decode a JSON body like PHP `json_decode($body, true)` does, with PHP's error classification. */
export function parseJsonBody(buf: Buffer): JsonResult {
  let text: string;
  try {
    text = utf8.decode(buf);
  } catch {
    return { ok: false, code: 5, message: JSON_ERRORS[5] };
  }
  if (text.charCodeAt(0) === 0xfeff) return { ok: false, code: 4, message: JSON_ERRORS[4] };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    const code = classifyJsonError(text);
    return { ok: false, code, message: JSON_ERRORS[code] };
  }
  if (depthOf(value) > JSON_MAX_DEPTH) return { ok: false, code: 1, message: JSON_ERRORS[1] };
  return { ok: true, value };
}

/** PHP's scanner reports a raw control character, or end of input, inside a string as error 3. */
function classifyJsonError(text: string): 3 | 4 {
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
      else if (c < 0x20) return 3;
    } else if (c === 0x22) inString = true;
  }
  return inString ? 3 : 4;
}

function depthOf(v: unknown): number {
  let max = 0;
  const stack: Array<[unknown, number]> = [[v, 1]];
  while (stack.length) {
    const [x, d] = stack.pop() as [unknown, number];
    if (x && typeof x === 'object') {
      if (d > max) max = d;
      if (d > JSON_MAX_DEPTH) return d;
      for (const y of Object.values(x as object)) stack.push([y, d + 1]);
    }
  }
  return max;
}

const BODY_METHODS: readonly string[] = ['POST', 'PUT', 'PATCH', 'DELETE'];

/** The parameters a body carries (§1.2 sources), and the parsed body handlers see as `req.body`. */
export interface BodySources {
  /** Top-level members of a JSON object body, `null` members removed. */
  json?: Record<string, unknown>;
  /** Urlencoded or multipart form fields. */
  form?: Record<string, unknown>;
  body: unknown;
}

/**
 * Read and parse the body as WordPress does: JSON (`application/json` and the `+json` types) on any
 * method; on writes, urlencoded forms (also untyped bodies but on POST) and multipart forms on
 * POST (a malformed one is ignored). A body over `limit` or JSON that does not decode is the
 * error to answer (a body over the limit also closes the connection).
 */
export async function readBody(request: WpHttpRequest, res: ResponseWriter, method: string, limit: number): Promise<BodySources | WpError> {
  let raw: Buffer;
  try {
    raw = request.body ? await readRawBody(request.body, limit) : Buffer.alloc(0);
  } catch (e) {
    if (!(e instanceof BodyTooLargeError)) throw e;
    res.set('Connection', 'close');
    return payloadTooLarge(limit);
  }
  const httpMethod = request.method.toUpperCase();
  const ctype = (requestHeader(request, 'Content-Type').split(';')[0] ?? '').trim().toLowerCase();
  const isJson = ctype === 'application/json' || /^[a-z]+\/[^;]*\+json$/.test(ctype);
  const out: BodySources = { body: undefined };
  if (isJson && raw.length > 0) {
    const parsed = parseJsonBody(raw);
    if (!parsed.ok) {
      return wpError('rest_invalid_json', msg('error.rest_invalid_json'), 400, { json_error_code: parsed.code, json_error_message: parsed.message });
    }
    out.body = parsed.value;
    if (parsed.value && typeof parsed.value === 'object' && !Array.isArray(parsed.value)) {
      const json: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(parsed.value)) if (v !== null) json[k] = v;
      out.json = json;
    }
  } else if (BODY_METHODS.includes(method) && raw.length > 0) {
    if (ctype === 'application/x-www-form-urlencoded' || (ctype === '' && httpMethod !== 'POST')) {
      out.form = parseQueryString(raw.toString('latin1'));
    } else if (ctype === 'multipart/form-data' && httpMethod === 'POST') {
      out.form = await parseMultipart(raw, requestHeader(request, 'Content-Type')).catch(() => undefined);
    }
    if (out.form) out.body = out.form;
  }
  return out;
}
