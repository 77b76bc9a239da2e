/**
 * Runs a write again when PostgreSQL aborted it for a deadlock or a serialization failure (Prisma
 * P2034). Writes that move term counts lock several shared term rows (see the term-count
 * migration); two writers swapping terms can still cross, and PostgreSQL then aborts one of them.
 * The write is one statement with its nested writes, or one transaction, so running it again is
 * safe. Event writes take the term rows in the triggers' order first (src/services/events.ts), so
 * what is left to retry is rare: a term deleted while an event linking it is written, and the like.
 */
export async function retryOnWriteConflict<T>(write: () => Promise<T>, attempts = 8): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (error) {
      if ((error as { code?: string }).code !== 'P2034' || attempt >= attempts) throw error;
      // Full jitter, doubling up to 640 ms: writers that crossed once do not meet again at once.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * 2 ** Math.min(attempt, 6)));
    }
  }
}
