import type { Prisma, Taxonomy } from '../../prisma/generated/client/client.ts';
import type { Context } from '../services/context.ts';
import { postTable, termTable, type LinkedKind, type PostKind } from '../db/tables.ts';
import type { TransactionClient } from '../db/transactions.ts';
import { ALL_STATUSES, type Status } from '../domain/capabilities.ts';
import { ForbiddenError, ValidationError } from '../domain/errors.ts';
import { parseSeriesRule } from '../domain/recurrence.ts';
import { resolveTimezone } from '../domain/timezone.ts';
import { wallClockToDate } from '../domain/wall-clock.ts';
import { requireViewer } from '../services/authz.ts';
import { importImageFromUrl } from '../services/image-import.ts';
import { claimSlug, type SlugKind } from '../services/slugs.ts';

/**
 * Writing records as they are elsewhere (an import from another calendar, a restore from an
 * export): unlike the create/update services, the record keeps its ID when the local ID space
 * allows it, and its slug, status, author and publication/modification dates as given. The
 * record's own rules still apply (status, time zone, dates, unique slugs, term hierarchy), and
 * term counts follow through the database triggers. Administrators only.
 */

/** Naive wall-clock or UTC timestamp as stored: `YYYY-MM-DD HH:MM:SS`. */
export type Stamp = string;

interface PostCommon {
  authorId: number | null;
  status: string;
  trashedFromStatus: string | null;
  slug: string | null;
  content: string;
  excerpt: string;
  password: string;
  dateUtc: Stamp | null;
  dateLocal: Stamp;
  /** Null: a draft never edited since it was created. */
  modifiedUtc: Stamp | null;
  modifiedLocal: Stamp;
  imageId: number | null;
}

export interface EventRecord extends PostCommon {
  title: string;
  startLocal: Stamp;
  endLocal: Stamp;
  startUtc: Stamp;
  endUtc: Stamp;
  timezone: string;
  allDay: boolean;
  cost: string[];
  currencySymbol: string;
  currencyPosition: string;
  currencyCode: string;
  website: string | null;
  showMap: boolean | null;
  showMapLink: boolean | null;
  hideFromListings: boolean;
  sticky: boolean;
  featured: boolean;
  parentId: number | null;
  venueIds: number[];
  organizerIds: number[];
  categoryIds: number[];
  tagIds: number[];
  /** A recurring series' rules and dates, event-local (export files); absent: left as they are. */
  recurrenceRules?: string[];
  /** The single rule of exports written before a series could have several. */
  recurrenceRule?: string | null;
  recurrenceStart?: Stamp | null;
  recurrenceRdates?: Stamp[];
  recurrenceExdates?: Stamp[];
  materializedUntil?: Stamp | null;
  materializedFrom?: Stamp | null;
}

/** An event's place in a recurring series (export files): its series, the slot the rule gave it, and its own dates. */
export interface OccurrenceRecord {
  seriesId: number;
  recurrenceLocal: Stamp;
  startLocal: Stamp;
  endLocal: Stamp;
  startUtc: Stamp;
  endUtc: Stamp;
  overridden: boolean;
}

export interface ApplicationPasswordRecord {
  uuid: string;
  name: string;
  hash: string;
  createdAt: string;
  lastUsedAt: string | null;
  lastIp: string | null;
}

export interface VenueRecord extends PostCommon {
  name: string;
  address: string;
  city: string;
  country: string;
  province: string;
  state: string;
  stateprovince: string;
  zip: string;
  phone: string;
  website: string;
  latitude: number | null;
  longitude: number | null;
  showMap: boolean | null;
  showMapLink: boolean | null;
}

export interface OrganizerRecord extends PostCommon {
  name: string;
  phone: string;
  website: string;
  email: string;
}

export interface TermRecord {
  name: string;
  slug: string;
  description: string;
  parentId: number | null;
}

export interface AttachmentRecord {
  authorId: number | null;
  title: string;
  url: string;
  sourceUrl: string | null;
  mimeType: string;
  width: number | null;
  height: number | null;
  filesize: number | null;
  sizes: Prisma.JsonValue;
  createdAt: string;
}

