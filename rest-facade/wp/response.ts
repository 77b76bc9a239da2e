/**
 * Response side of the WordPress REST server: §1.5 headers, §10.1 CORS, §10.3 envelope features
 * (`_envelope`, `_jsonp`, `_fields`, `_pretty`) and WordPress-style JSON encoding, written to a
 * ResponseWriter (the answer `dispatch` returns).
 */
import { validateHeaderName, validateHeaderValue } from 'node:http';
import { WpError, msg } from './errors.ts';
import type { Caller, TFunction, WpHttpResponse, WpResponse, WpUrls } from './types.ts';

/** The answer being written. Headers keep the order they were first set in; setting a name again replaces its value there (as Node's response does). */
export class ResponseWriter {
  status = 200;
  /** Text, or bytes (ASCII: non-ASCII text escaped, `encodeJsonBody`). */
  body: string | Buffer = '';
  /** Set when the body is known to be ASCII (see WpHttpResponse.ascii). */
  ascii = false;
  private readonly fields = new Map<string, [name: string, value: string]>();

  /** Names and values are checked as Node's response checks them: a bad one throws here, inside the 500 fallback. */
  set(name: string, value: string): void {
    validateHeaderName(name);
    validateHeaderValue(name, value);
    this.fields.set(name.toLowerCase(), [name, value]);
  }

  /** Add a field to `Vary` (once). */
  vary(field: string): void {
    const list = this.fields.get('vary')?.[1].split(/\s*,\s*/) ?? [];
    if (!list.includes(field)) this.set('Vary', [...list, field].join(', '));
  }

  result(): WpHttpResponse {
    return { status: this.status, headers: Object.fromEntries(this.fields.values()), body: this.body, ...(this.ascii && { ascii: true }) };
  }
}

export const EXPOSE_HEADERS = 'X-WP-Total, X-WP-TotalPages, Link, X-TEC-Total, X-TEC-TotalPages';
export const ALLOW_HEADERS = 'Authorization, X-WP-Nonce, Content-Disposition, Content-MD5, Content-Type';
export const CORS_METHODS = 'OPTIONS, GET, POST, PUT, PATCH, DELETE';
export const NOCACHE_EXPIRES = 'Wed, 11 Jan 1984 05:00:00 GMT';
export const NOCACHE_CONTROL = 'no-cache, must-revalidate, max-age=0';

/** Build a handler response. */
export function wpResponse(body: unknown, status = 200, headers?: Record<string, string | number>): WpResponse {
  return headers ? { status, body, headers } : { status, body };
}

/**
 * WordPress `wp_json_encode()` look-alike: `/` escaped as `\/`, non-ASCII as `\uXXXX`
 * (both only ever occur inside strings), so the result is ASCII. `pretty` = PHP JSON_PRETTY_PRINT (4 spaces).
 */
export function encodeJson(data: unknown, pretty = false): string {
  const body = encodeJsonBody(data, pretty);
  return typeof body === 'string' ? body : body.toString('latin1');
}

/** `encodeJson`'s text, as bytes when it had non-ASCII text to escape (written in one pass). */
export function encodeJsonBody(data: unknown, pretty = false): string | Buffer {
  const value = data === undefined ? null : data;
  const indent = pretty ? 4 : undefined;
  let s: string;
  try {
    // No replacer on the common path: a replacer function takes JSON.stringify off its fast path.
    s = JSON.stringify(value, null, indent) ?? 'null';
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    s = JSON.stringify(value, bigintReplacer, indent) ?? 'null'; // BigInt values
  }
  // `/` → `\/` first, by the engine's own `replaceAll`: an escape adds no non-ASCII, and the
  // escapes of non-ASCII below add no `/`.
  const escaped = s.replaceAll('/', '\\/');
  NON_ASCII_RUN.lastIndex = 0;
  const firstRun = NON_ASCII_RUN.exec(escaped);
  // Written as bytes: a megabyte of non-ASCII text is six of escapes, and building them as
  // strings held the event loop for 100 ms and more (allocation and garbage collection).
  if (firstRun) return escapeFewToBytes(escaped, firstRun) ?? escapeToBytes(s);
  return escaped;
}

const NON_ASCII_RUN = /[\u007f-\uffff]+/g;
const HEX = Buffer.from('0123456789abcdef', 'latin1');
/** Past this count `escapeFewToBytes` leaves the text to `escapeToBytes` (its cost is per run). */
const FEW_RUNS = 4096;

/** `\uXXXX` of each UTF-16 unit of `s[from, to)` into `out` at `n`; returns the new end. */
function writeEscapes(s: string, from: number, to: number, out: Buffer, n: number): number {
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i);
    out[n++] = 0x5c;
    out[n++] = 0x75;
    out[n++] = HEX[c >> 12]!;
    out[n++] = HEX[(c >> 8) & 15]!;
    out[n++] = HEX[(c >> 4) & 15]!;
    out[n++] = HEX[c & 15]!;
  }
  return n;
}

