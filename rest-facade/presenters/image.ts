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
  const out: JsonObject = { url: absoluteImageUrl(image.url, site), id: image.databaseId, extension: image.extension };
  const meta: Array<[string, unknown]> = [
    ['width', image.width],
    ['height', image.height],
    ['filesize', image.filesize],
    ['sizes', image.sizes],
  ];
  for (const [k, v] of meta) if (!isEmptyValue(v)) out[k] = v;
  for (const k of ['url', 'extension'] as const) if (isEmptyValue(out[k])) delete out[k];
  return out;
}
