/**
 * The public pages' post-password cookie (WordPress's `wp-postpass_<COOKIEHASH>`): the phpass hash of
 * the last password a visitor entered in a password form (src/domain/phpass.ts). The pages put it in
 * the request's Context; `isLocked` (visibility.ts) opens a protected record whose password it was
 * made from, and marks that the answer depended on it (the cache policy reads `decided`).
 */
import { createHmac, randomBytes } from 'node:crypto';
import { postPasswordMatches } from '../domain/phpass.ts';

export interface PostPass {
  /** The cookie's value; null when the request carries none. */
  readonly cookie: string | null;
  /** A password-protected record was decided: this answer depends on the cookie, whether or not the request had one. */
  decided: boolean;
}

/** The Context's post-password state of a page request (`cookie`: the cookie's value, if any). */
export function createPostPass(cookie: string | null | undefined): PostPass {
  return { cookie: cookie || null, decided: false };
}

// Checks already made: phpass's 8,192 MD5 rounds cost milliseconds, and a visitor who entered a
// password reads every page with that cookie. Keyed by an HMAC under a per-process key, so what is
// kept in memory tells nothing about the passwords; bounded, oldest first out.
const MEMO_MAX = 2_000;
const memoKey = randomBytes(32);
const memo = new Map<string, boolean>();

/** Whether the cookie of `pass` was made from `password` (WordPress's `post_password_required()` check). */
export function postPassOpens(pass: PostPass, password: string): boolean {
  if (pass.cookie === null) return false;
  const key = createHmac('sha256', memoKey).update(pass.cookie).update('\0').update(password).digest('base64url');
  const known = memo.get(key);
  if (known !== undefined) return known;
  const opens = postPasswordMatches(password, pass.cookie);
  memo.set(key, opens);
  if (memo.size > MEMO_MAX) memo.delete(memo.keys().next().value!);
  return opens;
}