export interface UserRecord {
  login: string;
  email: string;
  displayName: string;
  role: string;
  createdAt: string;
  /** Absent: the account cannot sign in until its password is reset. */
  passwordHash?: string;
  /** Present in exports `--with-users`: replaces the account's application passwords. */
  applicationPasswords?: ApplicationPasswordRecord[];
}

export type Written = { id: number; action: 'created' | 'updated' };

/** Password hash of restored accounts exported without one: matches no password. */
const NO_PASSWORD = '!';

function requireAdmin(ctx: Context) {
  const viewer = requireViewer(ctx);
  if (viewer.role !== 'ADMINISTRATOR') throw new ForbiddenError('Only administrators may import records.', 'FORBIDDEN');
}

const STAMP = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

function stampDate(value: Stamp, field: string): Date {
  if (!STAMP.test(value)) throw new ValidationError(`Invalid ${field}: ${value}`, field, 'INVALID_DATE');
  const date = wallClockToDate(value);
  if (Number.isNaN(date.getTime())) throw new ValidationError(`Invalid ${field}: ${value}`, field, 'INVALID_DATE');
  return date;
}

/** A stored timestamp as the `Stamp` the records carry. */
export const toStamp = (date: Date) => date.toISOString().slice(0, 19).replace('T', ' ');

function status(value: string | null, field: string): Status | null {
  if (value === null) return null;
  if (!ALL_STATUSES.includes(value as Status)) throw new ValidationError(`Unknown ${field}: ${value}`, field, 'UNKNOWN_STATUS');
  return value as Status;
}

function commonData(r: PostCommon) {
  return {
    authorId: r.authorId,
    status: status(r.status, 'status')!,
    trashedFromStatus: status(r.trashedFromStatus, 'trashedFromStatus'),
    content: r.content,
    excerpt: r.excerpt,
    password: r.password,
    dateUtc: r.dateUtc === null ? null : stampDate(r.dateUtc, 'date_utc'),
    dateLocal: stampDate(r.dateLocal, 'date'),
    modifiedUtc: r.modifiedUtc === null ? null : stampDate(r.modifiedUtc, 'modified_utc'),
    modifiedLocal: stampDate(r.modifiedLocal, 'modified'),
    imageId: r.imageId,
  };
}

function eventData(r: EventRecord) {
  if (!r.title.trim()) throw new ValidationError('The title cannot be empty.', 'title', 'EMPTY');
  if (!resolveTimezone(r.timezone)) throw new ValidationError(`Unknown time zone: ${r.timezone}`, 'timezone', 'INVALID_TIMEZONE');
  const dates = {
    startLocal: stampDate(r.startLocal, 'start_date'),
    endLocal: stampDate(r.endLocal, 'end_date'),
    startUtc: stampDate(r.startUtc, 'utc_start_date'),
    endUtc: stampDate(r.endUtc, 'utc_end_date'),
  };
  if (dates.endUtc < dates.startUtc) throw new ValidationError('The event ends before it starts.', 'end_date', 'INVALID_DATE');
  return {
    ...recurrenceData(r),
    ...commonData(r),
    title: r.title,
    ...dates,
    timezone: r.timezone,
    allDay: r.allDay,
    cost: r.cost,
    currencySymbol: r.currencySymbol,
    currencyPosition: r.currencyPosition,
    currencyCode: r.currencyCode,
    website: r.website,
    showMap: r.showMap,
    showMapLink: r.showMapLink,
    hideFromListings: r.hideFromListings,
    sticky: r.sticky,
    featured: r.featured,
    parentId: r.parentId,
  };
}

