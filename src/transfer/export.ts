/**
 * `npm run cal -- export`: the whole calendar as JSON lines, one record a line, in a fixed order
 * (users with their application passwords, image files, attachments, categories, tags, venues,
 * organizers, events with their place in a series; each by ID, files by path) with fixed keys, so
 * the same database always gives the same bytes. Read in pages by ID cursor: constant memory.
 */
import type { Writable } from 'node:stream';
import type { Context } from '../services/context.ts';
import { toStamp } from './restore.ts';
import { allUploads } from '../services/uploads.ts';

const PAGE = 500;

type Row = Record<string, unknown>;

/** Dates as the records carry them: timestamps(0) as `YYYY-MM-DD HH:MM:SS` (lists of them too), others as ISO. */
function plain(row: object, isoKeys: readonly string[] = []): Row {
  const out: Row = {};
  const date = (k: string, v: Date) => (isoKeys.includes(k) ? v.toISOString() : toStamp(v));
  for (const [k, v] of Object.entries(row)) {
    out[k] = v instanceof Date ? date(k, v) : Array.isArray(v) && v.length && v.every((d) => d instanceof Date) ? v.map((d: Date) => date(k, d)) : v;
  }
  return out;
}

async function* pages<T extends { id: number }>(read: (after: number) => Promise<T[]>): AsyncGenerator<T> {
  for (let after = 0; ; ) {
    const rows = await read(after);
    for (const r of rows) yield r;
    const last = rows.at(-1);
    if (rows.length < PAGE || !last) return;
    after = last.id;
  }
}

const POST_OMIT = new Set(['id']);

export interface ExportOptions {
  withUsers?: boolean;
  onRecord?: (kind: string) => void;
}

export async function exportAll(ctx: Context, out: Writable, opts: ExportOptions = {}): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  const write = async (kind: string, id: number | null, row: Row) => {
    const fields: Row = {};
    for (const [k, v] of Object.entries(row)) if (!POST_OMIT.has(k)) fields[k] = v;
    counts[kind] = (counts[kind] ?? 0) + 1;
    opts.onRecord?.(kind);
    const head = id === null ? { kind } : { kind, id };
    if (!out.write(JSON.stringify({ ...head, ...fields }) + '\n')) await new Promise((resolve) => out.once('drain', resolve));
  };
  const p = ctx.prisma;
  const page = (after: number) => ({ where: { id: { gt: after } }, orderBy: { id: 'asc' as const }, take: PAGE });
  await write('meta', 0, { format: 'cal-events-export', version: 1 });

  const withUsers = opts.withUsers === true;
  for await (const u of pages((a) =>
    p.user.findMany({
      ...page(a),
      select: {
        id: true,
        login: true,
        email: true,
        displayName: true,
        role: true,
        createdAt: true,
        passwordHash: withUsers,
        // Their hashes only: a password is never stored, so it is never exported.
        applicationPasswords: withUsers && {
          select: { uuid: true, name: true, hash: true, createdAt: true, lastUsedAt: true, lastIp: true },
          orderBy: { id: 'asc' },
        },
      },
    }),
  )) {
    const { applicationPasswords, ...user } = u;
    const apps = applicationPasswords?.map((a) => plain(a, ['createdAt', 'lastUsedAt']));
    await write('user', u.id, { ...plain(user, ['createdAt']), ...(apps ? { applicationPasswords: apps } : {}) });
  }
  // The image files this service keeps, base64 (`npm run cal -- import --file` puts them back).
  for await (const f of allUploads(p, ctx.imageImport.uploadsDir)) {
    await write('upload', null, { path: f.path, mimeType: f.mimeType, size: f.size, sha256: f.sha256, createdAt: f.createdAt.toISOString(), data: f.bytes.toString('base64') });
  }
  for await (const a of pages((x) => p.attachment.findMany(page(x)))) await write('attachment', a.id, plain(a as Row, ['createdAt']));
  for await (const c of pages((x) => p.category.findMany({ ...page(x), select: { id: true, name: true, slug: true, description: true, parentId: true } }))) {
    await write('category', c.id, c);
  }
  for await (const t of pages((x) => p.tag.findMany({ ...page(x), select: { id: true, name: true, slug: true, description: true } }))) {
    await write('tag', t.id, { ...t, parentId: null });
  }
  for await (const v of pages((x) => p.venue.findMany(page(x)))) await write('venue', v.id, plain(v as Row));
  for await (const o of pages((x) => p.organizer.findMany(page(x)))) await write('organizer', o.id, plain(o as Row));
  for await (const e of pages((x) =>
    p.event.findMany({
      ...page(x),
      include: {
        venues: { select: { venueId: true }, orderBy: { position: 'asc' } },
        organizers: { select: { organizerId: true }, orderBy: { position: 'asc' } },
        categories: { select: { categoryId: true }, orderBy: { categoryId: 'asc' } },
        tags: { select: { tagId: true }, orderBy: { tagId: 'asc' } },
        occurrence: { select: { seriesId: true, recurrenceLocal: true, startLocal: true, endLocal: true, startUtc: true, endUtc: true, overridden: true } },
      },
    }),
  )) {
    const { venues, organizers, categories, tags, occurrence, ...rest } = e;
    await write('event', e.id, {
      ...plain(rest),
      // Its place in a recurring series (the series row has one too: its first occurrence).
      occurrence: occurrence ? plain(occurrence) : null,
      venueIds: venues.map((l) => l.venueId),
      organizerIds: organizers.map((l) => l.organizerId),
      categoryIds: categories.map((l) => l.categoryId),
      tagIds: tags.map((l) => l.tagId),
    });
  }
  return counts;
}
