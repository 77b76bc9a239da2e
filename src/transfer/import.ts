/**
 * `npm run cal -- import`: from another calendar's REST API (`--from`) or from an export file
 * (`--file`). Every record goes through the transfer services (src/transfer/restore.ts) in one
 * transaction with its mapping row, so an interrupted run resumes without duplicates and a second
 * run finds every record unchanged.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Context } from '../services/context.ts';
import type { PostKind } from '../db/tables.ts';
import { transactionScoped } from '../db/transactions.ts';
import { trashEvent } from '../services/events.ts';
import { trashLinkedPost } from '../services/linked-posts.ts';
import { deleteTerm } from '../services/terms.ts';
import { restoreUpload } from '../services/uploads.ts';
import {
  createPosts,
  importImage,
  restoreAttachment,
  restoreEventParent,
  restoreOccurrence,
  restorePost,
  restoreTerm,
  restoreUser,
  type EventRecord,
  type OccurrenceRecord,
  type OrganizerRecord,
  type TermRecord,
  type AttachmentRecord,
  type UserRecord,
  type VenueRecord,
} from './restore.ts';
import { mapEvent, mapOrganizer, mapTerm, mapVenue, type Mapped } from './map.ts';
import type { Progress } from './progress.ts';
import { discoverEventsRoot } from './discover.ts';
import { PER_PAGE, Source, type SourceOptions } from './source.ts';

export const KINDS = ['categories', 'tags', 'venues', 'organizers', 'events'] as const;
type Kind = (typeof KINDS)[number];
interface Counts {
  created: number;
  updated: number;
  unchanged: number;
  skipped: number;
  failed: number;
}
export interface Summary {
  kinds: Record<Kind, Counts>;
  failures: { kind: string; id: number | null; reason: string }[];
  authors: Record<string, string>;
  images: { imported: number; failed: number };
  pruned: number;
  seconds: number;
  /** Seconds spent waiting for the source (HTTP only). */
  sourceSeconds?: number;
  rate: number;
  /** iCalendar feeds: what was read other than as written, or left out, and why (UID when known). */
  repairs?: { uid: string | null; note: string }[];
}

/** A summary with every count at zero (each import, from a site, a file or a feed, starts from it). */
export function emptySummary(): Summary {
  const zero = (): Counts => ({ created: 0, updated: 0, unchanged: 0, skipped: 0, failed: 0 });
  return {
    kinds: Object.fromEntries(KINDS.map((k) => [k, zero()])) as Record<Kind, Counts>,
    failures: [],
    authors: {},
    images: { imported: 0, failed: 0 },
    pruned: 0,
    seconds: 0,
    rate: 0,
  };
}

export interface ImportOptions {
  from?: string;
  file?: string;
  login?: string;
  password?: string;
  /** Local login that receives records whose author cannot be matched (default: the first administrator). */
  author?: string;
  prune?: boolean;
  dryRun?: boolean;
  source?: Partial<SourceOptions>;
  /** Most IDs probed for events hidden from listings (gaps between the IDs the lists show). */
  probeLimit?: number;
}

const SINGULAR: Record<Kind, string> = { categories: 'category', tags: 'tag', venues: 'venue', organizers: 'organizer', events: 'event' };
const POST_KIND: Partial<Record<Kind, PostKind>> = { venues: 'VENUE', organizers: 'ORGANIZER', events: 'EVENT' };
const ALL_STATUSES = 'publish,future,draft,pending,private,trash';

const digest = (value: unknown) => createHash('sha256').update(JSON.stringify(value)).digest('hex');

/** `list[index]`, for an index taken from `list` (createPosts answers indices into its input). */
function item<T>(list: readonly T[], index: number): T {
  const value = list[index];
  if (value === undefined) throw new Error(`No item ${index} in a list of ${list.length}`);
  return value;
}

/**
 * Why a record failed, never empty: the first line of the error's message; for a database error
 * (Prisma's messages open with a blank line and "Invalid `…` invocation", the cause comes last) its
 * last line; else its code or name.
 */