/** The series columns as given (a rule the calendar cannot expand is refused), or nothing when absent. */
function recurrenceData(r: EventRecord) {
  if (r.recurrenceRules === undefined && r.recurrenceRule === undefined) return {};
  const rules = r.recurrenceRules ?? (r.recurrenceRule ? [r.recurrenceRule] : []);
  for (const rule of rules) parseSeriesRule(rule, r.timezone);
  const optional = (v: Stamp | null | undefined, field: string) => (v === null || v === undefined ? null : stampDate(v, field));
  return {
    recurrenceRules: rules,
    recurrenceStart: optional(r.recurrenceStart, 'recurrenceStart'),
    recurrenceRdates: (r.recurrenceRdates ?? []).map((d) => stampDate(d, 'recurrenceRdates')),
    recurrenceExdates: (r.recurrenceExdates ?? []).map((d) => stampDate(d, 'recurrenceExdates')),
    materializedUntil: optional(r.materializedUntil, 'materializedUntil'),
    materializedFrom: optional(r.materializedFrom, 'materializedFrom'),
  };
}

function requireName(kind: LinkedKind, r: VenueRecord | OrganizerRecord) {
  if (!r.name.trim()) throw new ValidationError(`The ${kind.toLowerCase()} name cannot be empty.`, kind.toLowerCase(), 'EMPTY');
}

function venueData(r: VenueRecord) {
  requireName('VENUE', r);
  if (r.latitude !== null && (r.latitude < -90 || r.latitude > 90)) throw new ValidationError('Latitude out of range.', 'latitude', 'OUT_OF_RANGE');
  if (r.longitude !== null && (r.longitude < -180 || r.longitude > 180)) throw new ValidationError('Longitude out of range.', 'longitude', 'OUT_OF_RANGE');
  const { name, address, city, country, province, state, stateprovince, zip, phone, website, latitude, longitude, showMap, showMapLink } = r;
  return { name, address, city, country, province, state, stateprovince, zip, phone, website, latitude, longitude, showMap, showMapLink, ...commonData(r) };
}

function organizerData(r: OrganizerRecord) {
  requireName('ORGANIZER', r);
  const { name, phone, website, email } = r;
  return { name, phone, website, email, ...commonData(r) };
}

/** A record's columns by kind: each kind is written to its own table, typed as that table's input. */
type PostColumns =
  | { kind: 'EVENT'; data: ReturnType<typeof eventData>; record: EventRecord }
  | { kind: 'VENUE'; data: ReturnType<typeof venueData> }
  | { kind: 'ORGANIZER'; data: ReturnType<typeof organizerData> };

/** The columns of `record` (of this kind), validated; throws ValidationError. */
function postColumns(kind: PostKind, record: EventRecord | VenueRecord | OrganizerRecord): PostColumns {
  if (kind === 'EVENT') return { kind, data: eventData(record as EventRecord), record: record as EventRecord };
  if (kind === 'VENUE') return { kind, data: venueData(record as VenueRecord) };
  return { kind, data: organizerData(record as OrganizerRecord) };
}

/** An event's links as nested writes (`replace`: the current ones are deleted first). */
function eventLinks(e: EventRecord, replace: boolean) {
  const reset = replace ? { deleteMany: {} } : {};
  return {
    venues: { ...reset, create: e.venueIds.map((venueId, position) => ({ venueId, position })) },
    organizers: { ...reset, create: e.organizerIds.map((organizerId, position) => ({ organizerId, position })) },
    // Ascending IDs: the count triggers lock terms in link order (see services/events.ts).
    categories: { ...reset, create: ascending(e.categoryIds).map((categoryId) => ({ categoryId })) },
    tags: { ...reset, create: ascending(e.tagIds).map((tagId) => ({ tagId })) },
  };
}

function updatePost(db: TransactionClient, id: number, c: PostColumns, slug: string | null): Promise<unknown> {
  switch (c.kind) {
    case 'EVENT':
      return db.event.update({ where: { id }, data: { ...c.data, slug, ...eventLinks(c.record, true) } });
    case 'VENUE':
      return db.venue.update({ where: { id }, data: { ...c.data, slug } });
    case 'ORGANIZER':
      return db.organizer.update({ where: { id }, data: { ...c.data, slug } });
  }
}

