/**
 * Argument values (§1.2, §1.4): type coercion, list normalization, the "truthy" rule of untyped
 * flags, and the hygiene checks every value passes.
 */
import { InvalidValue, urldecodeOnce } from './query-string.ts';

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
  // split(',') then trim: what split(/\s*,\s*/) answers, without its rescans of long white space.
  return s
    .split(',')
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
