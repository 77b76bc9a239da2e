import { ValidationError } from '../src/domain/errors.ts';
import { isRecordId } from '../src/domain/ids.ts';
import { getDatamodel } from '../prisma/generated/pothos-types.ts';

/**
 * Keyset cursors: a list's order is a list of sort keys ending with the record's ID (unique), and a
 * cursor holds one record's values of those keys. "After the cursor" is then a condition on the
 * keys, not a position: records inserted, deleted or trashed between two page loads neither shift
 * nor repeat the next page. The cursor names its keys (`startLocal,id`), so a cursor of another
 * list order is refused rather than misread.
 */
export interface SortKey {
  field: string;
  dir: 'asc' | 'desc';
  /** Where nulls sort (PostgreSQL's default unless the order says: last ascending, first descending). */
  nulls: 'first' | 'last';
  nullable: boolean;
  type: 'DateTime' | 'String' | 'Int';
}

export type KeyValue = Date | string | number | null;
type PrismaOrder = Record<string, 'asc' | 'desc' | { sort: 'asc' | 'desc'; nulls?: 'first' | 'last' }>;

let datamodel: ReturnType<typeof getDatamodel> | undefined;

/**
 * The sort keys of a Prisma `orderBy` list on `model` (types and nullability from the Prisma
 * datamodel). The last key must be the ID, which makes the order total (ties by ID).
 */
export function sortKeys(model: string, orderBy: readonly object[]): SortKey[] {
  datamodel ??= getDatamodel();
  const fields = datamodel.datamodel.models[model]?.fields ?? [];
  const keys = (orderBy as PrismaOrder[]).map((entry): SortKey => {
    const [field, spec] = Object.entries(entry)[0]!;
    const column = fields.find((f) => f.name === field);
    if (!column || (column.type !== 'DateTime' && column.type !== 'String' && column.type !== 'Int')) {
      throw new Error(`${model}.${field} cannot be a keyset sort key`);
    }
    const dir = typeof spec === 'string' ? spec : spec.sort;
    const nulls = (typeof spec === 'object' && spec.nulls) || (dir === 'asc' ? 'last' : 'first');
    return { field, dir, nulls, nullable: !column.isRequired, type: column.type };
  });
  if (keys.at(-1)?.field !== 'id') throw new Error(`the order of ${model} must end with its id`);
  return keys;
}

/** The same keys read backwards (a page before a cursor is read from it towards the list's start). */
export const reversed = (keys: readonly SortKey[]): SortKey[] =>
  keys.map((k) => ({ ...k, dir: k.dir === 'asc' ? 'desc' : 'asc', nulls: k.nulls === 'last' ? 'first' : 'last' }));

/** Prisma's `orderBy` for keys (nulls spelled out only where the column may hold them, as Prisma requires). */
export const prismaOrderBy = (keys: readonly SortKey[]): PrismaOrder[] =>
  keys.map((k) => ({ [k.field]: k.nullable ? { sort: k.dir, nulls: k.nulls } : k.dir }));

/** The order's signature a cursor carries: its key names. */
const signature = (keys: readonly SortKey[]) => keys.map((k) => k.field).join(',');

export function encodeCursor(keys: readonly SortKey[], values: readonly KeyValue[]): string {
  const json = values.map((v) => (v instanceof Date ? v.toISOString() : v));
  return Buffer.from(JSON.stringify([signature(keys), ...json])).toString('base64url');
}

/** A cursor's key values; anything that is not a cursor of this order is the caller's mistake (`INVALID_CURSOR`). */
export function decodeCursor(keys: readonly SortKey[], cursor: string, field: 'after' | 'before'): KeyValue[] {
  const invalid = () =>
    new ValidationError(`${field} is not a cursor of this list (use a \`cursor\` or \`pageInfo.endCursor\` it returned).`, field, 'INVALID_CURSOR');
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (!Array.isArray(parsed) || parsed.length !== keys.length + 1 || parsed[0] !== signature(keys)) throw invalid();
  return keys.map((key, i) => {
    const v: unknown = parsed[i + 1];
    if (v === null && key.nullable) return null;
    if (key.type === 'Int' && typeof v === 'number' && Number.isSafeInteger(v) && (key.field !== 'id' || isRecordId(v))) return v;
    if (key.type === 'String' && typeof v === 'string') return v;
    if (key.type === 'DateTime' && typeof v === 'string' && /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/.test(v)) {
      const date = new Date(v);
      if (!Number.isNaN(date.getTime())) return date;
    }
    throw invalid();
  });
}

/** A condition no row meets. */
const NONE = { id: { in: [] as number[] } };

/** Rows strictly after `v` on one key (null when none can be). */
function beyond(k: SortKey, v: KeyValue): object | null {
  if (v === null) return k.nulls === 'last' ? null : { [k.field]: { not: null } };
  const past = { [k.field]: { [k.dir === 'asc' ? 'gt' : 'lt']: v } };
  return k.nullable && k.nulls === 'last' ? { OR: [past, { [k.field]: null }] } : past;
}

/** Rows at or after `v` on one key (null: every row). */
function reaching(k: SortKey, v: KeyValue): object | null {
  if (v === null) return k.nulls === 'last' ? { [k.field]: null } : null;
  const from = { [k.field]: { [k.dir === 'asc' ? 'gte' : 'lte']: v } };
  return k.nullable && k.nulls === 'last' ? { OR: [from, { [k.field]: null }] } : from;
}

/**
 * Rows strictly after the cursor in the order of `keys` (for "before", pass `reversed(keys)`): for
 * `startLocal, id` ascending, `startLocal >= s AND (startLocal > s OR (startLocal = s AND id > i))`.
 * The leading bound on the first key is what lets PostgreSQL walk the list's index from the cursor
 * on (`Event(startLocal, id)`) instead of filtering every row.
 */
export function afterWhere(keys: readonly SortKey[], values: readonly KeyValue[]): object {
  const ways: object[] = [];
  for (let i = 0; i < keys.length; i++) {
    const past = beyond(keys[i]!, values[i]!);
    if (past) ways.push({ AND: [...keys.slice(0, i).map((k, j) => ({ [k.field]: values[j] })), past] });
  }
  if (!ways.length) return NONE;
  const lead = reaching(keys[0]!, values[0]!);
  const any = ways.length === 1 ? ways[0]! : { OR: ways };
  return lead ? { AND: [lead, any] } : any;
}

/** Rows at the cursor or before it (is there anything before a page that starts after it?). */
export function atOrBeforeWhere(keys: readonly SortKey[], values: readonly KeyValue[]): object {
  return { OR: [afterWhere(reversed(keys), values), { AND: keys.map((k, i) => ({ [k.field]: values[i] })) }] };
}

/** Compares two rows' key values in the order of `keys` (for lists ordered in memory). */
export function compareKeys(keys: readonly SortKey[], a: readonly KeyValue[], b: readonly KeyValue[]): number {
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    const x = a[i]!;
    const y = b[i]!;
    if (x === y || (x instanceof Date && y instanceof Date && x.getTime() === y.getTime())) continue;
    if (x === null || y === null) return (x === null) === (k.nulls === 'last') ? 1 : -1;
    const less = x < y;
    return less === (k.dir === 'asc') ? -1 : 1;
  }
  return 0;
}
