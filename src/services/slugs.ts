import { nextSlugCandidate, slugify } from '../domain/slug.ts';

/** Prisma's unique-constraint violation on a column named `slug`. */
export function isSlugConflict(error: unknown): boolean {
  const e = error as { code?: string; meta?: Record<string, unknown>; message?: string };
  if (e?.code !== 'P2002') return false;
  return JSON.stringify(e.meta ?? {}).includes('slug') || String(e.message).includes('slug');
}

/**
 * Inserts (or updates) a record under a slug unique per kind, suffixing `-2`, `-3`… on clashes.
 * Two concurrent writers may pick the same candidate; the unique index refuses the second, which
 * then retries with the next free suffix: never an error, never a duplicate.
 */
export async function writeWithUniqueSlug<T>(
  wanted: string,
  takenLike: (base: string) => Promise<string[]>,
  write: (slug: string) => Promise<T>,
): Promise<T> {
  const base = slugify(wanted) || 'untitled';
  for (let attempt = 0; attempt < 50; attempt++) {
    const slug = nextSlugCandidate(base, await takenLike(base));
    try {
      return await write(slug);
    } catch (error) {
      if (!isSlugConflict(error)) throw error;
    }
  }
  throw new Error(`could not find a free slug for "${base}"`);
}
