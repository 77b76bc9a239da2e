import type { Organizer, Prisma, Venue } from '../../prisma/generated/client/client.ts';
import type { Context } from './context.ts';
import { linkedPostTable, type LinkedKind } from '../db/tables.ts';
import type { TransactionClient } from '../db/transactions.ts';
import { canEdit, forcedStatus, type Status } from '../domain/capabilities.ts';
import { ForbiddenError, ValidationError } from '../domain/errors.ts';
import { untrashedSlug } from '../domain/slug.ts';
import { MAX_TITLE_LENGTH } from '../domain/text.ts';
import { requireEditable, requirePostCreator, requireTrashable, resolveAuthor } from './authz.ts';
import { linkedEventChanges, publishChange } from './changes.ts';
import { recorded } from './change-log.ts';
import { stamp } from './clock.ts';
import { prefetchImages, resolveImageRef } from './images.ts';
import { insertPost, locatePost, writeTrashed, type PostAddress } from './posts.ts';
import { resolvePublicationDate } from './publication.ts';
import { writeWithUniqueSlug } from './slugs.ts';
import { filterHtmlFields } from './text-work.ts';
import { readableWhere } from './visibility.ts';

/** Writable fields of venues and organizers (the kind-specific ones are ignored for the other kind). */
export interface LinkedPostInput {
  name?: string | null;
  description?: string | null;
  status?: string | null;
  authorId?: number | null;
  date?: string | null;
  dateUtc?: string | null;
  image?: string | null;
  phone?: string | null;
  website?: string | null;
  // venues
  address?: string | null;
  city?: string | null;
  country?: string | null;
  province?: string | null;
  state?: string | null;
  stateprovince?: string | null;
  zip?: string | null;
  latitude?: number | null;
  longitude?: number | null;
  showMap?: boolean | null;
  showMapLink?: boolean | null;
  // organizers
  email?: string | null;
}

const venueText = ['address', 'city', 'country', 'province', 'state', 'zip', 'phone', 'website'] as const;
const organizerText = ['phone', 'website', 'email'] as const;
/** A venue's or organizer's name is its post title, its description the post content (filtered as in events.ts). */
const HTML_FIELDS = { name: 'data', description: 'post' } as const;
const label = (kind: LinkedKind) => (kind === 'VENUE' ? 'venue' : 'organizer');

type Row = Venue | Organizer;

/** `stateprovince` when not sent: state for US addresses, else province (contract §4.3). */
export function deriveStateProvince(v: { state?: string | null; province?: string | null; country?: string | null }) {
  const country = (v.country ?? '').trim();
  if (v.state && (!country || country === 'US' || country === 'United States')) return v.state;
  return v.province ?? '';
}

function validateUrl(value: string | null | undefined, field: string) {
  if (!value) return;
  try {
    const u = new URL(value);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error();
  } catch {
    throw new ValidationError(`${field} must be a valid URL.`, field, 'INVALID_URL');
  }
}

function validate(kind: LinkedKind, input: LinkedPostInput, creating: boolean) {
  const nameField = label(kind);
  if (creating && !input.name?.trim()) throw new ValidationError(`The ${nameField} name is required.`, nameField, 'REQUIRED');
  if (input.name !== undefined && input.name !== null && !input.name.trim()) {
    throw new ValidationError(`The ${nameField} name cannot be empty.`, nameField, 'EMPTY');
  }
  if (input.name && input.name.length > MAX_TITLE_LENGTH) {
    throw new ValidationError(`The ${nameField} name is too long (${MAX_TITLE_LENGTH} characters at most).`, nameField, 'TOO_LONG');
  }
  validateUrl(input.website, 'website');
  if (input.latitude !== undefined && input.latitude !== null && (input.latitude < -90 || input.latitude > 90)) {
    throw new ValidationError('Latitude must lie between -90 and 90.', 'latitude', 'OUT_OF_RANGE');
  }
  if (input.longitude !== undefined && input.longitude !== null && (input.longitude < -180 || input.longitude > 180)) {
    throw new ValidationError('Longitude must lie between -180 and 180.', 'longitude', 'OUT_OF_RANGE');
  }
}

/** Columns a write sets: those both tables have, and each kind's own (set for that kind only). */
type LinkedPostData = Partial<Prisma.VenueUncheckedCreateInput> & Partial<Prisma.OrganizerUncheckedCreateInput>;

async function fieldData(ctx: Context, kind: LinkedKind, input: LinkedPostInput, current?: Row) {
  const data: LinkedPostData = {};
  if (input.name) data.name = input.name.trim();
  if (input.description !== undefined && input.description !== null) data.content = input.description;
  for (const f of kind === 'VENUE' ? venueText : organizerText) {
    if (input[f] !== undefined && input[f] !== null) data[f] = input[f];
  }
  if (kind === 'VENUE') {
    if (input.latitude !== undefined) data.latitude = input.latitude;
    if (input.longitude !== undefined) data.longitude = input.longitude;
    if (input.showMap !== undefined && input.showMap !== null) data.showMap = input.showMap;
    if (input.showMapLink !== undefined && input.showMapLink !== null) data.showMapLink = input.showMapLink;
    if (input.stateprovince !== undefined && input.stateprovince !== null) data.stateprovince = input.stateprovince;
    else if (input.state !== undefined || input.province !== undefined || input.country !== undefined || !current) {
      data.stateprovince = deriveStateProvince({ ...(current ?? {}), ...data });
    }
  }
  if (input.image !== undefined && input.image !== null) data.imageId = await resolveImageRef(ctx, input.image);
  return data;
}