export function reasonOf(error: unknown): string {
  const e = (typeof error === 'object' && error !== null ? error : {}) as { message?: unknown; code?: unknown; name?: unknown };
  const message = typeof e.message === 'string' ? e.message : typeof error === 'string' ? error : '';
  const lines = message.split('\n').map((l) => l.trim()).filter(Boolean);
  const code = typeof e.code === 'string' && e.code ? e.code : '';
  const [first] = lines;
  if (first !== undefined) {
    const line = /^Invalid `.*` invocation/.test(first) ? (lines.at(-1) ?? first) : first;
    return code && !line.includes(code) ? `${line} (${code})` : line;
  }
  if (code) return code;
  if (typeof e.name === 'string' && e.name && e.name !== 'Error') return e.name;
  const text = error === undefined || error === null || error instanceof Error ? '' : String(error);
  return text && text !== '[object Object]' ? text : 'unknown error (no message)';
}

class Importer {
  readonly summary: Summary;
  /** `kind:sourceId` → local ID and digest, for this source. */
  private readonly map = new Map<string, { localId: number; hash: string }>();
  private readonly users = new Map<number, number>();
  private defaultAuthor = 0;
  private readonly started = Date.now();
  private readonly seen = new Map<Kind, Set<number>>(KINDS.map((k) => [k, new Set()]));

  constructor(
    private readonly ctx: Context,
    private readonly sourceKey: string,
    private readonly opts: ImportOptions,
    private readonly progress: Progress,
  ) {
    this.summary = emptySummary();
  }

  async init() {
    await this.loadMappings();
    await this.resolveOwner(true);
  }

  async loadMappings() {
    const rows = await this.ctx.prisma.transferMapping.findMany({ where: { source: this.sourceKey } });
    for (const r of rows) this.map.set(`${r.kind}:${r.sourceId}`, { localId: r.localId, hash: r.hash });
  }

  /**
   * The account that receives records whose author is unknown here: `--author`/`--owner`, else the
   * first administrator. `required`: none is an error (an import acts as it); else (a restore,
   * whose file brings its own accounts) such records keep no author.
   */
  async resolveOwner(required: boolean) {
    const fallback = this.opts.author
      ? await this.ctx.prisma.user.findUnique({ where: { login: this.opts.author }, select: { id: true, login: true } })
      : await this.ctx.prisma.user.findFirst({ where: { role: 'ADMINISTRATOR' }, orderBy: { id: 'asc' }, select: { id: true, login: true } });
    if (!fallback) {
      if (this.opts.author) throw new Error(`no user has the login "${this.opts.author}" here${required ? '' : ' or in the export'}`);
      if (required) throw new Error('no local administrator to own the imported records; create one first (npm run cal -- user:create … --role administrator) or name one with --author');
      return;
    }
    this.defaultAuthor = fallback.id;
    this.summary.authors['*'] = fallback.login;
    // Image imports and the services act as that administrator.
    if (required) this.ctx.viewer = { id: fallback.id, login: fallback.login, role: 'ADMINISTRATOR' };
  }

  local(kind: string, sourceId: number | null | undefined): number | null {
    return sourceId ? (this.map.get(`${kind}:${sourceId}`)?.localId ?? null) : null;
  }

  fail(kind: Kind | string, id: number | null, error: unknown) {
    if ((KINDS as readonly string[]).includes(kind)) this.summary.kinds[kind as Kind].failed++;
    this.summary.failures.push({ kind: SINGULAR[kind as Kind] ?? kind, id, reason: reasonOf(error) });
  }

