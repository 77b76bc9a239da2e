/**
 * Parameter plumbing: PHP-compatible query/form parsing (`x[]=1&x[]=2`, `x[a]=1`), body reading
 * with a size limit, JSON parsing with PHP `json_last_error()` codes, §1.4 type coercion, list
 * normalization and the "truthy" flag rule.
 */
import type { IncomingMessage } from 'node:http';
import busboy from 'busboy';

/** Marker for a value that is not valid UTF-8 (after percent-decoding). */
export class InvalidValue {
  constructor(readonly raw: string) {}
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

function hexVal(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 65 && c <= 70) return c - 55;
  if (c >= 97 && c <= 102) return c - 87;
  return -1;
}

/**
 * Percent-decode a string of bytes (chars ≤ 0xFF are bytes; anything above is UTF-8 encoded),
 * optionally turning `+` into a space; returns the UTF-8 text or an InvalidValue.
 */
export function percentDecode(s: string, plusAsSpace = true): string | InvalidValue {
  if (!/[%+\u0080-\uffff]/.test(s)) return s;
  const bytes: number[] = [];
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x25 /* % */ && i + 2 < s.length) {
      const h = hexVal(s.charCodeAt(i + 1));
      const l = hexVal(s.charCodeAt(i + 2));
      if (h >= 0 && l >= 0) {
        bytes.push(h * 16 + l);
        i += 2;
        continue;
      }
      bytes.push(c);
    } else if (c === 0x2b /* + */ && plusAsSpace) {
      bytes.push(0x20);
    } else if (c <= 0xff) {
      bytes.push(c);
    } else {
      for (const b of Buffer.from(s[i] ?? '', 'utf8')) bytes.push(b);
    }
  }
  try {
    return utf8.decode(Uint8Array.from(bytes));
  } catch {
    return new InvalidValue(s);
  }
}

/** PHP `urldecode()` applied to already-decoded text (invalid results leave the text unchanged). */
export function urldecodeOnce(s: string): string {
  const out = percentDecode(s, true);
  return out instanceof InvalidValue ? s : out;
}

export const MAX_INPUT_VARS = 1000;
export const MAX_NESTING = 8;

/** A PHP array under construction: keeps insertion order and the next numeric index. */
class PhpArray {
  map = new Map<string, unknown>();
  next = 0;
  set(key: string | null, v: unknown): void {
    if (key === null) {
      key = String(this.next);
    }
    if (/^(0|[1-9]\d{0,15})$/.test(key)) this.next = Math.max(this.next, Number(key) + 1);
    this.map.set(key, v);
  }
}

function finalize(v: unknown): unknown {
  if (!(v instanceof PhpArray)) return v;
  const keys = [...v.map.keys()];
  const isList = keys.every((k, i) => k === String(i));
  if (isList) return [...v.map.values()].map(finalize);
  const o: Record<string, unknown> = {};
  for (const [k, x] of v.map) o[k] = finalize(x);
  return o;
}

/**
 * PHP `parse_str()`-like parsing of `a=1&b[]=2&b[]=3&c[x]=4` (raw, percent-encoded input).
 * Later duplicates win; keys that are not valid UTF-8 are dropped; values that are not valid UTF-8
 * become `InvalidValue`. Depth and count are limited.
 */
export function parseQueryString(qs: string, plusAsSpace = true): Record<string, unknown> {
  const root = new PhpArray();
  let count = 0;
  for (const part of qs.split('&')) {
    if (!part) continue;
    if (++count > MAX_INPUT_VARS) break;
    const eq = part.indexOf('=');
    const rawKey = eq >= 0 ? part.slice(0, eq) : part;
    const rawVal = eq >= 0 ? part.slice(eq + 1) : '';
    const key = percentDecode(rawKey, plusAsSpace);
    if (key instanceof InvalidValue || key === '' || key.includes('\0')) continue;
    const value = percentDecode(rawVal, plusAsSpace);
    assignPhpKey(root, key, value);
  }
  return finalize(root) as Record<string, unknown>;
}

function splitPhpKey(key: string): [string, Array<string | null>] {
  const open = key.indexOf('[');
  if (open <= 0) return [key, []];
  const base = key.slice(0, open);
  const segs: Array<string | null> = [];
  let i = open;
  while (i < key.length && key[i] === '[') {
    const close = key.indexOf(']', i);
    if (close < 0) break;
    const seg = key.slice(i + 1, close);
    segs.push(seg === '' ? null : seg);
    i = close + 1;
    if (segs.length > MAX_NESTING) break;
  }
  if (segs.length === 0) return [key, []];
  return [base, segs];
}

function assignPhpKey(root: PhpArray, key: string, value: unknown): void {
  const [base, segs] = splitPhpKey(key);
  if (segs.length === 0) {
    root.set(base, value);
    return;
  }
  let cur: PhpArray;
  const existing = root.map.get(base);
  if (existing instanceof PhpArray) cur = existing;
  else {
    cur = new PhpArray();
    root.set(base, cur);
  }
  for (let i = 0; i < segs.length; i++) {
    const seg = segs[i] ?? null;
    if (i === segs.length - 1) {
      cur.set(seg, value);
    } else {
      const ex = seg === null ? undefined : cur.map.get(seg);
      if (ex instanceof PhpArray) cur = ex;
      else {
        const child = new PhpArray();
        cur.set(seg, child);
        cur = child;
      }
    }
  }
}

/* ------------------------------------------------------------------ bodies */

export const DEFAULT_BODY_LIMIT = 1024 * 1024;

