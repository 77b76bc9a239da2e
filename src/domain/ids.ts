/** Largest ID a record can have: posts and terms live in PostgreSQL `integer` columns. */
export const MAX_RECORD_ID = 2 ** 31 - 1;

/** Could `n` be the ID of a record? Larger numbers name none (and must never reach a query). */
export function isRecordId(n: number): boolean {
  return Number.isInteger(n) && n >= 1 && n <= MAX_RECORD_ID;
}
