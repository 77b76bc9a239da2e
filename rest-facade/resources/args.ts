/**
 * What every resource's argument tables are built from: the database-free validators (they get
 * the raw value and answer true/false, false being "Invalid parameter.") and the arguments all
 * lists or reads share. Argument tables follow the reference namespace index (order, schema keys,
 * defaults, `required`); descriptions are i18n keys (`rest-facade/i18n/*.json`).
 */
import { MAX_INT } from '../../src/domain/ids.ts';
import { phpTrim } from '../../src/domain/text.ts';
import { invalidTypeError } from '../wp/errors.ts';
import { isNumeric } from '../wp/coerce.ts';
import type { ArgEnv, ArgSpec, ArgValidationContext, ValidateResult } from '../wp/types.ts';
import { described, wireList, WIRE_POSITIVE_INTEGER, type JsonSchema } from '../wp/schema.ts';
import { ALL_STATUSES } from '../../src/domain/capabilities.ts';

function toPositiveInt(v: unknown): number | null {
  if (typeof v === 'boolean' || !isNumeric(v)) return null;
  const n = typeof v === 'number' ? v : Number(String(v).trim());
  if (!Number.isInteger(n) || n < 1 || n > MAX_INT) return null;
  return n;
}

/** TEC `is_positive_int`: a positive integral number or numeric string, at most 2^31 − 1 (REC §10.4). */
export const positiveInt = described((v: unknown): boolean => toPositiveInt(v) !== null, WIRE_POSITIVE_INTEGER);

/** Every item of a (normalized) list is a positive integer. */
export const eachPositiveInt = described((v: unknown): boolean => {
  const list = Array.isArray(v) ? v : [v];
  return list.every((x) => toPositiveInt(x) !== null);
}, { anyOf: [{ type: 'array', items: WIRE_POSITIVE_INTEGER }, { type: 'string', pattern: '^[\\s,]*\\+?0*[1-9]\\d{0,9}(\\.0*)?(\\s*,[\\s,]*\\+?0*[1-9]\\d{0,9}(\\.0*)?)*[\\s,]*$' }, { type: 'integer', minimum: 1, maximum: 2147483647 }] });

/** A non-empty string (`""` and non-strings refused). */
export const nonEmptyString = described((v: unknown): boolean => typeof v === 'string' && v !== '', { type: 'string', minLength: 1 });

/**
 * Publication `date`/`date_utc` (§7.3.1): blank text is no date. The plugin validates them with
 * `is_time` (numeric or `strtotime`-readable), which refuses `""`: 400 rest_invalid_param. Numbers
 * (epochs, REC §1.4) and other text go on to the core, which reads them. JSON `null` is absent (§1.2).
 */
export const dateText = described((v: unknown): boolean => typeof v !== 'string' || v.trim() !== '', { anyOf: [{ type: 'number' }, { type: 'string', pattern: '\\S' }] });

/**
 * A venue's or organizer's `image` (the plugin's `is_image_or_empty` on a `string` parameter): a
 * JSON number is an attachment ID only when it is one (REC §1.4), else the plugin's type error
 * (`0`, `-0`: "image is not of type string."); text that PHP trims to nothing but is not `""`
 * (`" "`, `"\t\n"`) is neither empty nor an image: "Invalid parameter.". The rest is the core's.
 */
export const imageOrEmpty = described(
  (v: unknown, ctx: ArgValidationContext): ValidateResult => {
    if (typeof v === 'number') return positiveInt(v) || invalidTypeError(ctx.name, 'string');
    return typeof v !== 'string' || v === '' || phpTrim(v) !== '';
  },
  { anyOf: [{ type: 'integer', minimum: 1, maximum: 2147483647 }, { type: 'string', maxLength: 0 }, { type: 'string', pattern: '[^ \\t\\n\\r\\v\\0]' }] },
);

/** `""` or an absolute URL. */
export const urlOrEmpty = described(urlOrEmptyCheck, { anyOf: [{ type: 'string', maxLength: 0 }, { type: 'string', format: 'uri', pattern: '^[a-zA-Z][a-zA-Z0-9+.-]*:[^\\s]*$' }] });
function urlOrEmptyCheck(v: unknown): boolean {
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

export const postStatus = described((v: unknown): boolean => typeof v === 'string' && (POST_STATUSES as readonly string[]).includes(v), { enum: [...POST_STATUSES] });

/** `per_page` above the site maximum is capped, not refused (§5.4). Runs after integer coercion. */
export function capPerPage(v: unknown, ctx: ArgValidationContext): unknown {
  return typeof v === 'number' ? Math.min(v, ctx.req.settings.maxPerPage) : v;
}

/** Site posts-per-page, as the *string* the index shows (`"10"`). */
export function perPageDefault(env: ArgEnv): string {
  return String(env.settings.postsPerPage);
}

/** `page` of every list. */
export const pageArg: ArgSpec = { default: 1, description: 'desc.the_archive_page_to_return', type: 'integer', validate: positiveInt };

/** `per_page` of a list: the site default, capped at the site maximum. */
export const perPageArg = (description: string): ArgSpec => ({ default: perPageDefault, description, type: 'integer', validate: positiveInt, sanitize: capPerPage });

/** Newer TEC's `password` on reads: processed, but not listed in the index. */
export const passwordArg: ArgSpec = { type: 'string', lenient: true, hidden: true };

/** A list of statuses on reads (`status=publish,draft`): each a WordPress status the core knows. */
export const STATUS_LIST_SCHEMA: JsonSchema = { anyOf: [{ type: 'array', items: { enum: [...ALL_STATUSES] } }, { type: 'string', pattern: `^\\s*(${ALL_STATUSES.join('|')})\\s*(,\\s*(${ALL_STATUSES.join('|')})\\s*)*$` }] };

/** Categories and tags named by ID, slug or name (events accept either, on reads and writes). */
export const TERM_REFS_SCHEMA: JsonSchema = wireList({ type: ['integer', 'string'] });