export class BodyTooLargeError extends Error {
  constructor() {
    super('request body too large');
  }
}

/**
 * Read the whole request body, refusing more than `limit` bytes. `preRead` is the raw body an
 * upstream body parser may already have consumed (`ctx.request.rawBody` of @koa/bodyparser).
 */
export async function readRawBody(req: IncomingMessage, limit: number, preRead?: unknown): Promise<Buffer> {
  if (typeof preRead === 'string' || Buffer.isBuffer(preRead)) {
    const b = Buffer.isBuffer(preRead) ? preRead : Buffer.from(preRead, 'utf8');
    if (b.length > limit) throw new BodyTooLargeError();
    return b;
  }
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
    const root = new PhpArray();
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
    bb.on('field', (name: string, val: string) => {
      const key = percentDecodeBytesOnly(name);
      if (key instanceof InvalidValue || key === '' || key.includes('\0')) return;
      assignPhpKey(root, key, percentDecodeBytesOnly(val));
    });
    bb.on('file', (_name: string, stream: NodeJS.ReadableStream) => {
      stream.resume();
    });
    bb.on('error', reject);
    bb.on('close', () => resolve(finalize(root) as Record<string, unknown>));
    bb.end(body);
  });
}

/** Latin-1 byte string → UTF-8 text (no percent-decoding). */
function percentDecodeBytesOnly(s: string): string | InvalidValue {
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

/* --------------------------------------------------------------- coercion */

export type Coerced = { ok: true; value: unknown } | { ok: false };

const NUMERIC = /^[ \t\n\r\v\f]*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?[ \t\n\r\v\f]*$/;

/** PHP `is_numeric()`. */
export function isNumeric(v: unknown): boolean {
  if (typeof v === 'number') return Number.isFinite(v);
  return typeof v === 'string' && NUMERIC.test(v);
}

/** §1.4 integer: a JSON integer or an integral numeric string (`"12"`, `"12.0"`), within ±(2^53−1). */
export function coerceInteger(v: unknown): Coerced {
  let n: number;
  if (typeof v === 'number') n = v;
  else if (typeof v === 'string' && NUMERIC.test(v)) n = Number(v.trim());
  else return { ok: false };
  if (!Number.isFinite(n) || !Number.isInteger(n) || !Number.isSafeInteger(n)) return { ok: false };
  return { ok: true, value: n === 0 ? 0 : n };
}

/** §1.4 boolean: true/false, 1/0, "true"/"false"/"1"/"0" (case-insensitive). `"yes"` is rejected. */
export function coerceBoolean(v: unknown): Coerced {
  if (typeof v === 'boolean') return { ok: true, value: v };
  if (v === 0 || v === 1) return { ok: true, value: v === 1 };
  if (typeof v === 'string') {
    const s = v.toLowerCase();
    if (s === 'true' || s === '1') return { ok: true, value: true };
    if (s === 'false' || s === '0') return { ok: true, value: false };
  }
  return { ok: false };
}

/** §1.4 string: JSON strings only (`lenient`: JSON numbers too, as decimal text). */
export function coerceString(v: unknown, lenient = false): Coerced {
  if (typeof v === 'string') return { ok: true, value: v };
  if (lenient && typeof v === 'number' && Number.isFinite(v)) return { ok: true, value: String(v) };
  return { ok: false };
}

export function coerceNumber(v: unknown): Coerced {
  if (typeof v === 'number' && Number.isFinite(v)) return { ok: true, value: v };
  if (typeof v === 'string' && NUMERIC.test(v)) return { ok: true, value: Number(v.trim()) };
  return { ok: false };
}

/**
 * The "truthy" rule of untyped flags (`show_map`, `has_events`, `only_with_upcoming`, …):
 * `true`, `1`, or (case-insensitive) "1", "true", "yes", "y", "on", "enable", "enabled" → true.
 */
export function isTruthy(v: unknown): boolean {
  if (v === true || v === 1) return true;
  if (typeof v === 'string') return ['1', 'true', 'yes', 'y', 'on', 'enable', 'enabled'].includes(v.trim().toLowerCase());
  return false;
}

/**
 * A list parameter (§1.2): a JSON array or `x[]=` array as is (objects from `x[k]=` → their values),
 * a CSV string url-decoded once more and split on commas (spaces around commas allowed, empty
 * items dropped), a single number → `[n]`.
 */
export function parseList(v: unknown): unknown[] {
  if (v === undefined || v === null || v === false) return [];
  if (Array.isArray(v)) return v.map((x) => (typeof x === 'string' ? x.trim() : x));
  if (typeof v === 'object') return Object.values(v as object);
  if (typeof v === 'number' || v === true) return [v];
  if (typeof v !== 'string') return [];
  const s = urldecodeOnce(v).trim();
  if (s === '') return [];
  return s
    .split(/\s*,\s*/)
    .map((x) => x.trim())
    .filter((x) => x !== '');
}

/** True when the value (recursively) holds invalid UTF-8 or a NUL character. */
export function isTainted(v: unknown, depth = 0): boolean {
  if (v instanceof InvalidValue) return true;
  if (typeof v === 'string') return v.includes('\0');
  if (depth > 64) return true;
  if (Array.isArray(v)) return v.some((x) => isTainted(x, depth + 1));
  if (v && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) if (k.includes('\0') || isTainted(x, depth + 1)) return true;
  }
  return false;
}

export function isPlainScalar(v: unknown): boolean {
  return v === null || ['string', 'number', 'boolean'].includes(typeof v);
}
