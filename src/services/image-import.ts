import type { LookupAddress } from 'node:dns';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { createRequire } from 'node:module';
import type { imageSize } from 'image-size';
import { ValidationError } from '../domain/errors.ts';
import { OutboundRefusal, pinnedLookup, resolveOutboundUrl, type OutboundPolicy } from './outbound-url.ts';
import { storeUpload, uploadUrl, wantedUploadPath, type UploadContext } from './uploads.ts';

/** image-size is loaded on the first image import, not at start (its CommonJS build: synchronous). */
const requireHere = createRequire(import.meta.url);
let imageSizeFn: typeof imageSize | undefined;
const loadImageSize = () => (imageSizeFn ??= (requireHere('image-size') as typeof import('image-size')).imageSize);

/**
 * Importing an image by URL: download it (over http/https only, size- and time-limited, a few
 * redirects at most, every hop checked against private networks and pinned to the checked
 * address), verify it is a raster image, keep the file (src/services/uploads.ts: served by this
 * service under `/wp-content/uploads/`, the source's own path kept when it has one) and record it as
 * an Attachment whose `url` is that local path and `sourceUrl` the URL it came from.
 */

/** `allowPrivate`: CAL_ALLOW_PRIVATE_IMAGE_URLS. */
export interface ImageImportOptions extends OutboundPolicy {
  /** Largest accepted download, counted while streaming. */
  maxBytes: number;
  /** Time for the whole import download, redirects and DNS included. */
  timeoutMs: number;
  /** Redirects followed at most. */
  maxRedirects: number;
  /** Where downloaded image files are kept (CAL_UPLOADS_DIR); unset: in the database. */
  uploadsDir?: string;
}

/** The policy when none is given: public addresses only (config: CAL_ALLOW_PRIVATE_IMAGE_URLS). */
export const DEFAULT_IMAGE_IMPORT: ImageImportOptions = {
  allowPrivate: false,
  allowedHosts: [],
  maxBytes: 10 * 1024 * 1024,
  timeoutMs: 10_000,
  maxRedirects: 3,
};

/**
 * What an import reads of the request context. A Context of src/services/context.ts is one; that
 * module holds these options and their default, so it imports this one and not the other way.
 */
type ImportContext = UploadContext & { imageImport: ImageImportOptions; now: Date; viewer: { id: number } | null; imageDownloads?: ImageDownloads };

/** Downloads a write started before its transaction, by URL (src/services/images.ts, `prefetchImages`). */
export type ImageDownloads = ReadonlyMap<string, Promise<Downloaded>>;

/** The raster formats we accept, by the MIME type stored on the attachment. */
const RASTER_TYPES = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/gif': 'gif',
  'image/webp': 'webp',
} as const;
type RasterMime = keyof typeof RASTER_TYPES;

/**
 * Downloads an image URL into a new attachment (or the existing one for that URL), under the
 * caller's import policy (`ctx.imageImport`, from the validated config); `id`: the post ID to give
 * it (a free one, when an import keeps the source's IDs), else the next one.
 */
