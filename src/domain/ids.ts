/**
 * 2^31 − 1, the largest GraphQL `Int` and PostgreSQL `integer`: no record ID (posts and terms
 * live in `integer` columns) and no page number can be larger.
 */
export const MAX_INT = 2 ** 31 - 1;

/** Could `n` be the ID of a record? Larger numbers name none (and must never reach a query). */
export function isRecordId(n: number): boolean {
  return Number.isInteger(n) && n >= 1 && n <= MAX_INT;
}
