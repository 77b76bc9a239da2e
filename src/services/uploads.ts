import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { DatabaseClient } from '../db/input-guard.ts';

/**
 * Image files served by this service itself under `/wp-content/uploads/<path>`: an
 * imported image keeps its WordPress path (`…/wp-content/uploads/2026/11/poster.png` → the same
 * path here), so old links keep working once the domain points here. The bytes live in the
 * database (`Upload.bytes`: every instance serves them) or, when `CAL_UPLOADS_DIR` is set, in that
 * directory (`Upload` then keeps the metadata only).
 */

export const UPLOADS_PREFIX = '/wp-content/uploads/';

/** What storing a file reads of the request context (a Context of src/services/context.ts is one). */
export interface UploadContext {
  prisma: DatabaseClient;
  imageImport: { uploadsDir?: string };
}

/** A path segment kept as it is: letters, digits and the usual file-name punctuation. */
const SAFE_SEGMENT = /^[\p{L}\p{N}][\p{L}\p{N}._~@+-]*$/u;
const MAX_PATH = 400;

const EXTENSIONS: Record<string, string> = { 'image/jpeg': 'jpg', 'image/png': 'png', 'image/gif': 'gif', 'image/webp': 'webp' };

/** `2026/11/poster.png` → `/wp-content/uploads/2026/11/poster.png` (each segment percent-encoded). */
export function uploadUrl(relative: string): string {
  return UPLOADS_PREFIX + relative.split('/').map(encodeURIComponent).join('/');
}

/** The upload path a site-relative URL path names (`/wp-content/uploads/…`, decoded), or null. */
export function uploadPathOf(urlPath: string): string | null {
  if (!urlPath.startsWith(UPLOADS_PREFIX)) return null;
  let segments: string[];
  try {
    segments = urlPath.slice(UPLOADS_PREFIX.length).split('/').map(decodeURIComponent);
  } catch {
    return null;
  }
  return segments.length && segments.every((s) => SAFE_SEGMENT.test(s)) && segments.join('/').length <= MAX_PATH ? segments.join('/') : null;
}

/**
 * Where an image downloaded from `source` is kept: its path under `wp-content/uploads/` when it has
 * one (a WordPress upload), else `YYYY/MM/<file name>` of `now`, as WordPress files new uploads.
 */
export function wantedUploadPath(source: URL, mimeType: string, now: Date): string {
  const at = source.pathname.indexOf(UPLOADS_PREFIX);
  const kept = at >= 0 ? uploadPathOf(source.pathname.slice(at)) : null;
  if (kept) return kept;
  const ext = EXTENSIONS[mimeType] ?? 'img';
  let name = source.pathname.split('/').filter(Boolean).pop() ?? '';
  try {
    name = decodeURIComponent(name);
  } catch {
    // kept encoded; cleaned below
  }
  const stem =
    name
      .replace(/\.[^.]*$/, '')
      .normalize('NFC')
      .replace(/[^\p{L}\p{N}._~@+-]+/gu, '-')
      .replace(/^[^\p{L}\p{N}]+|-+$/gu, '')
      .slice(0, 100) || 'image';
  return `${now.getUTCFullYear()}/${String(now.getUTCMonth() + 1).padStart(2, '0')}/${stem}.${ext}`;
}

/** `a/b/x.png` → `a/b/x-2.png`. */
function variant(relative: string, n: number): string {
  const m = /^(.*?)(\.[^./]+)?$/.exec(relative)!;
  return `${m[1]}-${n}${m[2] ?? ''}`;
}

function fileOf(dir: string, relative: string): string {
  const full = path.resolve(dir, ...relative.split('/'));
  if (!full.startsWith(path.resolve(dir) + path.sep)) throw new Error(`upload path outside the uploads directory: ${relative}`);
  return full;
}

/**
 * Stores an image file under `wanted` or, when another file holds that path, the next free variant
 * (`-2`, `-3`, … as WordPress does); the same bytes under the same path are stored once. Returns
 * the path taken.
 */