  /** Writes one record and its mapping row together; counts the outcome. */
  async apply<R>(kind: Kind, sourceId: number, record: R, write: (ctx: Context, localId: number | null) => Promise<{ id: number; action: 'created' | 'updated' }>) {
    this.seen.get(kind)!.add(sourceId);
    const key = `${SINGULAR[kind]}:${sourceId}`;
    const hash = digest(record);
    const known = this.map.get(key);
    const counts = this.summary.kinds[kind];
    try {
      if (known && known.hash === hash && (await this.exists(kind, known.localId))) return void counts.unchanged++;
      if (this.opts.dryRun) {
        counts[known ? 'updated' : 'created']++;
        return;
      }
      const result = await this.ctx.prisma.$transaction(async (tx) => {
        const ctx = { ...this.ctx, prisma: transactionScoped(this.ctx.prisma, tx) };
        const written = await write(ctx, known?.localId ?? null);
        await tx.transferMapping.upsert({
          where: { source_kind_sourceId: { source: this.sourceKey, kind: SINGULAR[kind], sourceId } },
          create: { source: this.sourceKey, kind: SINGULAR[kind], sourceId, localId: written.id, hash },
          update: { localId: written.id, hash },
        });
        return written;
      }, { timeout: 60_000 });
      this.map.set(key, { localId: result.id, hash });
      counts[result.action]++;
    } catch (error) {
      this.fail(kind, sourceId, error);
    } finally {
      this.progress.tick(kind);
    }
  }

  private async exists(kind: Kind, id: number) {
    return (await this.existing(kind, [id])).has(id);
  }

  /** Which of these local IDs hold a record of the kind (one query). */
  private async existing(kind: Kind, ids: number[]): Promise<Set<number>> {
    const p = this.ctx.prisma;
    const args = { where: { id: { in: ids } }, select: { id: true } };
    const rows =
      kind === 'categories'
        ? await p.category.findMany(args)
        : kind === 'tags'
          ? await p.tag.findMany(args)
          : kind === 'venues'
            ? await p.venue.findMany(args)
            : kind === 'organizers'
              ? await p.organizer.findMany(args)
              : await p.event.findMany(args);
    return new Set(rows.map((r) => r.id));
  }

  /** The local author of a source user; a restore keeps "no author" as it is. */
  author(sourceId: number | null): number | null {
    if (sourceId === null && this.sourceKey === 'file') return null;
    return (sourceId && this.users.get(sourceId)) || this.defaultAuthor || null;
  }

  /** Categories parents first (a parent not in the list is dropped). */
  async terms(kind: 'categories' | 'tags', items: Mapped<TermRecord>[]) {
    const taxonomy = kind === 'categories' ? 'CATEGORY' : 'TAG';
    const byId = new Map(items.map((i) => [i.sourceId, i]));
    const depth = (i: Mapped<TermRecord>, n = 0): number => {
      const parent = i.record.parentId ? byId.get(i.record.parentId) : undefined;
      return parent && n < 100 ? depth(parent, n + 1) + 1 : 0;
    };
    const ordered = [...items].sort((a, b) => depth(a) - depth(b) || a.sourceId - b.sourceId);
    for (const item of ordered) {
      await this.apply(kind, item.sourceId, item.record, (ctx, localId) =>
        restoreTerm(ctx, taxonomy, localId, item.sourceId, { ...item.record, parentId: this.local('category', item.record.parentId) }),
      );
    }
  }

  /** Image URLs that failed in this run: not tried again for the next record using them. */
  private readonly failedImages = new Set<string>();

  async image(kind: Kind, m: Mapped<unknown>): Promise<number | null> {
    if (!m.image) return null;
    const known = this.local('image', m.image.id);
    if (known) return known;
    if (this.opts.dryRun || this.failedImages.has(m.image.url)) return null;
    try {
      const id = await importImage(this.ctx, m.image.url, m.image.id || null);
      this.summary.images.imported++;
      if (m.image.id) {
        await this.ctx.prisma.transferMapping.upsert({
          where: { source_kind_sourceId: { source: this.sourceKey, kind: 'image', sourceId: m.image.id } },
          create: { source: this.sourceKey, kind: 'image', sourceId: m.image.id, localId: id, hash: '' },
          update: { localId: id },
        });
        this.map.set(`image:${m.image.id}`, { localId: id, hash: '' });
      }
      return id;
    } catch (error) {
      this.summary.images.failed++;
      this.failedImages.add(m.image.url);
      this.summary.failures.push({ kind: `${SINGULAR[kind]} image`, id: m.sourceId, reason: `${m.image.url}: ${reasonOf(error)}` });
      return null;
    }
  }

