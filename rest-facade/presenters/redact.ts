/**
 * Password redaction (§4.7, REC variant). Whether a record is locked is not decided here: the
 * presenters read the core's `locked` (src/services/visibility.ts `isLocked`, the one access rule of
 * the REST API, GraphQL and the pages).
 */
import type { JsonObject } from './util.ts';

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