/**
 * Non-trashed records of the kind whose name (and description, when one is given) equal these
 * ignoring case, as the plugin's lookup compares them under MySQL's case-insensitive collation
 * (the plugin matches on the post title and content only, not on the address).
 * `lower() = lower()` rather than Prisma's `mode: 'insensitive'`, which sends ILIKE: there `_` and
 * `%` in a name are wildcards ("A_B" matched "AXB"), and ILIKE cannot use the `lower("name")`
 * indexes (migration 20261123131500_linked_post_lower_name). Same on PGlite and PostgreSQL.
 */
async function sameNameIds(db: TransactionClient, kind: LinkedKind, name: string, description: string | null): Promise<number[]> {
  const rows =
    kind === 'VENUE'
      ? await db.$queryRaw<{ id: number }[]>`SELECT id FROM "Venue" WHERE lower(name) = lower(${name})
          AND status <> 'trash' AND (${description}::text IS NULL OR lower(content) = lower(${description}::text)) ORDER BY id`
      : await db.$queryRaw<{ id: number }[]>`SELECT id FROM "Organizer" WHERE lower(name) = lower(${name})
          AND status <> 'trash' AND (${description}::text IS NULL OR lower(content) = lower(${description}::text)) ORDER BY id`;
  return rows.map((r) => r.id);
}

/**
 * The record a create of this name (and description) reuses (contract §7.7 duplicate avoidance):
 * only one the caller may read, so reuse reveals none of others' drafts.
 */
async function reusable(ctx: Context, db: TransactionClient, kind: LinkedKind, name: string, description: string | null): Promise<Row | null> {
  const candidates = await sameNameIds(db, kind, name, description);
  if (!candidates.length) return null;
  return linkedPostTable(db, kind).findFirst({
    where: { AND: [{ id: { in: candidates } }, readableWhere(ctx)] },
    select: { id: true, status: true, authorId: true },
    orderBy: { id: 'asc' },
  });
}

/** The record `createLinkedPost` would reuse for this name (and description), or null (the iCal import's venue lookup). */
export function reusableLinkedPost(ctx: Context, kind: LinkedKind, name: string, description: string | null): Promise<Row | null> {
  return reusable(ctx, ctx.prisma, kind, name.trim(), description);
}

/**
 * Creates a venue or organizer, or reuses a non-trashed one with the same name (and description,
 * when one is given), writing the submitted fields onto it (contract §7.7 duplicate avoidance).
 * Concurrent creates of one name take turns on the name's slug lock (its slug base: names equal
 * ignoring case slugify alike), so they create one record and the others reuse it.
 */
export async function createLinkedPost(ctx: Context, kind: LinkedKind, input: LinkedPostInput): Promise<number> {
  return insertLinkedPost(await prefetchImages(ctx, [input.image]), kind, input);
}

const insertLinkedPost = recorded(async (ctx: Context, kind: LinkedKind, input: LinkedPostInput): Promise<number> => {
  input = await filterHtmlFields(ctx.viewer, input, HTML_FIELDS);
  validate(kind, input, true);
  const viewer = requirePostCreator(ctx);
  const name = input.name!.trim();
  const description = input.description || null;
  // Only one the caller may edit is written to, so reuse never alters others' records.
  const reuse = (duplicate: Row) => {
    if (!canEdit(viewer, duplicate)) return duplicate.id;
    const { name: _same, ...rest } = input;
    return updateLinkedPost(ctx, kind, { id: duplicate.id }, rest, { allowReuse: true });
  };
  const existing = await reusable(ctx, ctx.prisma, kind, name, description);
  if (existing) return reuse(existing);
  const status = forcedStatus(viewer, input.status as Status | undefined, true)!;
  const authorId = await resolveAuthor(ctx, input.authorId, null);
  const now = stamp(ctx);
  const published = await resolvePublicationDate(ctx, { date: input.date, dateUtc: input.dateUtc, timezone: ctx.settings.timezone, status });
  const data = await fieldData(ctx, kind, input);
  const outcome = await writeWithUniqueSlug(ctx.prisma, kind, name, async (tx, slug) => {
    // Checked again under the lock: a concurrent create of this name may have committed meanwhile.
    const duplicate = await reusable(ctx, tx, kind, name, description);
    if (duplicate) return { duplicate };
    const id = await insertPost(tx, kind, async (id) => {
      const row = { ...data, name, slug, ...published, authorId, modifiedUtc: now.utc, modifiedLocal: now.local, id };
      const created =
        kind === 'VENUE'
          ? await tx.venue.create({ data: { ...row, showMap: data.showMap ?? true, showMapLink: data.showMapLink ?? true }, select: { id: true } })
          : await tx.organizer.create({ data: row, select: { id: true } });
      return created.id;
    });
    return { id };
  });
  if ('duplicate' in outcome) return reuse(outcome.duplicate!);
  publishChange(ctx, { kind, id: outcome.id, action: 'CREATED' });
  return outcome.id;
});

