import { MAX_INT } from './args/validators.ts';
import { invalidParamsError, WpError } from '../wp/errors.ts';
import type { WpRequest } from '../wp/types.ts';
import { truthy } from './common.ts';

/** Translation of TEC request parameters into GraphQL variables: shapes only, no calendar rules. */

export const STATUSES = ['publish', 'future', 'draft', 'pending', 'private', 'trash'] as const;

/** A record ID: anything larger names no record and must not reach a GraphQL `Int`. */
// GraphQL's Int is 32-bit: larger numbers can name no record and must not reach a variable.
const isRecordId = (n: number) => Number.isInteger(n) && n >= 1 && n <= MAX_INT;
const isIntLike = (v: unknown) => (typeof v === 'number' || (typeof v === 'string' && /^\s*\d+\s*$/.test(v))) && isRecordId(Number(v));

/** The `{id}` path parameter, or the error an ID that cannot exist deserves. */
export function pathId(req: WpRequest, notFound: () => WpError): number {
  const id = Number(req.pathParams.id);
  if (!isRecordId(id)) throw notFound();
  return id;
}

/** An integer parameter naming a record (`author`, `post_parent`), or a 400 naming it. */
export function recordId(name: string, v: unknown): number {
  if (!isIntLike(v)) throw invalidParamsError([[name, false]]);
  return Number(v);
}

export function asList(v: unknown): unknown[] {
  if (v === undefined || v === null) return [];
  if (Array.isArray(v)) return v;
  if (typeof v === 'string') return v.split(',').map((s) => s.trim()).filter((s) => s !== '');
  return [v];
}

/** A list of positive integers, or a 400 naming the parameter. */
export function intList(name: string, v: unknown): number[] {
  const list = asList(v);
  if (!list.every(isIntLike)) throw invalidParamsError([[name, false]]);
  return list.map((x) => Number(String(x).trim()));
}

/** A list of strings or numbers (IDs, slugs, names), or a 400 naming the parameter. */
export function stringList(name: string, v: unknown): string[] {
  const list = asList(v);
  if (!list.every((x) => typeof x === 'string' || (typeof x === 'number' && Number.isFinite(x)))) throw invalidParamsError([[name, false]]);
  return list.map((x) => String(x).trim()).filter(Boolean);
}

/** WordPress statuses → the GraphQL enum; anything else is a 400 on `status`. */
export function statusEnum(name: string, v: unknown): string {
  if (typeof v !== 'string' || !(STATUSES as readonly string[]).includes(v)) throw invalidParamsError([[name, false]]);
  return v.toUpperCase();
}

export function statusEnumList(name: string, v: unknown): string[] {
  return stringList(name, v).map((s) => statusEnum(name, s));
}

export function optionalNumber(v: unknown): number | undefined {
  const n = typeof v === 'number' ? v : typeof v === 'string' ? Number(v) : NaN;
  return Number.isFinite(n) ? n : undefined;
}

const venueFieldMap: Record<string, string> = {
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
const organizerFieldMap: Record<string, string> = {
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
export function linkedPostInput(kind: 'venue' | 'organizer', params: Record<string, unknown>, sent: (n: string) => boolean, nestedIn?: string): Record<string, unknown> {
  const map = kind === 'venue' ? venueFieldMap : organizerFieldMap;
  const input: Record<string, unknown> = {};
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
      if (sent(rest) && params[rest] !== undefined && params[rest] !== null) input[gql] = truthy(params[rest]);
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
export function linkedRefs(kind: 'venue' | 'organizer', value: unknown, onUpdate: boolean): Record<string, unknown>[] | undefined {
  if (value === undefined || value === null) return undefined;
  const empty = value === 0 || value === '0' || value === '' || (Array.isArray(value) && value.length === 0);
  if (empty) return onUpdate ? [] : undefined;
  const items: unknown[] = Array.isArray(value) ? value : typeof value === 'string' && value.includes(',') ? asList(value) : [value];
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
      return { create: input };
    }
    throw invalidParamsError([[kind, false]]);
  });
}

/** Raw body value of a parameter (for by-slug renames, where the path `slug` shadows it). */
export function bodyParam(req: WpRequest, name: string): unknown {
  const body = req.body;
  return body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>)[name] : undefined;
}

export { WpError };
