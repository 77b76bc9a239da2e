/**
 * phpass's portable hashes (`$P$…`), as WordPress writes them into its post-password cookie
 * (`wp-postpass_<COOKIEHASH>`: `new PasswordHash(8, true)`, wp-login.php `action=postpass`) and checks
 * them (`post_password_required()`: only `$P$B…`, 2^13 rounds of MD5 over an 8-character salt).
 * Written out here rather than taken from npm: the packages that do it were last released years ago,
 * and the whole algorithm is MD5 from node:crypto in a loop.
 */
import { hash as digest, randomBytes, timingSafeEqual } from 'node:crypto';

const ITOA64 = './0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** phpass refuses longer passwords (a megabyte would cost 8,192 MD5s of a megabyte). */
const MAX_PASSWORD_BYTES = 4096;
/** WordPress's post-password cookies: `$P$` and `B`, 2^13 rounds. */
const WORDPRESS_SETTING = '$P$B';

/** phpass's base-64 (its own alphabet, little-endian groups of three bytes). */
function encode64(input: Buffer, count: number): string {
  let out = '';
  let i = 0;
  do {
    let value = input[i++]!;
    out += ITOA64[value & 0x3f];
    if (i < count) value |= input[i]! << 8;
    out += ITOA64[(value >> 6) & 0x3f];
    if (i++ >= count) break;
    if (i < count) value |= input[i]! << 16;
    out += ITOA64[(value >> 12) & 0x3f];
    if (i++ >= count) break;
    out += ITOA64[(value >> 18) & 0x3f];
  } while (i < count);
  return out;
}

/** phpass's `crypt_private`: the hash of `password` under `setting`'s rounds and salt, or null when the setting is not a portable one. */
function cryptPrivate(password: Buffer, setting: string): string | null {
  if (setting.slice(0, 3) !== '$P$' && setting.slice(0, 3) !== '$H$') return null;
  const log2 = ITOA64.indexOf(setting[3] ?? '');
  if (log2 < 7 || log2 > 30) return null;
  const salt = setting.slice(4, 12);
  if (salt.length !== 8) return null;
  // One buffer for every round (the previous digest, then the password): a fresh hasher per round
  // costs several times the MD5 itself.
  const round = Buffer.alloc(16 + password.length);
  password.copy(round, 16);
  let hash = digest('md5', Buffer.concat([Buffer.from(salt, 'latin1'), password]), 'buffer');
  for (let count = 2 ** log2; count > 0; count--) {
    hash.copy(round, 0);
    hash = digest('md5', round, 'buffer');
  }
  return setting.slice(0, 12) + encode64(hash, 16);
}

/**
 * The cookie value WordPress sets for a post password: `$P$B`, a random salt, the hash.
 * @param password The password as typed.
 * @returns A 34-character portable hash.
 */
export function hashPostPassword(password: string): string {
  const bytes = Buffer.from(password, 'utf8');
  if (bytes.length > MAX_PASSWORD_BYTES) throw new RangeError('password too long');
  return cryptPrivate(bytes, WORDPRESS_SETTING + encode64(randomBytes(6), 6))!;
}

/**
 * phpass's `CheckPassword` for any portable hash (`$P$`/`$H$`, 2^7 to 2^30 rounds).
 * @param password The password to check.
 * @param hash A portable hash.
 */
export function portableHashMatches(password: string, hash: string): boolean {
  const bytes = Buffer.from(password, 'utf8');
  if (bytes.length > MAX_PASSWORD_BYTES) return false;
  const computed = cryptPrivate(bytes, hash);
  return computed !== null && computed.length === hash.length && timingSafeEqual(Buffer.from(computed), Buffer.from(hash));
}

/**
 * Whether a post-password cookie was made from this password, as `post_password_required()`
 * decides it: only WordPress's own setting (`$P$B`) is accepted, so a cookie cannot ask for 2^30 rounds.
 * @param password The record's password.
 * @param cookie The cookie's value.
 */
export function postPasswordMatches(password: string, cookie: string): boolean {
  return cookie.startsWith(WORDPRESS_SETTING) && cookie.length === 34 && portableHashMatches(password, cookie);
}