function createPost(db: TransactionClient, explicit: number | null, c: PostColumns, slug: string | null) {
  const id = explicit ? { id: explicit } : {};
  const select = { id: true } as const;
  switch (c.kind) {
    case 'EVENT':
      return db.post.create({ data: { ...id, type: c.kind, event: { create: { ...c.data, slug, ...eventLinks(c.record, false) } } }, select });
    case 'VENUE':
      return db.post.create({ data: { ...id, type: c.kind, venue: { create: { ...c.data, slug } } }, select });
    case 'ORGANIZER':
      return db.post.create({ data: { ...id, type: c.kind, organizer: { create: { ...c.data, slug } } }, select });
  }
}

/** Keeps an ID sequence ahead of explicitly inserted IDs, so later inserts (here or by a running server) never collide. */
async function syncSequence(ctx: Context, table: 'Post' | 'Term' | 'User') {
  await ctx.prisma.$executeRawUnsafe(
    `SELECT setval(pg_get_serial_sequence('"${table}"', 'id'), GREATEST((SELECT COALESCE(MAX(id), 0) FROM "${table}"), 1))`,
  );
}

/** The ID a new record gets: `wanted` when nothing in the space holds it, else a fresh one. */
async function freePostId(ctx: Context, wanted: number | null): Promise<number | null> {
  if (!wanted || wanted < 1 || wanted > 2_147_483_647) return null;
  return (await ctx.prisma.post.findUnique({ where: { id: wanted }, select: { id: true } })) ? null : wanted;
}

/**
 * The slug as given when free for this record, else the next free variant (`-2`, …; a trashed
 * record's `x__trashed` becomes `x__trashed-2`, as WordPress names it), found under the slug's lock
 * in the transaction the importer writes the record in (src/transfer/import.ts `apply`), like every
 * other slug write: the lock is held until that transaction commits the record, so a running server
 * cannot take the slug between the check and the write.
 */
const importedSlug = (ctx: Context, kind: SlugKind, slug: string | null, selfId: number | null) =>
  slug ? claimSlug(ctx.prisma, kind, slug, selfId) : Promise.resolve(null);

/**
 * Creates or updates one event, venue or organizer as given. `localId`: the record this one
 * already is here (from an earlier run), or null to create it, under `preferredId` when free.
 */
export async function restorePost(
  ctx: Context,
  kind: PostKind,
  localId: number | null,
  preferredId: number | null,
  record: EventRecord | VenueRecord | OrganizerRecord,
): Promise<Written> {
  requireAdmin(ctx);
  const columns = postColumns(kind, record);
  const model = postTable(ctx.prisma, kind);
  const existing = localId ? await model.findUnique({ where: { id: localId }, select: { id: true } }) : null;
  if (existing) {
    await updatePost(ctx.prisma, existing.id, columns, await importedSlug(ctx, kind, record.slug, existing.id));
    return { id: existing.id, action: 'updated' };
  }
  const explicit = await freePostId(ctx, preferredId);
  const { id } = await createPost(ctx.prisma, explicit, columns, await importedSlug(ctx, kind, record.slug, null));
  if (explicit) await syncSequence(ctx, 'Post');
  return { id, action: 'created' };
}

/**
 * Creates many new events, venues or organizers at once (a page of an import): a handful of
 * statements for the lot instead of a dozen per record. Only records that would come out exactly as
 * `restorePost` would write them are taken here: valid, under their `preferredId` (free), with their
 * slug as given (free, and not twice in the batch). The others are returned (`rest`, their indices)
 * for `restorePost`, which settles them one by one and reports their errors.
 */
