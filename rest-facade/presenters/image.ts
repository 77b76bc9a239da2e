/** Image representation (§4.2.3). */
import type { RestImageFragment } from '../generated/operations.ts';
import { isEmptyValue, type JsonObject } from './util.ts';

/** An image URL as REST shows it: a file this service keeps (site-relative) becomes absolute under the site. */
export function absoluteImageUrl(url: string, site: string): string {
  return url.startsWith('/') ? site + url : url;
}

/**
 * `false` when there is no image; otherwise `url`, `id`, `extension` merged with the attachment
 * metadata (`width`, `height`, `filesize`, `sizes`), empty members dropped.
 */
export function presentImage(image: RestImageFragment | null | undefined, site: string): JsonObject | false {
  if (!image || !image.url) return false;
  // Member by member, in this order (no list of pairs per image: a page presents over a hundred).
  const out: JsonObject = {};
  const url = absoluteImageUrl(image.url, site);
  if (!isEmptyValue(url)) out.url = url;
  out.id = image.databaseId;
  if (!isEmptyValue(image.extension)) out.extension = image.extension;
  if (!isEmptyValue(image.width)) out.width = image.width;
  if (!isEmptyValue(image.height)) out.height = image.height;
  if (!isEmptyValue(image.filesize)) out.filesize = image.filesize;
  if (!isEmptyValue(image.sizes)) out.sizes = image.sizes;
  return out;
}
