/**
 * Generic (database-free) argument validators and sanitizers used by the argument tables.
 * Validators receive the raw value (string from query/form, any JSON value) and return
 * true/false (false → "Invalid parameter.") or a WpError.
 */
import { isNumeric } from '../../wp/params.ts';
import type { ArgValidationContext } from '../../wp/types.ts';

/** Largest page / per_page / ID accepted by the positive-integer checks (REC §10.4: 2^31 − 1). */
export const MAX_INT = 2 ** 31 - 1;

function toPositiveInt(v: unknown): number | null {
  if (typeof v === 'boolean' || !isNumeric(v)) return null;
  const n = typeof v === 'number' ? v : Number(String(v).trim());
  if (!Number.isInteger(n) || n < 1 || n > MAX_INT) return null;
  return n;
}

/** TEC `is_positive_int`: a positive integral number or numeric string, at most 2^31 − 1. */
export function positiveInt(v: unknown): boolean {
  return toPositiveInt(v) !== null;
}

/** Every item of a (normalized) list is a positive integer. */
export function eachPositiveInt(v: unknown): boolean {
  const list = Array.isArray(v) ? v : [v];
  return list.every((x) => toPositiveInt(x) !== null);
}

/** A non-empty string (`""` and non-strings refused). */
export function nonEmptyString(v: unknown): boolean {
  return typeof v === 'string' && v !== '';
}

/** `""` or an absolute URL. */
export function urlOrEmpty(v: unknown): boolean {
  if (v === '') return true;
  if (typeof v !== 'string' || /\s/.test(v)) return false;
  try {
    const u = new URL(v);
    return /^[a-z][a-z0-9+.-]*:$/i.test(u.protocol) && (!/^https?:$/.test(u.protocol) || u.hostname !== '');
  } catch {
    return false;
  }
}

/** WordPress registered post statuses accepted on writes. */
export const POST_STATUSES = ['publish', 'future', 'draft', 'pending', 'private', 'trash', 'auto-draft', 'inherit'] as const;

export function postStatus(v: unknown): boolean {
  return typeof v === 'string' && (POST_STATUSES as readonly string[]).includes(v);
}

/** `per_page` above the site maximum is capped, not refused (§5.4). Runs after integer coercion. */
export function capPerPage(v: unknown, ctx: ArgValidationContext): unknown {
  return typeof v === 'number' ? Math.min(v, ctx.req.settings.maxPerPage) : v;
}