/**
 * `escapeToBytes` for a text with a few runs of non-ASCII characters, its slashes already escaped
 * (a page of events: dozens of typographic quotes and dashes, ~5,500 slashes). The regular
 * expression finds the runs, and the ASCII between them is written in blocks. Escaping the slashes
 * here, on the bytes, took two native calls per slash (`indexOf`, `copy`): ~1.5 ms of a 50-event
 * page, against ~0.5 ms for `replaceAll` on the text. Null past `FEW_RUNS` runs, where the loop
 * over every code unit is the faster.
 */
function escapeFewToBytes(s: string, first: RegExpExecArray): Buffer | null {
  const runs: number[] = [];
  let extra = 0;
  for (let m: RegExpExecArray | null = first; m; m = NON_ASCII_RUN.exec(s)) {
    if (runs.length >= 2 * FEW_RUNS) return null;
    runs.push(m.index, m.index + m[0].length);
    extra += 5 * m[0].length;
  }
  const out = Buffer.allocUnsafe(s.length + extra);
  let n = 0;
  let last = 0;
  for (let k = 0; k < runs.length; k += 2) {
    n += out.write(s.slice(last, runs[k]), n, 'latin1');
    n = writeEscapes(s, runs[k]!, runs[k + 1]!, out, n);
    last = runs[k + 1]!;
  }
  out.write(s.slice(last), n, 'latin1');
  return out;
}

/**
 * The JSON text as ASCII bytes: `\uXXXX` for every UTF-16 unit above U+007E, `\/` for `/` (both
 * only ever occur inside strings). Two passes over the code units: the size, then the bytes.
 */
function escapeToBytes(s: string): Buffer {
  let size = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x7f) size += 5;
    else if (c === 0x2f) size += 1;
  }
  const out = Buffer.allocUnsafe(size);
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x7f) {
      if (c === 0x2f) out[n++] = 0x5c;
      out[n++] = c;
    } else {
      n = writeEscapes(s, i, i + 1, out, n);
    }
  }
  return out;
}

function bigintReplacer(_key: string, v: unknown): unknown {
  if (typeof v === 'bigint') return v <= BigInt(Number.MAX_SAFE_INTEGER) && v >= BigInt(Number.MIN_SAFE_INTEGER) ? Number(v) : v.toString();
  return v;
}

/** `_jsonp` callback check (§10.3): `^[\w.]+$`. */
export function isValidJsonpCallback(cb: unknown): cb is string {
  return typeof cb === 'string' && /^[A-Za-z0-9_.]+$/.test(cb);
}

/** The `rest_callback_invalid` body (`{code, message}` only, no data). */
export function jsonpInvalidBody(t: TFunction): Record<string, unknown> {
  return { code: 'rest_callback_invalid', message: t('error.rest_callback_invalid') };
}

/* ---------------------------------------------------------------- _fields */

type FieldTree = Map<string, FieldTree | true>;

/** `wp_parse_list()` + dotted paths → a mask tree; a shorter path wins over its longer forms. */
export function parseFieldsParam(v: unknown): FieldTree | null {
  let list: string[] = [];
  if (typeof v === 'string') list = v.split(/[\s,]+/);
  else if (Array.isArray(v)) list = v.filter((x): x is string => typeof x === 'string').flatMap((x) => x.split(/[\s,]+/));
  else return null;
  list = list.map((s) => s.trim()).filter(Boolean);
  if (!list.length) return null;
  const root: FieldTree = new Map();
  for (const path of list) {
    const parts = path.split('.');
    let node = root;
    for (let i = 0; i < parts.length; i++) {
      const p = parts[i] as string;
      const last = i === parts.length - 1;
      const cur = node.get(p);
      if (cur === true) break;
      if (last) {
        node.set(p, true);
        break;
      }
      if (cur instanceof Map) node = cur;
      else {
        const child: FieldTree = new Map();
        node.set(p, child);
        node = child;
      }
    }
  }
  return root;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return !!v && typeof v === 'object' && !Array.isArray(v);
}

function maskObject(obj: Record<string, unknown>, tree: FieldTree): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) {
    const m = tree.get(k);
    if (m === undefined) continue;
    if (m === true) out[k] = v;
    else if (isPlainObject(v)) out[k] = maskObject(v, m);
    else if (Array.isArray(v)) out[k] = v.map((x) => (isPlainObject(x) ? maskObject(x, m) : x));
    else out[k] = v;
  }
  return out;
}

/** WordPress `rest_filter_response_fields()`: keep only the listed (dotted = nested) keys. */
export function filterFields(data: unknown, fieldsParam: unknown): unknown {
  const tree = parseFieldsParam(fieldsParam);
  if (!tree) return data;
  if (Array.isArray(data)) return data.map((x) => (isPlainObject(x) ? maskObject(x, tree) : x));
  if (isPlainObject(data)) return maskObject(data, tree);
  return data;
}

/* ---------------------------------------------------------------- headers */

