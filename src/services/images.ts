import type { Context } from './context.ts';
import { canUploadFiles } from '../domain/capabilities.ts';
import { ValidationError } from '../domain/errors.ts';
import { isRecordId } from '../domain/ids.ts';
import { phpTrim } from '../domain/text.ts';
import { download, importImageFromUrl, type Downloaded } from './image-import.ts';
import { UPLOADS_PREFIX } from './uploads.ts';

/** An `image` value that names a URL to import (not an ID, not blank, http or https), else null. */
function importableUrl(value: string): URL | null {
  const v = phpTrim(value);
  if (v === '' || /^\d+$/.test(v)) return null;
  try {
    const url = new URL(v);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
}

/**
 * `ctx` with the images among `values` (a write's `image` values, nested venues' and organizers'
 * included) downloaded: a write runs in one transaction (change-log.ts), and a download of up to
 * ten seconds inside it would hold a database connection (on the embedded database, the only one)
 * meanwhile. Only what `resolveImageRef` would download is: a URL not imported before, for a caller
 * who may upload. A failed download is not thrown here: the write meets it where it resolves the
 * image, after the checks that come first.
 */
export async function prefetchImages(ctx: Context, values: readonly (string | null | undefined)[]): Promise<Context> {
  if (!canUploadFiles(ctx.viewer)) return ctx;
  const ownFiles = ctx.settings.siteUrl ? ctx.settings.siteUrl + UPLOADS_PREFIX : null;
  const urls = [...new Set(values.flatMap((v) => (v ? [importableUrl(v)?.href ?? ''] : [])))].filter((href) => href && !(ownFiles && href.startsWith(ownFiles)));
  if (!urls.length) return ctx;
  const known = await ctx.prisma.attachment.findMany({ where: { OR: [{ url: { in: urls } }, { sourceUrl: { in: urls } }] }, select: { url: true, sourceUrl: true } });
  const seen = new Set(known.flatMap((a) => [a.url, a.sourceUrl]));
  const downloads = new Map<string, Promise<Downloaded>>(ctx.imageDownloads);
  for (const href of urls) {
    if (seen.has(href) || downloads.has(href)) continue;
    const pending = download(new URL(href), 'image', ctx.imageImport);
    pending.catch(() => {}); // met again, and thrown, where the write resolves the image
    downloads.set(href, pending);
  }
  await Promise.allSettled(downloads.values());
  return { ...ctx, imageDownloads: downloads };
}

/**
 * Resolves an `image` write value: an attachment ID, or a URL (imported once, then reused).
 * Returns null for "clear the image" ("" or 0). Blank text (white space as PHP trims it) is refused,
 * and so is a value of Unicode spaces (U+00A0, U+3000, …), which PHP does not trim: neither is an
 * ID or a URL, and the plugin refuses both.
 */
export async function resolveImageRef(ctx: Context, value: string, field = 'image'): Promise<number | null> {
  const v = phpTrim(value);
  // "" removes the image; blank text is not "" (nor an ID or URL): the plugin refuses it.
  if (v === '' && value !== '') throw new ValidationError('The image is blank: send "" to remove it.', field, 'INVALID_IMAGE');
  if (v === '' || v === '0') return null;
  if (/^\d+$/.test(v)) {
    const attachment = isRecordId(Number(v))
      ? await ctx.prisma.attachment.findUnique({ where: { id: Number(v) }, select: { id: true, mimeType: true } })
      : null;
    if (!attachment || !attachment.mimeType.startsWith('image/')) {
      throw new ValidationError(`${v} is not the ID of an image.`, field, 'NOT_AN_IMAGE');
    }
    return attachment.id;
  }
  let url: URL;
  try {
    url = new URL(v);
  } catch {
    throw new ValidationError('The image must be an attachment ID or an absolute URL.', field, 'INVALID_IMAGE');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ValidationError('The image URL must use http or https.', field, 'INVALID_IMAGE');
  }
  // An image given by URL needs `upload_files` whatever the URL, even one imported before (the
  // plugin's validator refuses it before looking: contract §3.1, §7.6).
  if (!canUploadFiles(ctx.viewer)) {
    throw new ValidationError('You are not allowed to upload files.', field, 'UPLOAD_NOT_ALLOWED');
  }
  // A file this service keeps, named by its absolute URL under CAL_SITE_URL: its site-relative path.
  const own = ctx.settings.siteUrl && url.href.startsWith(ctx.settings.siteUrl + UPLOADS_PREFIX) ? url.href.slice(ctx.settings.siteUrl.length) : null;
  const known = await ctx.prisma.attachment.findFirst({
    where: { OR: [{ url: url.href }, { sourceUrl: url.href }, ...(own ? [{ url: own }] : [])] },
    select: { id: true },
  });
  if (known) return known.id;
  return importImageFromUrl(ctx, url, field);
}