export async function createPosts(
  ctx: Context,
  kind: PostKind,
  items: { preferredId: number | null; record: EventRecord | VenueRecord | OrganizerRecord }[],
): Promise<{ created: { index: number; id: number }[]; rest: number[] }> {
  requireAdmin(ctx);
  const rest: number[] = [];
  const ok: { index: number; id: number; slug: string | null; columns: PostColumns }[] = [];
  const wanted = items.map((i) => i.preferredId).filter((id): id is number => !!id && id > 0 && id <= 2_147_483_647);
  const slugs = items.map((i) => i.record.slug).filter((s): s is string => !!s);
  const takenIds = new Set((await ctx.prisma.post.findMany({ where: { id: { in: wanted } }, select: { id: true } })).map((p) => p.id));
  const takenSlugs = new Set((await postTable(ctx.prisma, kind).findMany({ where: { slug: { in: slugs } }, select: { slug: true } })).map((r) => r.slug));
  const ids = new Set<number>();
  items.forEach(({ preferredId: id, record }, index) => {
    const slug = record.slug || null;
    if (!id || !wanted.includes(id) || takenIds.has(id) || ids.has(id) || (slug && takenSlugs.has(slug))) return void rest.push(index);
    let columns: PostColumns;
    try {
      columns = postColumns(kind, record);
    } catch {
      return void rest.push(index);
    }
    ids.add(id);
    if (slug) takenSlugs.add(slug);
    ok.push({ index, id, slug, columns });
  });
  if (!ok.length) return { created: [], rest };
  await ctx.prisma.post.createMany({ data: ok.map((o) => ({ id: o.id, type: kind })) });
  // One kind per call: only one of the three lists is filled.
  const rows = { EVENT: [] as Prisma.EventCreateManyInput[], VENUE: [] as Prisma.VenueCreateManyInput[], ORGANIZER: [] as Prisma.OrganizerCreateManyInput[] };
  const events: { id: number; record: EventRecord }[] = [];
  for (const { id, slug, columns: c } of ok) {
    if (c.kind === 'EVENT') {
      rows.EVENT.push({ ...c.data, id, slug });
      events.push({ id, record: c.record });
    } else if (c.kind === 'VENUE') rows.VENUE.push({ ...c.data, id, slug });
    else rows.ORGANIZER.push({ ...c.data, id, slug });
  }
  if (rows.EVENT.length) await ctx.prisma.event.createMany({ data: rows.EVENT });
  if (rows.VENUE.length) await ctx.prisma.venue.createMany({ data: rows.VENUE });
  if (rows.ORGANIZER.length) await ctx.prisma.organizer.createMany({ data: rows.ORGANIZER });
  if (kind === 'EVENT') {
    const rows = <T>(pick: (e: EventRecord, id: number) => T[]) => events.flatMap((e) => pick(e.record, e.id));
    await ctx.prisma.eventVenue.createMany({ data: rows((e, eventId) => e.venueIds.map((venueId, position) => ({ eventId, venueId, position }))) });
    await ctx.prisma.eventOrganizer.createMany({ data: rows((e, eventId) => e.organizerIds.map((organizerId, position) => ({ eventId, organizerId, position }))) });
    // Ascending term IDs, as restorePost links them (the count triggers lock terms in that order).
    const terms = (field: 'categoryIds' | 'tagIds') =>
      rows((e, eventId) => ascending(e[field]).map((termId) => ({ eventId, termId }))).sort((a, b) => a.termId - b.termId || a.eventId - b.eventId);
    await ctx.prisma.eventCategory.createMany({ data: terms('categoryIds').map(({ eventId, termId }) => ({ eventId, categoryId: termId })) });
    await ctx.prisma.eventTag.createMany({ data: terms('tagIds').map(({ eventId, termId }) => ({ eventId, tagId: termId })) });
  }
  await syncSequence(ctx, 'Post');
  return { created: ok.map((o) => ({ index: o.index, id: o.id })), rest };
}

