/**
 * `npm run cal -- export`: the whole calendar as JSON lines, one record a line, in a fixed order
 * (users, attachments, categories, tags, venues, organizers, events; each by ID) with fixed keys,
 * so the same database always gives the same bytes. Read in pages by ID cursor: constant memory.
 */
import type { Writable } from 'node:stream';
import type { Context } from '../context.ts';
import { toStamp } from '../services/transfer.ts';

const PAGE = 500;

type Row = Record<string, unknown>;

/** Dates as the records carry them: timestamps(0) as `YYYY-MM-DD HH:MM:SS`, others as ISO. */
function plain(row: Row, isoKeys: readonly string[] = []): Row {
  const out: Row = {};
  for (const [k, v] of Object.entries(row)) out[k] = v instanceof Date ? (isoKeys.includes(k) ? v.toISOString() : toStamp(v)) : v;
  return out;
}

async function* pages<T extends { id: number }>(read: (after: number) => Promise<T[]>): AsyncGenerator<T> {
  for (let after = 0; ; ) {
    const rows = await read(after);
    for (const r of rows) yield r;
    if (rows.length < PAGE) return;
    after = rows[rows.length - 1].id;
  }
}

const POST_OMIT = new Set(['id']);

export interface ExportOptions {
  withUsers?: boolean;
  onRecord?: (kind: string) => void;
}

export async function exportAll(ctx: Context, out: Writable, opts: ExportOptions = {}): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  const write = async (kind: string, id: number, row: Row) => {
    const fields: Row = {};
    for (const [k, v] of Object.entries(row)) if (!POST_OMIT.has(k)) fields[k] = v;
    counts[kind] = (counts[kind] ?? 0) + 1;
    opts.onRecord?.(kind);
    if (!out.write(JSON.stringify({ kind, id, ...fields }) + '\n')) await new Promise((resolve) => out.once('drain', resolve));
  };
  const p = ctx.prisma;
  const page = (after: number) => ({ where: { id: { gt: after } }, orderBy: { id: 'asc' as const }, take: PAGE });
  await write('meta', 0, { format: 'cal-events-export', version: 1 });

  for await (const u of pages((a) =>
    p.user.findMany({ ...page(a), select: { id: true, login: true, email: true, displayName: true, role: true, createdAt: true, passwordHash: opts.withUsers === true } }),
  )) {
    await write('user', u.id, plain(u as Row, ['createdAt']));
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
      },
    }),
  )) {
    const { venues, organizers, categories, tags, ...rest } = e;
    await write('event', e.id, {
      ...plain(rest as Row),
      venueIds: venues.map((l) => l.venueId),
      organizerIds: organizers.map((l) => l.organizerId),
      categoryIds: categories.map((l) => l.categoryId),
      tagIds: tags.map((l) => l.tagId),
    });
  }
  return counts;
}
