/**
 * Slugs (contract §6 by-slug lookups, §7.5 generation), after WordPress `sanitize_title`.
 */
import slugifyLib from '@sindresorhus/slugify';
import { stripTags } from './text.ts';

export const MAX_SLUG_LENGTH = 200;

/**
 * WordPress `sanitize_title` (save context), closely enough: tags stripped, entities killed, accents
 * folded to ASCII (`é` → `e`, `ß` → `ss`, `æ` → `ae`), lower-cased, whitespace, `.`, `/` and dashes
 * → `-`, every other punctuation character dropped (`Rock & Roll` → `rock-roll`, `Don't` → `dont`),
 * `_` kept, dashes collapsed and trimmed, at most 200 characters.
 */
export function slugify(text: string | null | undefined): string {
  let t = String(text ?? '');
  t = stripTags(t);
  t = t.replace(/&(?:nbsp|#160|ndash|#8211|mdash|#8212);/gi, '-').replace(/&[^\s&;]+;/g, '');
  // remove_accents: strip combining marks so `ü` folds to `u` (not the German `ue`).
  t = t.normalize('NFD').replace(/\p{M}+/gu, '').normalize('NFC');
  // Separators in WordPress: whitespace, `.`, `/`, nbsp, en and em dashes.
  t = t.replace(/[\s.\/\u00a0\u2013\u2014\u2012\u2015-]+/gu, ' ');
  // Everything else that is not a letter, digit or `_` is dropped without leaving a separator.
  t = t.replace(/[^\p{L}\p{N}_ ]+/gu, '');
  const slug = slugifyLib(t, {
    decamelize: false,
    preserveCharacters: ['_'],
    customReplacements: [
      ['&', ''],
      ['%', ''],
    ],
  });
  return truncateSlug(slug, MAX_SLUG_LENGTH);
}

/** Cuts a slug to `length` characters and drops trailing dashes (`_truncate_post_slug`). */
export function truncateSlug(slug: string, length = MAX_SLUG_LENGTH): string {
  if (slug.length <= length) return slug;
  return slug.slice(0, length).replace(/-+$/, '');
}

/**
 * Normalizes a slug given for a lookup (`/events/by-slug/{slug}`, `categories=jazz`): lower-cased,
 * every character other than letters, digits, `-` and `_` dropped. `''` when nothing is left.
 */
export function normalizeSlugLookup(text: string | null | undefined): string {
  return String(text ?? '')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}_-]+/gu, '');
}

/**
 * The first free slug: `base` itself, else `base-2`, `base-3`, … (`wp_unique_post_slug`); the base is
 * shortened so the result stays within 200 characters.
 */
export function nextSlugCandidate(base: string, taken: Iterable<string>): string {
  const used = new Set(taken);
  if (!used.has(base)) return base;
  for (let n = 2; ; n++) {
    const suffix = `-${n}`;
    const candidate = `${truncateSlug(base, MAX_SLUG_LENGTH - suffix.length)}${suffix}`;
    if (!used.has(candidate)) return candidate;
  }
}

/** Slug of a trashed record (`…__trashed`). */
export function trashedSlug(slug: string): string {
  return slug.endsWith('__trashed') ? slug : `${slug}__trashed`;
}

/** The slug a trashed record had before (`x__trashed`, `x__trashed-2` → `x`). */
export function untrashedSlug(slug: string): string {
  return slug.replace(/__trashed(-\d+)?$/, '');
}