  /**
   * A page of events, venues or organizers. Unchanged records are found with one query; new ones
   * are created together in one transaction with their mapping rows (createPosts); the rest
   * (changed records, and new ones createPosts leaves: ID or slug taken, invalid) one by one, each
   * with its mapping row, so a bad record is reported alone. `localImage`: the local attachment
   * already known (file restores), else the source image is imported.
   */
  async posts(kind: 'venues' | 'organizers' | 'events', page: { m: Mapped<PostInput>; localImage?: number | null }[]) {
    const counts = this.summary.kinds[kind];
    const entries: { sourceId: number; key: string; hash: string; digested: unknown; build: () => EventRecord | VenueRecord | OrganizerRecord }[] = [];
    for (const { m, localImage } of page) {
      const imageId = localImage !== undefined ? localImage : await this.image(kind, m);
      const record = { ...m.record };
      // The digest covers the source record (with its source references), so it is stable across runs.
      // An image that could not be imported this time marks the digest, so the run that imports it
      // updates the record (else it would find the record "unchanged" and leave it without).
      const digested = { ...record, author: m.author, image: m.image?.url ?? null, ...(m.image && imageId === null ? { imageMissing: true } : {}) };
      const build = () => {
        const local = { ...record, authorId: this.author(m.author), imageId };
        if (kind === 'events') {
          const e = local as EventRecord;
          e.venueIds = e.venueIds.map((id) => this.local('venue', id)).filter((id): id is number => !!id);
          e.organizerIds = e.organizerIds.map((id) => this.local('organizer', id)).filter((id): id is number => !!id);
          e.categoryIds = e.categoryIds.map((id) => this.local('category', id)).filter((id): id is number => !!id);
          e.tagIds = e.tagIds.map((id) => this.local('tag', id)).filter((id): id is number => !!id);
        }
        return local;
      };
      entries.push({ sourceId: m.sourceId, key: `${SINGULAR[kind]}:${m.sourceId}`, hash: digest(digested), digested, build });
    }
    const same = entries.filter((e) => this.map.get(e.key)?.hash === e.hash);
    const present = same.length ? await this.existing(kind, same.map((e) => this.map.get(e.key)!.localId)) : new Set<number>();
    const todo = entries.filter((e) => {
      const known = this.map.get(e.key);
      if (!known || known.hash !== e.hash || !present.has(known.localId)) return true;
      this.seen.get(kind)!.add(e.sourceId);
      counts.unchanged++;
      this.progress.tick(kind);
      return false;
    });
    let single = todo;
    const fresh = todo.filter((e) => !this.map.has(e.key));
    if (!this.opts.dryRun && fresh.length > 1) {
      try {
        const done = await this.ctx.prisma.$transaction(
          async (tx) => {
            const ctx = { ...this.ctx, prisma: transactionScoped(this.ctx.prisma, tx) };
            const r = await createPosts(ctx, POST_KIND[kind]!, fresh.map((e) => ({ preferredId: e.sourceId, record: e.build() })));
            await tx.transferMapping.createMany({
              data: r.created.map(({ index, id }) => ({ source: this.sourceKey, kind: SINGULAR[kind], sourceId: item(fresh, index).sourceId, localId: id, hash: item(fresh, index).hash })),
            });
            return r;
          },
          { timeout: 120_000 },
        );
        for (const { index, id } of done.created) {
          const e = item(fresh, index);
          this.seen.get(kind)!.add(e.sourceId);
          this.map.set(e.key, { localId: id, hash: e.hash });
          counts.created++;
          this.progress.tick(kind);
        }
        const left = new Set(done.rest.map((i) => fresh[i]));
        single = todo.filter((e) => !fresh.includes(e) || left.has(e));
      } catch {
        // Settled one by one below, where each error is reported with its record.
      }
    }
    for (const e of single) {
      await this.apply(kind, e.sourceId, e.digested, (ctx, localId) => restorePost(ctx, POST_KIND[kind]!, localId, e.sourceId, e.build()));
    }
  }

