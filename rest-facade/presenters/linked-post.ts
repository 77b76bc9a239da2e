/** Venue (§4.3) and organizer (§4.4) representations. */
import { organizerJsonLd, venueJsonLd } from './json-ld.ts';
import { presentImage } from './image.ts';
import { defaultLock, redact } from './redact.ts';
import type { JsonObject, LockCheck, RestOrganizerFragment, RestPostFields, RestUrls, RestVenueFragment } from './types.ts';
import { ZERO_DATE, globalId, isEmptyValue, postUrl, wpStatus } from './util.ts';

export interface LinkedPostPresentOptions {
  /** Add `json_ld` (single reads, and venues/organizers nested in a single-event read). */
  jsonLd?: boolean;
  /** Password lock rule (§3.2); default: the node's `locked` (else `hasPassword`). */
  isLocked?: LockCheck;
  /** Explicit lock decision for this record (wins over `isLocked`). */
  locked?: boolean | null;
}

function isLockedBy(node: RestPostFields, opts: LinkedPostPresentOptions): boolean {
  if (typeof opts.locked === 'boolean') return opts.locked;
  return (opts.isLocked ?? defaultLock)(node);
}

function common(node: RestPostFields, urls: RestUrls, kind: 'cal_venue' | 'cal_organizer', nameKey: string, name: string): Array<[string, unknown]> {
  return [
    ['id', node.databaseId],
    ['author', String(node.authorId ?? 0)],
    ['status', wpStatus(node.status)],
    ['date', node.date],
    ['date_utc', node.dateUtc ?? ZERO_DATE],
    ['modified', node.modified],
    ['modified_utc', node.modifiedUtc],
    ['url', postUrl(urls, kind, node.databaseId, node.status, node.slug)],
    [nameKey, name],
    ['description', node.description],
    ['excerpt', node.excerpt],
    ['slug', node.slug ?? ''],
    ['image', presentImage(node.image)],
  ];
}

/** Build an object from pairs, dropping empty members except the keys in `keep`. */
function compact(pairs: Array<[string, unknown]>, keep: ReadonlySet<string>): JsonObject {
  const out: JsonObject = {};
  for (const [k, v] of pairs) if (keep.has(k) || !isEmptyValue(v)) out[k] = v;
  return out;
}

const VENUE_KEEP = new Set(['show_map', 'show_map_link', 'global_id', 'global_id_lineage']);
const ORGANIZER_KEEP = new Set(['global_id', 'global_id_lineage']);

/**
 * §4.3 venue: empty members omitted (map flags and global IDs always present), no `rest_url`,
 * `geo_lat`/`geo_lng` only with coordinates, `json_ld` when asked and not locked. A locked record
 * is redacted (§4.7).
 */
export function presentVenue(node: RestVenueFragment, urls: RestUrls, opts: LinkedPostPresentOptions = {}): JsonObject {
  const locked = isLockedBy(node, opts);
  const gid = globalId(urls, node.databaseId);
  const pairs = common(node, urls, 'cal_venue', 'venue', node.name);
  pairs.push(
    ['address', node.address],
    ['city', node.city],
    ['country', node.country],
    ['province', node.province],
    ['state', node.state],
    ['zip', node.zip],
    ['phone', node.phone],
    ['website', node.website],
    ['stateprovince', node.stateprovince],
    ['geo_lat', node.latitude ?? null],
    ['geo_lng', node.longitude ?? null],
    ['json_ld', opts.jsonLd && !locked ? venueJsonLd(node) : null],
    ['show_map', node.showMap],
    ['show_map_link', node.showMapLink],
    ['global_id', gid],
    ['global_id_lineage', [gid]],
  );
  const out = compact(pairs, VENUE_KEEP);
  return locked ? redact(out) : out;
}

/** §4.4 organizer: same omission rule as venues (for every member but the global IDs), no map flags. */
export function presentOrganizer(node: RestOrganizerFragment, urls: RestUrls, opts: LinkedPostPresentOptions = {}): JsonObject {
  const locked = isLockedBy(node, opts);
  const gid = globalId(urls, node.databaseId);
  const pairs = common(node, urls, 'cal_organizer', 'organizer', node.name);
  pairs.push(
    ['phone', node.phone],
    ['website', node.website],
    ['email', node.email],
    ['json_ld', opts.jsonLd && !locked ? organizerJsonLd(node) : null],
    ['global_id', gid],
    ['global_id_lineage', [gid]],
  );
  const out = compact(pairs, ORGANIZER_KEEP);
  return locked ? redact(out) : out;
}