export async function updateLinkedPost(ctx: Context, kind: LinkedKind, address: PostAddress, input: LinkedPostInput, opts: { allowReuse?: boolean } = {}): Promise<number> {
  return writeLinkedPost(await prefetchImages(ctx, [input.image]), kind, address, input, opts);
}

const writeLinkedPost = recorded(
  async (ctx: Context, kind: LinkedKind, address: PostAddress, input: LinkedPostInput, opts: { allowReuse?: boolean } = {}): Promise<number> => {
  input = await filterHtmlFields(ctx.viewer, input, HTML_FIELDS);
  const row = await locatePost(ctx, kind, address);
  validate(kind, input, false);
  const viewer = opts.allowReuse ? requirePostCreator(ctx) : requireEditable(ctx, row);
  const current = await linkedPostTable(ctx.prisma, kind).findUniqueOrThrow({ where: { id: row.id } });
  const data = await fieldData(ctx, kind, input, current);
  const requested = input.status as Status | undefined;
  const status = opts.allowReuse ? undefined : forcedStatus(viewer, requested ?? undefined, false);
  if (input.authorId !== undefined && input.authorId !== null) data.authorId = await resolveAuthor(ctx, input.authorId, row.authorId);
  if (status || input.date != null || input.dateUtc != null) {
    const published = await resolvePublicationDate(ctx, {
      date: input.date,
      dateUtc: input.dateUtc,
      timezone: ctx.settings.timezone,
      status: (status ?? row.status) as Status,
      current: current.dateUtc,
    });
    Object.assign(data, published);
    if (row.status === 'trash' && published.status !== 'trash') Object.assign(data, untrashedData(row.slug));
  }
  const now = stamp(ctx);
  await linkedPostTable(ctx.prisma, kind).update({
    where: { id: row.id },
    data: { ...data, modifiedUtc: now.utc, modifiedLocal: now.local },
  });
  publishChange(ctx, { kind, id: row.id, action: 'UPDATED', before: row });
  return row.id;
});

const untrashedData = (slug: string | null) => ({ slug: slug ? untrashedSlug(slug) : null, trashedFromStatus: null });

/** Moves to trash (contract §7.9): slug gets `__trashed`, links to events are removed. */
export const trashLinkedPost = recorded(async (ctx: Context, kind: LinkedKind, address: PostAddress): Promise<number> => {
  const row = await locatePost(ctx, kind, address);
  requireTrashable(ctx, row, label(kind));
  const now = stamp(ctx);
  const events = await linkedEventChanges(ctx, kind, row.id);
  await writeTrashed(ctx, kind, row, now, async (db, data) => {
    if (kind === 'VENUE') await db.eventVenue.deleteMany({ where: { venueId: row.id } });
    else await db.eventOrganizer.deleteMany({ where: { organizerId: row.id } });
    await linkedPostTable(db, kind).update({ where: { id: row.id }, data });
  });
  publishChange(ctx, { kind, id: row.id, action: 'DELETED', before: row }, ...events);
  return row.id;
});

export const restoreLinkedPost = recorded(async (ctx: Context, kind: LinkedKind, address: PostAddress): Promise<number> => {
  const row = await locatePost(ctx, kind, address);
  requireEditable(ctx, row);
  if (row.status !== 'trash') throw new ValidationError(`The ${label(kind)} is not in the trash.`, 'id', 'NOT_TRASHED');
  const current = await linkedPostTable(ctx.prisma, kind).findUnique({ where: { id: row.id }, select: { trashedFromStatus: true } });
  await writeWithUniqueSlug(
    ctx.prisma,
    kind,
    (row.slug && untrashedSlug(row.slug)) || label(kind),
    (tx, slug) =>
      linkedPostTable(tx, kind).update({
        where: { id: row.id },
        data: { status: current?.trashedFromStatus ?? 'draft', trashedFromStatus: null, slug },
      }),
    { exceptId: row.id },
  );
  publishChange(ctx, { kind, id: row.id, action: 'RESTORED', before: row });
  return row.id;
});

/** Permanent delete; only records already in the trash. */
export const purgeLinkedPost = recorded(async (ctx: Context, kind: LinkedKind, address: PostAddress): Promise<number> => {
  const row = await locatePost(ctx, kind, address);
  requireEditable(ctx, row);
  if (row.status !== 'trash') throw new ForbiddenError(`Move the ${label(kind)} to the trash before deleting it permanently.`, 'NOT_TRASHED');
  const events = await linkedEventChanges(ctx, kind, row.id);
  await ctx.prisma.post.delete({ where: { id: row.id } });
  publishChange(ctx, { kind, id: row.id, action: 'DELETED', before: row }, ...events);
  return row.id;
});