  /** `--prune`: local records imported from this source earlier that the source no longer lists. */
  async prune() {
    for (const kind of [...KINDS].reverse()) {
      const seen = this.seen.get(kind)!;
      for (const [key, { localId }] of this.map) {
        const [k, id] = key.split(':');
        if (k !== SINGULAR[kind] || seen.has(Number(id))) continue;
        try {
          if (this.opts.dryRun) continue;
          if (kind === 'events') await trashEvent(this.ctx, { id: localId });
          else if (kind === 'venues' || kind === 'organizers') await trashLinkedPost(this.ctx, POST_KIND[kind] as 'VENUE', { id: localId });
          else await deleteTerm(this.ctx, kind === 'categories' ? 'CATEGORY' : 'TAG', localId);
          await this.ctx.prisma.transferMapping.delete({ where: { source_kind_sourceId: { source: this.sourceKey, kind: k, sourceId: Number(id) } } });
          this.summary.pruned++;
        } catch (error) {
          // Already trashed or gone: nothing to prune.
          if (!/already trashed|No \w+ has the ID/.test((error as Error).message)) this.fail(kind, Number(id), error);
        }
      }
    }
  }

  finish(): Summary {
    const seconds = (Date.now() - this.started) / 1000;
    const total = KINDS.reduce((n, k) => n + Object.values(this.summary.kinds[k]).reduce((a, b) => a + b, 0), 0);
    this.summary.seconds = Math.round(seconds * 10) / 10;
    this.summary.rate = Math.round(total / Math.max(seconds, 0.001));
    return this.summary;
  }

  remember(kind: string, sourceId: number, localId: number) {
    this.map.set(`${kind}:${sourceId}`, { localId, hash: '' });
  }

  setUser(sourceId: number, localId: number, login: string) {
    this.users.set(sourceId, localId);
    this.summary.authors[String(sourceId)] = login;
  }
}

/** Imports from another calendar's REST root. */
export async function importFromSource(ctx: Context, opts: ImportOptions, progress: Progress): Promise<Summary> {
  const sourceOptions = {
    login: opts.login,
    password: opts.password,
    ...opts.source,
    onRetry: (url: string, reason: string, ms: number) => progress.note(`retrying ${url} (${reason}) in ${Math.round(ms)} ms`),
  };
  // `--from` may name the site (its home page) rather than its events REST root.
  const root = await discoverEventsRoot(opts.from!, new Source({ ...sourceOptions, root: opts.from! }));
  const source = new Source({ ...sourceOptions, root });
  try {
    return await importFrom(ctx, source, opts, progress);
  } finally {
    source.close();
    progress.stop();
  }
}

