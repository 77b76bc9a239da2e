/**
 * Venue and organizer write parameters → their GraphQL inputs, standalone (`POST /venues`) or
 * inline in an event write (`venue: {…}`).
 */
import { invalidParamsError } from '../../wp/errors.ts';
import { isTruthy } from '../../wp/coerce.ts';
import type { CreateOrganizerInput, CreateVenueInput, UpdateOrganizerInput, UpdateVenueInput } from '../../generated/operations.ts';
import { isIntLike, optionalNumber, recordId, statusEnum, type Building } from '../params.ts';

/** A venue's or an organizer's create input: what both inputs take. */
export type LinkedPostCreate = CreateVenueInput & CreateOrganizerInput;
/** A venue's or an organizer's update input. */
export type LinkedPostUpdate = UpdateVenueInput & UpdateOrganizerInput;

/** The members of an input that take text (and `status`, the enum, read from text). */
type TextMember<T> = { [K in keyof T]-?: string extends NonNullable<T[K]> ? K : never }[keyof T] | 'status';

const venueFieldMap: Record<string, TextMember<UpdateVenueInput>> = {
  venue: 'name',
  description: 'description',
  address: 'address',
  city: 'city',
  country: 'country',
  province: 'province',
  state: 'state',
  stateprovince: 'stateprovince',
  zip: 'zip',
  phone: 'phone',
  website: 'website',
  image: 'image',
  author: 'authorId',
  date: 'date',
  date_utc: 'dateUtc',
  status: 'status',
};
const organizerFieldMap: Record<string, TextMember<UpdateOrganizerInput>> = {
  organizer: 'name',
  description: 'description',
  phone: 'phone',
  website: 'website',
  email: 'email',
  image: 'image',
  author: 'authorId',
  date: 'date',
  date_utc: 'dateUtc',
  status: 'status',
};

/**
 * Venue/organizer write parameters → CreateVenueInput/UpdateVenueInput (and organizer). JSON
 * booleans for `show_map` are refused by the route's declared string type before this runs.
 * `nestedIn` names the event parameter an inline record came from (errors then blame it).
 */
export function linkedPostInput(kind: 'venue' | 'organizer', params: Record<string, unknown>, sent: (n: string) => boolean, nestedIn?: string): Building<LinkedPostUpdate> {
  const map = kind === 'venue' ? venueFieldMap : organizerFieldMap;
  const input: Building<LinkedPostUpdate> = {};
  for (const [rest, gql] of Object.entries(map)) {
    if (!sent(rest)) continue;
    const value = params[rest];
    if (value === undefined || value === null) continue;
    if (typeof value === 'object') throw invalidParamsError([[nestedIn ?? rest, false]]);
    if (gql === 'status') input.status = statusEnum(nestedIn ?? rest, value);
    else if (gql === 'authorId') input.authorId = recordId(nestedIn ?? rest, value);
    else input[gql] = String(value);
  }
  if (kind === 'venue') {
    for (const [rest, gql] of [['show_map', 'showMap'], ['show_map_link', 'showMapLink']] as const) {
      if (sent(rest) && params[rest] !== undefined && params[rest] !== null) input[gql] = isTruthy(params[rest]);
    }
    for (const [rest, gql] of [['geo_lat', 'latitude'], ['geo_lng', 'longitude']] as const) {
      if (sent(rest)) {
        const n = optionalNumber(params[rest]);
        if (n === undefined) throw invalidParamsError([[nestedIn ?? rest, false]]);
        input[gql] = n;
      }
    }
  }
  return input;
}

/**
 * `venue`/`organizer` on event writes (§7.4): IDs, `{id}` objects, objects to create, lists of
 * those, CSV strings of IDs. Returns undefined for "not given", [] for "unlink all".
 */
export function linkedRefs(kind: 'venue' | 'organizer', value: unknown, onUpdate: boolean): Array<{ id: number } | { create: LinkedPostCreate }> | undefined {
  if (value === undefined || value === null) return undefined;
  const empty = value === 0 || value === '0' || value === '' || (Array.isArray(value) && value.length === 0);
  if (empty) return onUpdate ? [] : undefined;
  // A CSV string of IDs is split as is (no second URL-decoding, unlike list parameters).
  const items: unknown[] = Array.isArray(value) ? value : typeof value === 'string' && value.includes(',') ? value.split(',').map((s) => s.trim()).filter(Boolean) : [value];
  // A CSV naming no ID (`",,,"`) is no list: the plugin's ID-list check refuses an empty list
  // (400), where `""`/`[]` above are the documented "unlink".
  if (!items.length) throw invalidParamsError([[kind, false]]);
  return items.map((item) => {
    if (isIntLike(item)) return { id: Number(String(item).trim()) };
    if (item && typeof item === 'object' && !Array.isArray(item)) {
      const obj = item as Record<string, unknown>;
      if (obj.id !== undefined && obj.id !== null && obj.id !== '') {
        if (!isIntLike(obj.id)) throw invalidParamsError([[kind, false]]);
        return { id: Number(obj.id) };
      }
      const input = linkedPostInput(kind, obj, (n) => n in obj, kind);
      if (typeof input.name !== 'string' || !input.name.trim()) throw invalidParamsError([[kind, false]]);
      return { create: { ...input, name: input.name } };
    }
    throw invalidParamsError([[kind, false]]);
  });
}
