/**
 * Surrogate keys: the names a cacheable response gives to what it contains, so that a
 * shared cache in front (Varnish with the xkey vmod, Fastly/Cloudflare-style tag purges) can drop
 * exactly the responses a committed change affects. One key per record (`event-123`, `venue-7`,
 * `organizer-9`, `category-4`, `tag-5`) and one per list family (`events-list`, …): a response that
 * lists records of a kind, or looked one up and found nothing, depends on the set of records of that
 * kind, which any create/update/delete of one of them may change.
 *
 * Keys are collected while a request is resolved (schema/surrogate-keys.ts tags every field that
 * returns a record, list or connection of records); a change names the keys it affects
 * (`changeKeys`): its record and its kind's list family. Records whose output includes another one
 * (events at a venue) carry that one's key too, because the resolvers loaded it for them.
 */

/** The record kinds that have keys, by GraphQL type name: key prefix and list family. */
export const KEYED_TYPES = {
  Event: { prefix: 'event', family: 'events-list' },
  Venue: { prefix: 'venue', family: 'venues-list' },
  Organizer: { prefix: 'organizer', family: 'organizers-list' },
  EventCategory: { prefix: 'category', family: 'categories-list' },
  EventTag: { prefix: 'tag', family: 'tags-list' },
} as const;

export type KeyedType = keyof typeof KEYED_TYPES;

export const isKeyedType = (name: string): name is KeyedType => Object.hasOwn(KEYED_TYPES, name);

/** The change kinds of the change bus (src/services/changes.ts) by the type they change. */
const KIND_TYPES: Record<string, KeyedType> = {
  EVENT: 'Event',
  VENUE: 'Venue',
  ORGANIZER: 'Organizer',
  EVENT_CATEGORY: 'EventCategory',
  EVENT_TAG: 'EventTag',
};

/**
 * The keys a committed change of one record affects: the record's own key and its kind's list
 * family. Kinds without keys (accounts) affect none: no anonymous response shows them.
 */
export function changeKeys(change: { kind: string; id: number }): string[] {
  const type = KIND_TYPES[change.kind];
  if (!type) return [];
  const { prefix, family } = KEYED_TYPES[type];
  return [`${prefix}-${change.id}`, family];
}

/**
 * Headers stay under this many bytes (Varnish's default `http_resp_hdr_len` is 8 KiB, and CDNs
 * cap tag headers at a few KiB): past it, the kinds with the most records are named by their list
 * family instead, which every change of that kind purges too.
 */
export const MAX_KEYS_HEADER_BYTES = 4_000;

/** The keys one request has read. */
export class SurrogateKeys {
  private readonly records = new Map<KeyedType, Set<number>>();
  private readonly families = new Set<KeyedType>();

  record(type: KeyedType, id: number): void {
    let ids = this.records.get(type);
    if (!ids) this.records.set(type, (ids = new Set()));
    ids.add(id);
  }

  family(type: KeyedType): void {
    this.families.add(type);
  }

  get empty(): boolean {
    return this.records.size === 0 && this.families.size === 0;
  }

  /** The space-separated header value, at most `maxBytes` long (see MAX_KEYS_HEADER_BYTES). */
  header(maxBytes = MAX_KEYS_HEADER_BYTES): string {
    const families = new Set(this.families);
    // Each kind's record keys written once (a list page names hundreds; the header was rebuilt whole per kind given way).
    const records = new Map([...this.records].map(([t, ids]) => [t, { size: ids.size, text: [...ids].map((id) => `${KEYED_TYPES[t].prefix}-${id}`).join(' ') }]));
    const value = () => [...[...families].map((t) => KEYED_TYPES[t].family), ...[...records.values()].map((r) => r.text)].join(' ');
    let text = value();
    while (text.length > maxBytes && records.size) {
      // The kind with the most records gives way to its family key.
      const [largest] = [...records].reduce((a, b) => (b[1].size > a[1].size ? b : a));
      records.delete(largest);
      families.add(largest);
      text = value();
    }
    return text;
  }
}
