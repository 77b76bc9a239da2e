import { decodeGlobalID, encodeGlobalID } from '@pothos/plugin-relay';
import { ValidationError } from '../src/domain/errors.ts';
import { isRecordId } from '../src/domain/ids.ts';

/**
 * One identity (README, Schema conventions): every `id` field is a record's global ID
 * (`base64("Type:databaseId")`), and every argument that names a record is an `ID` that takes that
 * global ID, or the record's `databaseId` (a number, or a string of digits) for clients that speak
 * database IDs, such as the REST facade. A global ID never consists of digits only, so the two
 * forms cannot be confused.
 */
const NODE_TYPES = ['Event', 'Venue', 'Organizer', 'Image', 'EventCategory', 'EventTag', 'User', 'WebhookEndpoint', 'WebhookDelivery'] as const;
export type NodeTypeName = (typeof NODE_TYPES)[number];

export const globalId = (typename: NodeTypeName, databaseId: number) => encodeGlobalID(typename, databaseId);

/** A decoded global ID, or the client's mistake when the text is none of ours (`BAD_USER_INPUT`). */
export function decodeGlobalId(value: string, field: string): { typename: string; id: number } | ValidationError {
  let decoded: { typename: string; id: string } | undefined;
  try {
    decoded = decodeGlobalID(value);
  } catch {
    decoded = undefined;
  }
  if (decoded && /^[1-9]\d{0,15}$/.test(decoded.id)) return { typename: decoded.typename, id: Number(decoded.id) };
  const shown = JSON.stringify(value.length > 60 ? value.slice(0, 60) + '…' : value);
  return new ValidationError(`${shown} is not a global ID of this API (the \`id\` field of a record).`, field, 'BAD_USER_INPUT');
}

const label = (types: readonly NodeTypeName[]) => types.join(' or ');

/**
 * The database ID an `ID` argument names: a global ID of one of `types`, or a database ID.
 * `zero`: "0" is accepted (and returned) where it means "none" (`parentId: 0` clears the parent).
 */
export function recordId(value: string | number, types: readonly NodeTypeName[], field: string, opts: { zero?: boolean } = {}): number {
  const text = String(value).trim();
  if (/^\d+$/.test(text)) {
    const n = Number(text);
    if (isRecordId(n) || (opts.zero && n === 0)) return n;
    throw new ValidationError(`${text} is not the ID of a ${label(types)}.`, field, 'BAD_USER_INPUT');
  }
  const decoded = decodeGlobalId(text, field);
  if (decoded instanceof ValidationError) throw decoded;
  if (!(types as readonly string[]).includes(decoded.typename) || !isRecordId(decoded.id)) {
    throw new ValidationError(`${JSON.stringify(text)} is the ID of a ${decoded.typename}, not of a ${label(types)}.`, field, 'WRONG_KIND');
  }
  return decoded.id;
}

/** `recordId` for an optional argument: null and undefined pass through. */
export function optionalRecordId(
  value: string | number | null | undefined,
  types: readonly NodeTypeName[],
  field: string,
  opts?: { zero?: boolean },
): number | null | undefined {
  return value === null || value === undefined ? value : recordId(value, types, field, opts);
}

/** `recordId` for each item of an optional list argument. */
export function recordIds(values: readonly (string | number)[] | null | undefined, types: readonly NodeTypeName[], field: string): number[] | null | undefined {
  return values === null || values === undefined ? values : values.map((v) => recordId(v, types, field));
}

/**
 * A reference that may also be a slug, a name or a URL (`categories`, `tags`, `image`): a global
 * ID of one of `types` becomes its database ID (digits), anything else is left to the service.
 */
export function referenceText(value: string, types: readonly NodeTypeName[], field: string): string {
  const text = value.trim();
  if (/^\d+$/.test(text) || !/^[A-Za-z0-9+/]+=*$/.test(text)) return value;
  const decoded = decodeGlobalId(text, field);
  if (decoded instanceof ValidationError || !(NODE_TYPES as readonly string[]).includes(decoded.typename)) return value;
  return String(recordId(text, types, field));
}
