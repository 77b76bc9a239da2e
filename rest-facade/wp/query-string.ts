/**
 * PHP-compatible parameter parsing: percent-decoding that keeps track of invalid UTF-8, and
 * `parse_str()`'s nesting (`x[]=1&x[]=2`, `x[a]=1`), shared by query strings and form bodies.
 */

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
  // Nothing to decode, and every character above 0xFF encodes to its own UTF-8 and back.
  if (!/[%+\u0080-\u00ff\ud800-\udfff]/.test(s)) return s;
  // One byte array, written in place (a megabyte of text was a megabyte of pushes and Buffers).
  const bytes = new Uint8Array(s.length * 3);
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x25 /* % */ && i + 2 < s.length) {
      const h = hexVal(s.charCodeAt(i + 1));
      const l = hexVal(s.charCodeAt(i + 2));
      if (h >= 0 && l >= 0) {
        bytes[n++] = h * 16 + l;
        i += 2;
        continue;
      }
      bytes[n++] = c;
    } else if (c === 0x2b /* + */ && plusAsSpace) {
      bytes[n++] = 0x20;
    } else if (c <= 0xff) {
      bytes[n++] = c;
    } else if (c >= 0xd800 && c <= 0xdfff) {
      // Each half of a surrogate pair is encoded alone, as U+FFFD.
      bytes.set([0xef, 0xbf, 0xbd], n);
      n += 3;
    } else if (c < 0x800) {
      bytes[n++] = 0xc0 | (c >> 6);
      bytes[n++] = 0x80 | (c & 0x3f);
    } else {
      bytes[n++] = 0xe0 | (c >> 12);
      bytes[n++] = 0x80 | ((c >> 6) & 0x3f);
      bytes[n++] = 0x80 | (c & 0x3f);
    }
  }
  try {
    return utf8.decode(bytes.subarray(0, n));
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
  const pairs: Array<[string | InvalidValue, unknown]> = [];
  let count = 0;
  for (const part of qs.split('&')) {
    if (!part) continue;
    if (++count > MAX_INPUT_VARS) break;
    const eq = part.indexOf('=');
    const rawKey = eq >= 0 ? part.slice(0, eq) : part;
    const rawVal = eq >= 0 ? part.slice(eq + 1) : '';
    pairs.push([percentDecode(rawKey, plusAsSpace), percentDecode(rawVal, plusAsSpace)]);
  }
  return phpParams(pairs);
}

/**
 * Decoded `[key, value]` pairs → PHP's parameter array: `a[]`/`a[k]` keys nest, later duplicates
 * win; keys that are not valid UTF-8, empty or hold a NUL are dropped.
 */
export function phpParams(pairs: Iterable<[string | InvalidValue, unknown]>): Record<string, unknown> {
  const root = new PhpArray();
  for (const [key, value] of pairs) {
    if (key instanceof InvalidValue || key === '' || key.includes('\0')) continue;
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