export async function importImageFromUrl(ctx: ImportContext, url: URL, field: string, id?: number): Promise<number> {
  const opts = ctx.imageImport;
  const source = url.href;
  const { body, contentType, finalUrl } = await (ctx.imageDownloads?.get(source) ?? download(url, field, opts));
  const image = inspectImage(body, contentType, field);
  const local = uploadUrl(await storeUpload(ctx, wantedUploadPath(url, image.mimeType, ctx.now), body, image.mimeType));
  // Another source URL gave the very same file (same path, same bytes): one attachment for both.
  const same = await ctx.prisma.attachment.findUnique({ where: { url: local }, select: { id: true } });
  if (same) return same.id;
  const data = {
    title: titleFromUrl(url) || titleFromUrl(finalUrl) || 'image',
    url: local,
    sourceUrl: source,
    mimeType: image.mimeType,
    width: image.width,
    height: image.height,
    filesize: body.length,
    authorId: ctx.viewer?.id ?? null,
  };
  try {
    // One nested write: the post ID row and the attachment are created (or rolled back) together.
    const post = await ctx.prisma.post.create({
      data: { ...(id ? { id } : {}), type: 'ATTACHMENT', attachment: { create: data } },
      select: { id: true },
    });
    return post.id;
  } catch (error) {
    // A concurrent import of the same URL won the unique `sourceUrl`/`url`: use its attachment.
    if ((error as { code?: string }).code !== 'P2002') throw error;
    const existing = await ctx.prisma.attachment.findFirst({
      where: { OR: [{ sourceUrl: source }, { url: source }] },
      select: { id: true },
    });
    if (existing) return existing.id;
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------
// Address policy (src/services/outbound-url.ts, shared with webhook deliveries)

const REFUSALS: Record<OutboundRefusal['reason'], { message: (host: string) => string; code: string }> = {
  scheme: { message: () => 'The image URL must use http or https.', code: 'IMAGE_URL_FORBIDDEN' },
  credentials: { message: () => 'The image URL must not contain a user name or password.', code: 'IMAGE_URL_FORBIDDEN' },
  unresolved: { message: (host) => `The image host ${host} could not be resolved.`, code: 'IMAGE_FETCH_FAILED' },
  private: { message: () => 'The image URL points to a private, loopback or reserved network address.', code: 'IMAGE_URL_FORBIDDEN' },
};

/** Checks one hop's URL and resolves its host; the returned addresses are the only ones dialled. */
async function resolveTarget(url: URL, field: string, opts: ImageImportOptions, signal: AbortSignal): Promise<LookupAddress[]> {
  try {
    return await resolveOutboundUrl(url, opts, signal);
  } catch (e) {
    if (!(e instanceof OutboundRefusal)) throw e;
    const refusal = REFUSALS[e.reason];
    throw new ValidationError(refusal.message(e.host), field, refusal.code);
  }
}

// ---------------------------------------------------------------------------------------------
// Download

class TooLarge extends Error {}

export interface Downloaded {
  body: Buffer;
  contentType: string | undefined;
  finalUrl: URL;
}

export async function download(url: URL, field: string, opts: ImageImportOptions): Promise<Downloaded> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), opts.timeoutMs);
  try {
    let current = url;
    for (let redirects = 0; ; redirects++) {
      const addresses = await resolveTarget(current, field, opts, controller.signal);
      const res = await get(current, addresses, controller.signal);
      const status = res.statusCode ?? 0;
      if ([301, 302, 303, 307, 308].includes(status)) {
        res.destroy();
        const location = res.headers.location;
        if (!location) {
          throw new ValidationError(`The image URL redirected (HTTP ${status}) without a location.`, field, 'IMAGE_FETCH_FAILED');
        }
        if (redirects >= opts.maxRedirects) {
          throw new ValidationError(
            `The image URL redirected more than ${opts.maxRedirects} times.`,
            field,
            'IMAGE_FETCH_FAILED',
          );
        }
        try {
          current = new URL(location, current);
        } catch {
          throw new ValidationError('The image URL redirected to an invalid location.', field, 'IMAGE_FETCH_FAILED');
        }
        continue;
      }
      if (status < 200 || status > 299) {
        res.destroy();
        throw new ValidationError(`The image URL answered with HTTP ${status}.`, field, 'IMAGE_FETCH_FAILED');
      }
      const contentType = mediaType(res.headers['content-type']);
      if (contentType !== undefined && !maybeImageType(contentType)) {
        res.destroy();
        throw notAnImage(contentType, field);
      }
      const declared = Number(res.headers['content-length']);
      if (Number.isFinite(declared) && declared > opts.maxBytes) {
        res.destroy();
        throw tooLarge(opts, field);
      }
      const body = await readBody(res, opts.maxBytes, controller.signal);
      return { body, contentType, finalUrl: current };
    }
  } catch (e) {
    if (e instanceof ValidationError) throw e;
    if (e instanceof TooLarge) throw tooLarge(opts, field);
    if (controller.signal.aborted) {
      throw new ValidationError(
        `The image download did not finish within ${formatSeconds(opts.timeoutMs)}.`,
        field,
        'IMAGE_TIMEOUT',
      );
    }
    const reason = (e as NodeJS.ErrnoException).code ?? (e as Error).message;
    throw new ValidationError(`The image could not be downloaded (${reason}).`, field, 'IMAGE_FETCH_FAILED');
  } finally {
    clearTimeout(timer);
  }
}

function get(url: URL, addresses: LookupAddress[], signal: AbortSignal): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const client = url.protocol === 'https:' ? https : http;
    const req = client.request(
      url,
      {
        method: 'GET',
        agent: false,
        lookup: pinnedLookup(addresses),
        signal,
        headers: {
          accept: 'image/webp,image/png,image/jpeg,image/gif,image/*;q=0.8',
          'accept-encoding': 'identity',
          'user-agent': 'cal-events image import',
        },
      },
      resolve,
    );
    req.on('error', reject);
    req.end();
  });
}