export async function storeUpload(ctx: UploadContext, wanted: string, bytes: Buffer, mimeType: string): Promise<string> {
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const dir = ctx.imageImport.uploadsDir;
  for (let n = 1; n < 1000; n++) {
    const candidate = n === 1 ? wanted : variant(wanted, n);
    const held = await ctx.prisma.upload.findUnique({ where: { path: candidate }, select: { sha256: true } });
    if (held) {
      if (held.sha256 === sha256) return candidate;
      continue;
    }
    if (dir) {
      const file = fileOf(dir, candidate);
      await mkdir(path.dirname(file), { recursive: true });
      const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
      await writeFile(tmp, bytes);
      await rename(tmp, file);
    }
    // A concurrent store of the same path: skipped here, settled by the next round's lookup.
    await ctx.prisma.upload.createMany({
      data: [{ path: candidate, mimeType, size: bytes.length, sha256, bytes: dir ? null : new Uint8Array(bytes) }],
      skipDuplicates: true,
    });
    const now = await ctx.prisma.upload.findUnique({ where: { path: candidate }, select: { sha256: true } });
    if (now?.sha256 === sha256) return candidate;
  }
  throw new Error(`no free upload path for ${wanted}`);
}

export interface StoredUpload {
  mimeType: string;
  size: number;
  sha256: string;
  bytes: Buffer;
}

/** The stored file at `relative`, or null (also when its file is missing from the directory). */
export async function readUpload(prisma: DatabaseClient, uploadsDir: string | undefined, relative: string): Promise<StoredUpload | null> {
  const row = await prisma.upload.findUnique({ where: { path: relative } });
  if (!row) return null;
  let bytes: Buffer;
  if (row.bytes) bytes = Buffer.from(row.bytes);
  else if (uploadsDir) {
    try {
      bytes = await readFile(fileOf(uploadsDir, relative));
    } catch {
      return null;
    }
  } else return null;
  return { mimeType: row.mimeType, size: row.size, sha256: row.sha256, bytes };
}

/** Every stored file, by path (for the export), `PAGE` at a time. */
export async function* allUploads(prisma: DatabaseClient, uploadsDir: string | undefined, page = 100): AsyncGenerator<{ path: string; createdAt: Date } & StoredUpload> {
  for (let after: string | undefined; ; ) {
    const rows = await prisma.upload.findMany({
      where: after === undefined ? {} : { path: { gt: after } },
      orderBy: { path: 'asc' },
      take: page,
      select: { path: true, createdAt: true },
    });
    for (const r of rows) {
      const file = await readUpload(prisma, uploadsDir, r.path);
      if (file) yield { path: r.path, createdAt: r.createdAt, ...file };
    }
    const last = rows.at(-1);
    if (rows.length < page || !last) return;
    after = last.path;
  }
}

/** Restores one stored file as exported (same path, bytes and date); the bytes must match their digest. */
export async function restoreUpload(
  ctx: UploadContext,
  record: { path: string; mimeType: string; sha256: string; createdAt: string; data: string },
): Promise<void> {
  if (uploadPathOf(uploadUrl(record.path)) !== record.path) throw new Error(`invalid upload path: ${record.path}`);
  const bytes = Buffer.from(record.data, 'base64');
  if (createHash('sha256').update(bytes).digest('hex') !== record.sha256) throw new Error(`${record.path}: the bytes do not match their sha256`);
  const dir = ctx.imageImport.uploadsDir;
  if (dir) {
    const file = fileOf(dir, record.path);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, bytes);
  }
  const data = { mimeType: record.mimeType, size: bytes.length, sha256: record.sha256, bytes: dir ? null : new Uint8Array(bytes), createdAt: new Date(record.createdAt) };
  await ctx.prisma.upload.upsert({ where: { path: record.path }, create: { path: record.path, ...data }, update: data });
}