async function importFrom(ctx: Context, source: Source, opts: ImportOptions, progress: Progress): Promise<Summary> {
  const imp = new Importer(ctx, source.key, opts, progress);
  await imp.init();
  const authed = opts.login !== undefined;
  await mapUsers(ctx, source, imp);
  const site = { symbol: ctx.settings.currencySymbol, position: ctx.settings.currencyPosition };

  const collect = async <T>(kind: Kind, path: string, params: Record<string, string | number>, map: (o: Record<string, unknown>) => Mapped<T>, each?: (page: Mapped<T>[]) => Promise<void>) => {
    const all: Mapped<T>[] = [];
    progress.start(kind, 0);
    const list = source.list(path, kind, params, (total) => progress.total(kind, total));
    for await (const page of list) {
      const mapped: Mapped<T>[] = [];
      for (const raw of page) {
        try {
          mapped.push(map(raw));
        } catch (error) {
          imp.fail(kind, Number((raw as { id?: number }).id) || null, error);
          progress.tick(kind);
        }
      }
      if (each) await each(mapped);
      else all.push(...mapped);
    }
    return all;
  };
  // Signed in: every status, and password-protected records in full (`context=edit` unlocks them
  // for a caller who may edit them; without it they arrive redacted).
  const statusParam: Record<string, string> = authed ? { status: ALL_STATUSES, context: 'edit' } : {};
  await imp.terms('categories', await collect('categories', '/categories', { hide_empty: 'false' }, mapTerm));
  await imp.terms('tags', await collect('tags', '/tags', { hide_empty: 'false' }, mapTerm));
  const postIds = new Set<number>();
  const listed = <T>(page: Mapped<T>[]) => {
    for (const m of page) {
      postIds.add(m.sourceId);
      if (m.image?.id) postIds.add(m.image.id);
    }
    return page.map((m) => ({ m }));
  };
  const passwords = authed && source.isTec ? await postPasswords(source) : new Map<number, string>();
  const locked = <R extends { password: string }>(m: Mapped<R>): Mapped<R> => {
    const password = passwords.get(m.sourceId);
    return password ? { ...m, record: { ...m.record, password } } : m;
  };
  for (const kind of ['venues', 'organizers'] as const) {
    await collect(kind, `/${kind}`, statusParam, (o): Mapped<VenueRecord | OrganizerRecord> => (kind === 'venues' ? locked(mapVenue(o)) : locked(mapOrganizer(o))), (page) => imp.posts(kind, listed(page)));
  }
  const eventParams = { ...statusParam, start_date: '1900-01-01 00:00:00', end_date: '2999-12-31 23:59:59' };
  await collect('events', '/events', eventParams, (o) => locked(mapEvent(o, site)), (page) => imp.posts('events', listed(page)));
  // Events hidden from listings appear in no list: probe the IDs between the ones seen, as many
  // at once as pages are fetched.
  const max = Math.max(0, ...postIds);
  const probe: number[] = [];
  for (let id = 1; id <= max + 50 && probe.length < (opts.probeLimit ?? 2000); id++) if (!postIds.has(id)) probe.push(id);
  const hidden: { m: Mapped<EventRecord> }[] = [];
  let next = 0;
  const worker = async () => {
    while (next < probe.length) {
      const id = probe[next++];
      if (id === undefined) break;
      const res = await source.get(source.url(`/events/${id}`, authed ? { context: 'edit' } : {}));
      if (res.status !== 200) continue;
      try {
        hidden.push({ m: locked(mapEvent(res.body as Record<string, unknown>, site)) });
      } catch (error) {
        imp.fail('events', id, error);
      }
    }
  };
  await Promise.all(Array.from({ length: source.concurrency }, worker));
  hidden.sort((a, b) => a.m.sourceId - b.m.sourceId);
  for (let i = 0; i < hidden.length; i += PER_PAGE) await imp.posts('events', hidden.slice(i, i + PER_PAGE));
  if (opts.prune) await imp.prune();
  return { ...imp.finish(), sourceSeconds: Math.round(source.requestMs / 100) / 10 };
}

/**
 * Post passwords by post ID: the plugin's REST API never shows them, WordPress's own does
 * (`wp/v2/<post type>?context=edit`, to a caller who may edit the posts), so a protected event,
 * venue or organizer stays protected here. Empty for a post type the site's `wp/v2` does not serve.
 */
async function postPasswords(source: Source): Promise<Map<number, string>> {
  const found = new Map<number, string>();
  for (const type of ['tribe_events', 'tribe_venue', 'tribe_organizer']) {
    try {
      const pages = source.list(source.apiUrl(`/wp/v2/${type}`), type, { context: 'edit', status: ALL_STATUSES, _fields: 'id,password' });
      for await (const page of pages) {
        for (const p of page) if (typeof p.password === 'string' && p.password && Number(p.id) > 0) found.set(Number(p.id), p.password);
      }
    } catch {
      // Not served (or not to these credentials): those posts come over without a password.
    }
  }
  return found;
}

