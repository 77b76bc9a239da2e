/**
 * Presented records: the encoded REST form of each event a list page showed, kept
 * so that the next page that shows it (another page number, another filter, the same page once the
 * byte cache let it go) asks the core only which events it lists, not for all their fields again.
 * A list page that finds all its events here costs one small GraphQL operation, the envelope and the
 * copy of the kept texts (`RawJson`): no resolution of ~150 fields per event, no presentation, no
 * encoding of the records.
 *
 * Exact, like the response cache it is layered on: an entry is stored under the response cache's
 * validity (src/server/response-cache.ts `validity()`: this process's generation, moved by every
 * change on the change bus, and on PostgreSQL the generation every write moves before it is
 * answered) read before the record was fetched, and served only while that value is unchanged. So a
 * committed write, from any process, makes the next page present every record anew. A change made
 * behind the service's back (in the database by hand) is seen once the entry expires
 * (`CAL_PRESENTED_TTL_S`), as for the byte cache.
 *
 * Only anonymous reads use it (one visibility class; a signed-in caller may see a record redacted
 * otherwise), and the scope of an entry is the site URLs its links were written with (host, language).
 * An entry keeps the surrogate keys its record was read with, replayed into the page that shows it.
 */
import { LRUCache } from 'lru-cache';
import type { SurrogateKeys } from '../../src/domain/surrogate-keys.ts';
import { encodeJson, RawJson } from '../wp/response.ts';
import type { JsonObject } from './util.ts';

/** The validity source (the response cache) and its clearing (entries of older values are then dropped). */
export interface PresentedValidity {
  validity(): string | Promise<string | null>;
  onClear(listener: () => void): void;
}

interface Entry {
  json: RawJson;
  /** The surrogate keys the record was read with (its edge of the operation that listed it). */
  keys: SurrogateKeys | undefined;
}

export class PresentedRecords {
  private readonly lru: LRUCache<string, Entry>;
  private readonly validity: PresentedValidity;
  /** The validities and scopes entries were stored under since the last clearing (a page of another one expects none). */
  private readonly stored = new Set<string>();
  /** Records a page took from here, and records it looked for and had to fetch. */
  hits = 0;
  misses = 0;

  constructor(opts: { ttlS: number; maxBytes: number; validity: PresentedValidity }) {
    this.lru = new LRUCache<string, Entry>({
      ttl: opts.ttlS * 1000,
      maxSize: opts.maxBytes,
      sizeCalculation: (entry, key) => key.length + entry.json.bytes.length,
    });
    this.validity = opts.validity;
    opts.validity.onClear(() => {
      this.lru.clear();
      this.stored.clear();
    });
  }

  /**
   * The records of one page: read the validity now, before anything the page fetches. Null when
   * it cannot be read (PostgreSQL unreachable for the generation): then nothing is kept or served.
   */
  async open(kind: string, scope: string): Promise<PresentedPage | null> {
    const pending = this.validity.validity();
    const validity = typeof pending === 'string' ? pending : await pending;
    return validity === null ? null : new PresentedPage(this, `${validity}\n${kind}\n${scope}\n`);
  }

  /** @internal */ get(key: string): Entry | undefined {
    return this.lru.get(key);
  }

  /** @internal */ set(prefix: string, key: string, entry: Entry): void {
    this.lru.set(key, entry);
    // Validities of other processes' writes (PostgreSQL) come without a clearing here: kept few.
    if (this.stored.size >= 64) this.stored.clear();
    this.stored.add(prefix);
  }

  /** @internal */ storedUnder(prefix: string): boolean {
    return this.stored.has(prefix);
  }
}

/** The entries one page may use: those stored under the validity it read and its scope. */
export class PresentedPage {
  private readonly records: PresentedRecords;
  private readonly prefix: string;
  /** The keys of the entries this page took. */
  private readonly taken = new Set<SurrogateKeys>();

  constructor(records: PresentedRecords, prefix: string) {
    this.records = records;
    this.prefix = prefix;
  }

  /**
   * Whether records of this validity and scope were stored: if not (the first page after a write,
   * or after a start), the page is fetched whole in one operation rather than as IDs first.
   */
  get warm(): boolean {
    return this.records.storedUnder(this.prefix);
  }

  /** One record's presented form, if kept. */
  take(id: number): RawJson | undefined {
    const entry = this.records.get(this.prefix + id);
    if (!entry) {
      this.records.misses++;
      return undefined;
    }
    this.records.hits++;
    if (entry.keys) this.taken.add(entry.keys);
    return entry.json;
  }

  /** Keeps one record's presented form, encoded, with the keys it was read with. */
  keep(id: number, presented: JsonObject, keys: SurrogateKeys | undefined): RawJson {
    const raw = new RawJson(encodeJson(presented));
    this.records.set(this.prefix, this.prefix + id, { json: raw, keys });
    return raw;
  }

  /** Adds the surrogate keys of the records taken to the request's (the records kept reached it as they were read). */
  replayKeys(into: SurrogateKeys | undefined): void {
    if (into) for (const keys of this.taken) into.addAll(keys);
  }
}
