/**
 * Runs a write again when PostgreSQL aborted it for a deadlock or a serialization failure (Prisma
 * P2034). Writes that move term counts lock several shared term rows (see the term-count
 * migration); two writers swapping terms can still cross, and PostgreSQL then aborts one of them.
 * The write is one statement with its nested writes, so running it again is safe.
 */
export async function retryOnWriteConflict<T>(write: () => Promise<T>, attempts = 5): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (error) {
      if ((error as { code?: string }).code !== 'P2034' || attempt >= attempts) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * attempt));
    }
  }
}