/**
 * Authors by login: WordPress's `wp/v2/users?context=edit` (with the credentials given), or a
 * cal-events source's GraphQL `users`, names each source user's login; a local user with that
 * login gets their records.
 */
async function mapUsers(ctx: Context, source: Source, imp: Importer) {
  try {
    let users: { id: number; username?: string; slug?: string }[] = [];
    if (source.isTec) {
      const res = await source.get(source.apiUrl('/wp/v2/users', { context: 'edit', per_page: 100 }));
      if (res.status === 200 && Array.isArray(res.body)) users = res.body;
    } else {
      const res = await source.graphql('{ users(perPage: 50) { ... on UserConnection { edges { node { databaseId login } } } } }');
      const edges = (res.body as { data?: { users?: { edges?: { node: { databaseId: number; login: string } }[] } } })?.data?.users?.edges ?? [];
      users = edges.map((e) => ({ id: e.node.databaseId, username: e.node.login }));
    }
    for (const u of users) {
      const login = u.username ?? u.slug;
      if (!login) continue;
      const local = await ctx.prisma.user.findUnique({ where: { login }, select: { id: true } });
      if (local) imp.setUser(u.id, local.id, login);
    }
  } catch {
    // No user list: every record goes to the default author.
  }
}

/** A post as handed to `posts()`: its author travels as `Mapped.author`, resolved when it is built. */
type PostInput = Omit<EventRecord, 'authorId'> | Omit<VenueRecord, 'authorId'> | Omit<OrganizerRecord, 'authorId'>;

/** One line of an export file (src/transfer/export.ts writes them), by `kind`; `kind: null` for any other line. */
type ExportLine =
  | { kind: 'meta'; id: number; format: string; version: number }
  | ({ kind: 'user'; id: number } & UserRecord)
  | ({ kind: 'upload'; id?: undefined } & Parameters<typeof restoreUpload>[1])
  | ({ kind: 'attachment'; id: number } & AttachmentRecord)
  | ({ kind: 'category' | 'tag'; id: number } & TermRecord)
  | ({ kind: 'venue'; id: number; occurrence?: undefined } & VenueRecord)
  | ({ kind: 'organizer'; id: number; occurrence?: undefined } & OrganizerRecord)
  | ({ kind: 'event'; id: number; occurrence: OccurrenceRecord | null } & EventRecord)
  | { kind: null; rawKind: unknown };

const LINE_KINDS: ReadonlySet<unknown> = new Set(['meta', 'user', 'upload', 'attachment', 'category', 'tag', 'venue', 'organizer', 'event']);

/** Parses one line (throws when it is not JSON); its fields are checked by the restore functions. */
function readExportLine(line: string): ExportLine {
  const value: unknown = JSON.parse(line);
  const kind = typeof value === 'object' && value !== null ? (value as { kind?: unknown }).kind : undefined;
  return LINE_KINDS.has(kind) ? (value as ExportLine) : { kind: null, rawKind: kind };
}

/** A line's record: its fields but `kind` and `id`. */
function fieldsOf<L extends { kind: string; id?: number }>(row: L): Omit<L, 'kind' | 'id'> {
  const { kind: _kind, id: _id, ...fields } = row;
  return fields;
}

/**
 * Restores an export file (`cal -- export`): same IDs, slugs, dates, links, series, accounts and
 * image files when the database is empty. The file brings its own accounts (first in it), so an
 * empty database needs none: records go to their restored authors.
 */