export interface SendOptions {
  /** Origins allowed credentials (CORS); absent: every origin, as WordPress does. */
  credentialedOrigins?: readonly string[];
  urls: WpUrls;
  t: TFunction;
  user: Caller;
  /** HTTP method on the wire. */
  httpMethod: string;
  /** `Origin` request header (`''` when absent). */
  origin: string;
  /** Allowed methods of the matched route (undefined = no route matched → no `Allow`). */
  allow?: string[];
  /** Raw query (for `_envelope`, `_jsonp`, `_pretty`). */
  query: Record<string, unknown>;
  /** `_fields` value (any parameter source). */
  fields?: unknown;
}

/** §1.5 + §10.1 headers, in WordPress order. */
export function setStandardHeaders(out: ResponseWriter, o: SendOptions, jsonp: boolean, extra: Record<string, string> = {}): void {
  out.set('Content-Type', `${jsonp ? 'application/javascript' : 'application/json'}; charset=UTF-8`);
  out.set('X-Robots-Tag', 'noindex');
  out.set('Link', `<${o.urls.restRoot}>; rel="https://api.w.org/"`);
  out.set('X-Content-Type-Options', 'nosniff');
  out.set('Access-Control-Expose-Headers', EXPOSE_HEADERS);
  out.set('Access-Control-Allow-Headers', ALLOW_HEADERS);
  for (const [k, v] of Object.entries(extra)) out.set(k, v);
  const origin = o.origin;
  if (origin) {
    const safe = /^[\x21-\x7e]+$/.test(origin) ? origin : 'null';
    // WordPress echoes every origin with credentials; with a list, only the listed ones get them.
    const credentialed = !o.credentialedOrigins || o.credentialedOrigins.includes(safe);
    out.set('Access-Control-Allow-Origin', credentialed ? safe : '*');
    out.set('Access-Control-Allow-Methods', CORS_METHODS);
    if (credentialed) out.set('Access-Control-Allow-Credentials', 'true');
    out.vary('Origin');
  } else if ((o.httpMethod === 'GET' || o.httpMethod === 'HEAD') && o.user.anonymous) {
    out.vary('Origin');
  }
  if (!o.user.anonymous) {
    out.set('Expires', NOCACHE_EXPIRES);
    out.set('Cache-Control', NOCACHE_CONTROL);
  }
}

/** Write a handler result or an error with every WordPress envelope feature applied. */
export function sendWp(out: ResponseWriter, result: WpResponse | WpError, o: SendOptions): void {
  const q = o.query;
  const jsonp = q._jsonp !== undefined;
  const pretty = q._pretty !== undefined;
  const envelope = q._envelope !== undefined;

  if (jsonp && !isValidJsonpCallback(q._jsonp)) {
    const text = encodeJson(jsonpInvalidBody(o.t), pretty);
    setStandardHeaders(out, o, jsonp);
    writeBody(out, 400, text, null);
    return;
  }

  let status: number;
  let data: unknown;
  const headers: Record<string, string> = {};
  if (result instanceof WpError) {
    status = result.status;
    data = result.toBody(o.t);
    Object.assign(headers, result.headers);
  } else {
    status = result.status ?? 200;
    data = result.body;
    for (const [k, v] of Object.entries(result.headers ?? {})) headers[k] = String(v);
    if (status < 400 && o.fields !== undefined) data = filterFields(data, o.fields);
  }
  if (o.allow) headers.Allow = o.allow.join(', ');
  const callback = jsonp ? (q._jsonp as string) : null;

  if (envelope) {
    // Encode first: an unencodable body must not leave half-set headers behind.
    const text = encodeJsonBody({ body: data, status, headers: Object.keys(headers).length ? headers : [] }, pretty);
    setStandardHeaders(out, o, jsonp);
    writeBody(out, 200, text, callback);
    return;
  }
  const text = encodeJsonBody(data, pretty);
  // Handler headers may not override the protocol headers; `Allow` goes in WordPress's position.
  const { Allow, ...rest } = headers;
  setStandardHeaders(out, o, jsonp, Allow !== undefined ? { Allow } : {});
  for (const [k, v] of Object.entries(rest)) if (!/^content-type$/i.test(k)) out.set(k, v);
  writeBody(out, status, text, callback);
}

function writeBody(out: ResponseWriter, status: number, json: string | Buffer, jsonp: string | null): void {
  out.status = status;
  if (typeof json !== 'string') out.body = jsonp ? Buffer.concat([Buffer.from(`/**/${jsonp}(`), json, Buffer.from(')')]) : json;
  else out.body = jsonp ? `/**/${jsonp}(${json})` : json;
  // encodeJson escapes every character above U+007E (JSON.stringify those below U+0020), and a JSONP
  // callback is `[\w.]+`.
  out.ascii = true;
}

/** Error used for a body larger than the limit (not a WordPress code: WP leaves this to PHP/nginx). */
export function payloadTooLarge(limit: number): WpError {
  return new WpError('rest_payload_too_large', msg('error.rest_payload_too_large'), { status: 413, max_bytes: limit });
}
