import type { Middleware } from 'koa';
import type { Database } from '../db/database.ts';
import { notModified } from '../domain/conditional-get.ts';
import { readUpload, uploadPathOf, UPLOADS_PREFIX } from '../services/uploads.ts';

/**
 * `GET|HEAD /wp-content/uploads/<path>` (also under the path of CAL_SITE_URL): the image files this
 * service keeps (src/services/uploads.ts). A stored file never changes under its path, so it is
 * cached for a year (`immutable`); its ETag is the SHA-256 of the bytes.
 */
export function uploadsMiddleware(db: Database, opts: { uploadsDir?: string; siteUrl?: string }): Middleware {
  const sitePath = opts.siteUrl ? new URL(opts.siteUrl).pathname.replace(/\/+$/, '') : '';
  const prefixes = [...new Set([UPLOADS_PREFIX, sitePath + UPLOADS_PREFIX])];
  return async (ctx, next) => {
    const prefix = prefixes.find((p) => ctx.path.startsWith(p));
    if (!prefix) return next();
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      ctx.status = 405;
      ctx.set('Allow', 'GET, HEAD');
      return;
    }
    const relative = uploadPathOf(UPLOADS_PREFIX + ctx.path.slice(prefix.length));
    const file = relative === null ? null : await readUpload(db.prisma, opts.uploadsDir, relative);
    if (!file) {
      ctx.status = 404;
      ctx.type = 'text/plain';
      ctx.body = 'Not found.';
      return;
    }
    const etag = `"${file.sha256}"`;
    ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
    ctx.set('ETag', etag);
    ctx.set('X-Content-Type-Options', 'nosniff');
    if (notModified(ctx, etag, null)) {
      ctx.status = 304;
      return;
    }
    ctx.type = file.mimeType;
    ctx.body = file.bytes; // Koa sends no body for HEAD
  };
}