export async function importFromFile(ctx: Context, opts: ImportOptions, progress: Progress): Promise<Summary> {
  const imp = new Importer(ctx, 'file', opts, progress);
  await imp.loadMappings();
  let owner = false;
  const resolveOwner = async () => {
    if (!owner) await imp.resolveOwner(false);
    owner = true;
  };
  const lines = createInterface({ input: createReadStream(opts.file!, 'utf8'), crlfDelay: Infinity });
  const categories: Mapped<TermRecord>[] = [];
  const parents: { id: number; parent: number }[] = [];
  const occurrences: { id: number; record: OccurrenceRecord }[] = [];
  for (const kind of KINDS) progress.start(kind, 0);
  let n = 0;
  for await (const line of lines) {
    n++;
    if (!line.trim()) continue;
    let row: ExportLine;
    try {
      row = readExportLine(line);
    } catch {
      imp.fail('line', n, new Error('not JSON'));
      continue;
    }
    const kind = row.kind ?? row.rawKind;
    const id = row.kind === null ? undefined : row.id;
    // The accounts come first in an export: the owner is known once they are restored (or refused: stop).
    if (kind !== 'meta' && kind !== 'user') await resolveOwner();
    try {
      if (row.kind === 'meta') continue;
      if (row.kind === 'user') {
        if (opts.dryRun) continue;
        const record = fieldsOf(row);
        const w = await restoreUser(ctx, row.id, record);
        imp.setUser(row.id, w.id, record.login);
      } else if (row.kind === 'upload') {
        if (!opts.dryRun) await restoreUpload(ctx, fieldsOf(row));
      } else if (row.kind === 'attachment') {
        if (opts.dryRun) continue;
        const record = fieldsOf(row);
        const w = await restoreAttachment(ctx, imp.local('image', row.id), row.id, { ...record, authorId: imp.author(record.authorId) });
        await ctx.prisma.transferMapping.upsert({
          where: { source_kind_sourceId: { source: 'file', kind: 'image', sourceId: row.id } },
          create: { source: 'file', kind: 'image', sourceId: row.id, localId: w.id, hash: '' },
          update: { localId: w.id },
        });
        imp.remember('image', row.id, w.id);
      } else if (row.kind === 'category' || row.kind === 'tag') {
        const record = fieldsOf(row);
        if (row.kind === 'category') categories.push({ sourceId: row.id, author: null, image: null, record });
        else await imp.terms('tags', [{ sourceId: row.id, author: null, image: null, record }]);
      } else if (row.kind === 'event') {
        if (categories.length) await imp.terms('categories', categories.splice(0));
        const { authorId, imageId, occurrence, ...rest } = fieldsOf(row);
        if (rest.parentId) parents.push({ id: row.id, parent: rest.parentId });
        if (occurrence) occurrences.push({ id: row.id, record: occurrence });
        const image = imageId ? imp.local('image', imageId) : null;
        await imp.posts('events', [{ m: { sourceId: row.id, author: authorId, image: null, record: { ...rest, parentId: null, imageId } }, localImage: image }]);
      } else if (row.kind === 'venue' || row.kind === 'organizer') {
        if (categories.length) await imp.terms('categories', categories.splice(0));
        const plural = `${row.kind}s` as const;
        const { authorId, imageId, occurrence: _occurrence, ...rest } = row.kind === 'venue' ? fieldsOf(row) : fieldsOf(row);
        const image = imageId ? imp.local('image', imageId) : null;
        await imp.posts(plural, [{ m: { sourceId: row.id, author: authorId, image: null, record: { ...rest, imageId } }, localImage: image }]);
      } else {
        imp.fail('line', n, new Error(`unknown kind "${String(kind)}"`));
      }
    } catch (error) {
      imp.fail(String(kind), id ?? null, error);
    }
  }
  await resolveOwner();
  if (categories.length) await imp.terms('categories', categories);
  // Parents and series once every event exists (an occurrence may precede its series in ID order).
  for (const p of parents) {
    const local = imp.local('event', p.id);
    if (local && !opts.dryRun) await restoreEventParent(ctx, local, imp.local('event', p.parent));
  }
  for (const o of occurrences) {
    const local = imp.local('event', o.id);
    const series = imp.local('event', o.record.seriesId);
    if (!local || opts.dryRun) continue;
    try {
      if (!series) throw new Error(`its series ${o.record.seriesId} was not restored`);
      await restoreOccurrence(ctx, local, series, o.record);
    } catch (error) {
      imp.fail('events', o.id, error);
    }
  }
  progress.stop();
  return imp.finish();
}
