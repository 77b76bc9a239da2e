import type { Context } from './context.ts';
import { canUploadFiles } from '../domain/capabilities.ts';
import { ValidationError } from '../domain/errors.ts';
import { isRecordId } from '../domain/ids.ts';
import { phpTrim } from '../domain/text.ts';
import { importImageFromUrl } from './image-import.ts';
import { UPLOADS_PREFIX } from './uploads.ts';

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