/** Creates or updates one category or tag as given (parent checked: it must exist and not be a descendant). */
export async function restoreTerm(
  ctx: Context,
  taxonomy: Taxonomy,
  localId: number | null,
  preferredId: number | null,
  record: TermRecord,
): Promise<Written> {
  requireAdmin(ctx);
  if (!record.name.trim()) throw new ValidationError('The term name cannot be empty.', 'name', 'EMPTY');
  if (!record.slug) throw new ValidationError('The term slug cannot be empty.', 'slug', 'EMPTY');
  const parentId = taxonomy === 'CATEGORY' ? record.parentId : null;
  if (parentId) {
    for (let id: number | null = parentId, depth = 0; id; depth++) {
      if (id === localId || depth > 1000) throw new ValidationError('A category cannot be its own ancestor.', 'parent', 'PARENT_CYCLE');
      const parent: { parentId: number | null } | null = await ctx.prisma.category.findUnique({ where: { id }, select: { parentId: true } });
      if (!parent) throw new ValidationError(`Unknown parent category ${id}.`, 'parent', 'UNKNOWN_PARENT');
      id = parent.parentId;
    }
  }
  const model = termTable(ctx.prisma, taxonomy);
  const data = { name: record.name, description: record.description };
  const update = (id: number, slug: string) =>
    taxonomy === 'CATEGORY'
      ? ctx.prisma.category.update({ where: { id }, data: { ...data, parentId, slug } })
      : ctx.prisma.tag.update({ where: { id }, data: { ...data, slug } });
  const create = (id: { id?: number }, slug: string) =>
    taxonomy === 'CATEGORY'
      ? ctx.prisma.term.create({ data: { ...id, taxonomy, category: { create: { ...data, parentId, slug } } }, select: { id: true } })
      : ctx.prisma.term.create({ data: { ...id, taxonomy, tag: { create: { ...data, slug } } }, select: { id: true } });
  const existing = localId ? await model.findUnique({ where: { id: localId }, select: { id: true } }) : null;
  // Under the slug's lock, in the importer's transaction of this record (as importedSlug above).
  if (existing) {
    await update(existing.id, await claimSlug(ctx.prisma, taxonomy, record.slug, existing.id));
    return { id: existing.id, action: 'updated' };
  }
  const explicit =
    preferredId && preferredId > 0 && preferredId <= 2_147_483_647 && !(await ctx.prisma.term.findUnique({ where: { id: preferredId }, select: { id: true } }))
      ? preferredId
      : null;
  const { id } = await create(explicit ? { id: explicit } : {}, await claimSlug(ctx.prisma, taxonomy, record.slug, null));
  if (explicit) await syncSequence(ctx, 'Term');
  return { id, action: 'created' };
}

/** Restores an attachment row exactly (from an export), under `preferredId` when free. */
export async function restoreAttachment(ctx: Context, localId: number | null, preferredId: number | null, record: AttachmentRecord): Promise<Written> {
  requireAdmin(ctx);
  const data = { ...record, sizes: record.sizes ?? undefined, createdAt: new Date(record.createdAt) };
  const existing = localId ? await ctx.prisma.attachment.findUnique({ where: { id: localId }, select: { id: true } }) : null;
  if (existing) {
    await ctx.prisma.attachment.update({ where: { id: existing.id }, data });
    return { id: existing.id, action: 'updated' };
  }
  const same = await ctx.prisma.attachment.findFirst({ where: { url: record.url }, select: { id: true } });
  if (same) {
    await ctx.prisma.attachment.update({ where: { id: same.id }, data });
    return { id: same.id, action: 'updated' };
  }
  const explicit = await freePostId(ctx, preferredId);
  const post = await ctx.prisma.post.create({
    data: { ...(explicit ? { id: explicit } : {}), type: 'ATTACHMENT', attachment: { create: data } },
    select: { id: true },
  });
  if (explicit) await syncSequence(ctx, 'Post');
  return { id: post.id, action: 'created' };
}

/**
 * An image of another site, by URL: the attachment already imported from that URL, else a new
 * one through the SSRF-safe image import (under `preferredId` when free).
 */
export async function importImage(ctx: Context, url: string, preferredId: number | null): Promise<number> {
  requireAdmin(ctx);
  const known = await ctx.prisma.attachment.findFirst({ where: { OR: [{ url }, { sourceUrl: url }] }, select: { id: true } });
  if (known) return known.id;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ValidationError(`Invalid image URL: ${url}`, 'image', 'INVALID_IMAGE');
  }
  const id = await importImageFromUrl(ctx, parsed, 'image', (await freePostId(ctx, preferredId)) ?? undefined);
  await syncSequence(ctx, 'Post');
  return id;
}

/**
 * Creates or updates an account by login (never its password when none is given). Restoring
 * an export keeps the user's ID when free.
 */
