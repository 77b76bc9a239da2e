import type { PrismaClient } from '../../prisma/generated/client/client.ts';
import { ValidationError } from '../domain/errors.ts';

/** The first string field holding a NUL character in a Prisma argument tree, as `where.slug`-like path. */
function nulField(value: unknown, path: string, depth = 0): string | null {
  if (typeof value === 'string') return value.includes('\0') ? path : null;
  if (depth > 12 || value === null || typeof value !== 'object' || value instanceof Date) return null;
  for (const [key, v] of Object.entries(value)) {
    const found = nulField(v, Array.isArray(value) ? path : key, depth + 1);
    if (found !== null) return found;
  }
  return null;
}

/**
 * The one place where input the database cannot store becomes a validation error instead of a
 * 500, whatever the route or operation it came through: a NUL character
 * (PostgreSQL text cannot hold one; refused before any SQL is sent) and a value longer than its
 * column (`varchar(n)`, Prisma P2000). Services check the limits they know first, with better
 * messages; this is the net under them.
 */
export function guardInput(client: PrismaClient) {
  return client.$extends({
    query: {
      $allModels: {
        async $allOperations({ args, query }) {
          const field = nulField(args, 'input');
          if (field !== null) throw new ValidationError('Text cannot contain NUL characters.', field, 'INVALID_CHARACTER');
          try {
            return await query(args);
          } catch (error) {
            const e = error as { code?: string; meta?: { column_name?: string } };
            if (e.code === 'P2000') {
              throw new ValidationError('A value is longer than its field allows.', e.meta?.column_name ?? 'input', 'TOO_LONG');
            }
            throw error;
          }
        },
      },
    },
  });
}

/**
 * The client every query of the service goes through: Prisma's, with the guard above. An extended
 * client is a type of its own (its `$transaction` hands out the extended transaction client; it has
 * no `$on`, `$use`), so code that takes the service's client names this type, not `PrismaClient`.
 */
export type DatabaseClient = ReturnType<typeof guardInput>;
