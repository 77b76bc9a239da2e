/**
 * Password redaction (§4.7, REC variant) and the lock decision helpers (§3.2).
 */
import type { JsonObject } from './util.ts';

/** What a lock rule looks at. */
export interface Lockable {
  databaseId: number;
  hasPassword: boolean;
  locked?: boolean | null;
}

/** Is this record password-locked for the caller? (§3.2, REC.) */
export type LockCheck = (record: Lockable) => boolean;

// `description` and `excerpt` arrive empty already: the core's password lock (`lockedContent`).
const TO_EMPTY_STRING = new Set([
  'cost', 'website', 'email', 'phone', 'address', 'city', 'country',
  'province', 'state', 'zip', 'stateprovince', 'virtual_url',
]);
const TO_NULL = new Set(['all_day', 'show_map', 'show_map_link', 'hide_from_listings', 'sticky', 'featured']);
const TO_EMPTY_ARRAY = new Set(['categories', 'tags', 'venue', 'organizer', 'custom_fields']);
const TO_ZERO = new Set(['geo_lat', 'geo_lng']);

function redactValue(key: string, value: unknown): unknown {
  // REC: the name of a venue/organizer record (a string under `venue`/`organizer`) is kept.
  if ((key === 'venue' || key === 'organizer') && typeof value === 'string') return value;
  if (TO_EMPTY_STRING.has(key)) return '';
  if (TO_NULL.has(key)) return null;
  if (TO_EMPTY_ARRAY.has(key)) return [];
  if (TO_ZERO.has(key)) return 0;
  if (key === 'image') return false;
  if (key === 'cost_details') return { currency_symbol: '', currency_position: '', currency_code: '', values: [] };
  return redactDeep(value);
}

function redactDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactDeep);
  if (value && typeof value === 'object') {
    const out: JsonObject = {};
    for (const [k, v] of Object.entries(value as JsonObject)) {
      if (k === 'json_ld') continue;
      out[k] = redactValue(k, v);
    }
    return out;
  }
  return value;
}

/**
 * Redact a presented record (event, venue or organizer) the caller may not fully see: the §4.7 keys
 * are replaced wherever they occur (keys not present are not added, key order is kept), `json_ld`
 * is dropped; title/name, dates, IDs and URLs stay. REC fixes: the venue/organizer name stays a
 * string and `state` is redacted too. Returns a new object.
 */
export function redact<T extends JsonObject>(record: T): T {
  return redactDeep(record) as T;
}

/**
 * Default lock rule: the core's `locked` field when the fragment has it, else every record with a
 * password is locked (safe default).
 */
export const defaultLock: LockCheck = (r) => (typeof r.locked === 'boolean' ? r.locked : r.hasPassword);

/** Nothing is locked (e.g. `context=edit` by a caller who may edit). */
export const lockNone: LockCheck = () => false;

/**
 * A lock rule for the route layer: a protected record is locked unless `isUnlocked` says the caller
 * has access to it (right `?password=`, or may edit it with `context=edit`).
 */
export function lockUnless(isUnlocked: (record: Lockable) => boolean): LockCheck {
  return (r) => r.hasPassword && !isUnlocked(r);
}