export async function restoreUser(ctx: Context, preferredId: number | null, record: UserRecord): Promise<Written> {
  requireAdmin(ctx);
  if (!(['ADMINISTRATOR', 'EDITOR', 'AUTHOR', 'CONTRIBUTOR', 'SUBSCRIBER'] as const).includes(record.role as 'EDITOR')) {
    throw new ValidationError(`Unknown role: ${record.role}`, 'role', 'UNKNOWN_ROLE');
  }
  const data = { email: record.email, displayName: record.displayName, role: record.role as 'EDITOR', createdAt: new Date(record.createdAt) };
  const existing = await ctx.prisma.user.findUnique({ where: { login: record.login }, select: { id: true } });
  if (existing) {
    await ctx.prisma.user.update({ where: { id: existing.id }, data: { ...data, ...(record.passwordHash ? { passwordHash: record.passwordHash } : {}) } });
    await restoreApplicationPasswords(ctx, existing.id, record.applicationPasswords);
    return { id: existing.id, action: 'updated' };
  }
  const free = preferredId && !(await ctx.prisma.user.findUnique({ where: { id: preferredId }, select: { id: true } })) ? preferredId : null;
  const user = await ctx.prisma.user.create({
    data: {
      ...(free ? { id: free } : {}),
      ...data,
      login: record.login,
      passwordHash: record.passwordHash || NO_PASSWORD,
    },
    select: { id: true },
  });
  if (free) await syncSequence(ctx, 'User');
  await restoreApplicationPasswords(ctx, user.id, record.applicationPasswords);
  return { id: user.id, action: 'created' };
}

/** The account's application passwords become exactly these (same UUIDs, hashes and dates); absent: left alone. */
async function restoreApplicationPasswords(ctx: Context, userId: number, apps: ApplicationPasswordRecord[] | undefined) {
  if (!apps) return;
  await ctx.prisma.applicationPassword.deleteMany({ where: { userId, uuid: { notIn: apps.map((a) => a.uuid) } } });
  for (const a of apps) {
    if (!a.hash) throw new ValidationError(`Application password ${a.uuid} has no hash.`, 'applicationPasswords', 'EMPTY');
    const data = {
      userId,
      name: a.name,
      hash: a.hash,
      createdAt: new Date(a.createdAt),
      lastUsedAt: a.lastUsedAt === null ? null : new Date(a.lastUsedAt),
      lastIp: a.lastIp,
    };
    await ctx.prisma.applicationPassword.upsert({ where: { uuid: a.uuid }, create: { uuid: a.uuid, ...data }, update: data });
  }
}

/** Restores an event's place in a recurring series (after the series exists): same slot, dates and override flag. */
export async function restoreOccurrence(ctx: Context, eventId: number, seriesId: number, record: OccurrenceRecord): Promise<void> {
  requireAdmin(ctx);
  const series = await ctx.prisma.event.findUnique({ where: { id: seriesId }, select: { recurrenceStart: true } });
  if (!series?.recurrenceStart) {
    throw new ValidationError(`${seriesId} is not a recurring series.`, 'series', 'NOT_A_SERIES');
  }
  const data = {
    seriesId,
    recurrenceLocal: stampDate(record.recurrenceLocal, 'recurrenceLocal'),
    startLocal: stampDate(record.startLocal, 'start_date'),
    endLocal: stampDate(record.endLocal, 'end_date'),
    startUtc: stampDate(record.startUtc, 'utc_start_date'),
    endUtc: stampDate(record.endUtc, 'utc_end_date'),
    overridden: record.overridden === true,
  };
  await ctx.prisma.eventOccurrence.upsert({ where: { eventId }, create: { eventId, ...data }, update: data });
}

/** Links a restored event to its parent event (after both exist). */
export async function restoreEventParent(ctx: Context, id: number, parentId: number | null): Promise<void> {
  requireAdmin(ctx);
  if (parentId && (await ctx.prisma.post.findUnique({ where: { id: parentId }, select: { type: true } }))?.type !== 'EVENT') {
    throw new ValidationError(`${parentId} is not an event ID.`, 'post_parent', 'WRONG_KIND');
  }
  await ctx.prisma.event.update({ where: { id }, data: { parentId } });
}

const ascending = (ids: readonly number[]) => [...new Set(ids)].sort((a, b) => a - b);
