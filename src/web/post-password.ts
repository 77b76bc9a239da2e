/**
 * WordPress's post-password cookie on the pages: `wp-postpass_<COOKIEHASH>` (COOKIEHASH: the MD5 of
 * the site URL) holding the phpass hash of the last password entered in a password form, for ten
 * days, on the site's path. Pages and feeds read it into the request's Context (the core's
 * `isLocked` decides with it, src/services/visibility.ts); the password form posts here.
 *
 * As WordPress writes it (PHP's `setcookie()` URL-encodes the value), so a cookie set by the
 * WordPress site this calendar replaced, on the same host, still opens its events. Unlike
 * WordPress it is `HttpOnly` and `SameSite=Lax`: no script of the page needs it.
 */
import { createHash } from 'node:crypto';
import type { Context } from 'koa';
import type { WpUrls } from '../../rest-facade/wp/types.ts';
import { BodyTooLargeError, readRawBody } from '../../rest-facade/wp/body.ts';
import { hashPostPassword } from '../domain/phpass.ts';
import type { AppState } from '../services/context.ts';
import { createPostPass } from '../services/post-pass.ts';

/** WordPress's `post_password_expires` default. */
const LIFETIME_MS = 10 * 24 * 3600 * 1000;
/** A form with one password field (phpass takes at most 4,096 bytes, percent-encoded at most three times that). */
export const FORM_LIMIT = 16 * 1024;

/** `wp-postpass_` and the MD5 of the site URL (WordPress's COOKIEHASH of its `siteurl`). */
export function postPassCookieName(urls: Pick<WpUrls, 'site'>): string {
  return `wp-postpass_${createHash('md5').update(urls.site).digest('hex')}`;
}

/** WordPress's COOKIEPATH: the site's path with a trailing slash. */
function cookiePath(urls: Pick<WpUrls, 'site'>): string {
  return new URL(urls.site).pathname.replace(/\/?$/, '/');
}

/**
 * Puts the visitor's post-password cookie (or its absence) into the request's Context, so that the
 * core can open what it was made for and the cache policy can tell the answer depends on it.
 */
export function readPostPass(ctx: Context, urls: Pick<WpUrls, 'site'>): void {
  const state = ctx.state as AppState;
  if (!state.cal || state.cal.postPass) return;
  const raw = ctx.cookies.get(postPassCookieName(urls));
  let cookie = raw ?? null;
  try {
    if (raw) cookie = decodeURIComponent(raw);
  } catch {
    // Not percent-encoding: kept as it is (it opens nothing; the answer is still the visitor's own).
  }
  state.cal = { ...state.cal, postPass: createPostPass(cookie) };
}

/** Sets the cookie of a password the visitor entered rightly (ten days from now by the wall clock: the browser's, not the calendar's). */
export function setPostPass(ctx: Context, urls: Pick<WpUrls, 'site'>, password: string): void {
  ctx.cookies.set(postPassCookieName(urls), encodeURIComponent(hashPostPassword(password)), {
    expires: new Date(Date.now() + LIFETIME_MS),
    path: cookiePath(urls),
    httpOnly: true,
    sameSite: 'lax',
    secure: ctx.secure,
    overwrite: true,
  });
}

/** The password a form posted, or why it cannot be read (`status`: 413 or 415). */
export async function postedPassword(ctx: Context): Promise<{ password: string } | { status: 413 | 415 }> {
  const type = (ctx.get('Content-Type').split(';')[0] ?? '').trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') {
    ctx.req.resume();
    return { status: 415 };
  }
  let body: Buffer;
  try {
    body = await readRawBody(ctx.req, FORM_LIMIT);
  } catch (error) {
    if (error instanceof BodyTooLargeError) return { status: 413 };
    throw error;
  }
  return { password: new URLSearchParams(body.toString('utf8')).get('post_password') ?? '' };
}