async function readBody(res: IncomingMessage, maxBytes: number, signal: AbortSignal): Promise<Buffer> {
  const onAbort = () => res.destroy(new Error('aborted'));
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of res as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > maxBytes) {
        res.destroy();
        throw new TooLarge();
      }
      chunks.push(chunk);
    }
    if (!res.complete) throw new Error('the connection closed before the whole image arrived');
    return Buffer.concat(chunks, size);
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

function tooLarge(opts: ImageImportOptions, field: string): ValidationError {
  return new ValidationError(`The image is larger than ${formatBytes(opts.maxBytes)}.`, field, 'IMAGE_TOO_LARGE');
}

function formatBytes(n: number): string {
  if (n >= 1024 * 1024 && n % (1024 * 1024) === 0) return `${n / (1024 * 1024)} MiB`;
  if (n >= 1024 && n % 1024 === 0) return `${n / 1024} KiB`;
  return `${n} bytes`;
}

function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

// ---------------------------------------------------------------------------------------------
// Content checks

function mediaType(header: string | undefined): string | undefined {
  const value = header?.split(';')[0]?.trim().toLowerCase();
  return value ? value : undefined;
}

/** Content-Types that may carry a raster image (servers often send octet-stream). */
function maybeImageType(type: string): boolean {
  if (type === 'image/svg+xml') return false;
  return type.startsWith('image/') || type === 'application/octet-stream' || type === 'binary/octet-stream';
}

function notAnImage(contentType: string | undefined, field: string): ValidationError {
  if (contentType === 'image/svg+xml') {
    return new ValidationError('SVG images are not accepted; use a JPEG, PNG, GIF or WebP image.', field, 'NOT_AN_IMAGE');
  }
  const got = contentType ? ` (the server sent ${contentType})` : '';
  return new ValidationError(`The URL is not a JPEG, PNG, GIF or WebP image${got}.`, field, 'NOT_AN_IMAGE');
}

/** The raster format the bytes' magic numbers identify, or null. */
export function sniffImageType(bytes: Uint8Array): RasterMime | null {
  const at = (offset: number, ascii: string) =>
    bytes.length >= offset + ascii.length && Buffer.from(bytes.subarray(offset, offset + ascii.length)).toString('latin1') === ascii;
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (at(0, '\x89PNG\r\n\x1a\n')) return 'image/png';
  if (at(0, 'GIF87a') || at(0, 'GIF89a')) return 'image/gif';
  if (at(0, 'RIFF') && at(8, 'WEBP')) return 'image/webp';
  return null;
}

function looksLikeSvg(bytes: Buffer): boolean {
  const head = bytes.subarray(0, 4096).toString('utf8').replace(/^\uFEFF/, '').trimStart().toLowerCase();
  return head.startsWith('<') && head.includes('<svg');
}

export function inspectImage(
  body: Buffer,
  contentType: string | undefined,
  field: string,
): { mimeType: RasterMime; width: number; height: number } {
  const sniffed = sniffImageType(body);
  if (!sniffed) throw notAnImage(looksLikeSvg(body) ? 'image/svg+xml' : contentType, field);
  let size: ReturnType<typeof imageSize>;
  try {
    // image-size reads through a DataView over `body.buffer` without bounding it to the view, so a
    // small Buffer sharing Node's pool would let it read past the end into unrelated bytes (a
    // truncated file then "passes"). Hand it a copy that owns exactly these bytes.
    size = loadImageSize()(new Uint8Array(body));
  } catch {
    throw new ValidationError('The image file is damaged or incomplete.', field, 'NOT_AN_IMAGE');
  }
  if (size.type !== RASTER_TYPES[sniffed] || !(size.width > 0) || !(size.height > 0)) {
    throw new ValidationError('The image file is damaged or incomplete.', field, 'NOT_AN_IMAGE');
  }
  // EXIF orientations 5–8 are displayed rotated a quarter turn: report the displayed dimensions.
  const rotated = size.orientation !== undefined && size.orientation >= 5;
  return {
    mimeType: sniffed,
    width: rotated ? size.height : size.width,
    height: rotated ? size.width : size.height,
  };
}

/** The file name of the URL's path, decoded, without its extension ("sunset" for …/sunset.jpg). */
function titleFromUrl(url: URL): string {
  const segment = url.pathname.split('/').filter(Boolean).pop() ?? '';
  let name: string;
  try {
    name = decodeURIComponent(segment);
  } catch {
    name = segment;
  }
  return name
    .replace(/\.[^.]+$/, '')
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .trim()
    .slice(0, 200);
}
