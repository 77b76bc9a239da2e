/**
 * The JSON Schemas of what the presenters in this folder write (image, wall-clock details, cost
 * details, list envelopes and their headers), beside them so that a change to one is a change to
 * the other; each resource's record schema sits beside its presenter (resources/<kind>/schema.ts).
 * The OpenAPI document names them under `components.schemas`.
 */
import type { JsonSchema } from '../wp/schema.ts';

/** `#/components/schemas/{name}`. */
export const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

/** A value a locked record shows as `null` (redact.ts): its flags. */
export const orNull = (type: string): JsonSchema => ({ type: [type, 'null'] });

/** image.ts: one size of an image, as the attachment metadata keeps it. */
const IMAGE_SIZE: JsonSchema = {
  type: 'object',
  properties: { width: { type: 'integer' }, height: { type: 'integer' }, 'mime-type': { type: 'string' }, url: { type: 'string' } },
};

/** image.ts `presentImage`: the image, empty members dropped. */
const IMAGE: JsonSchema = {
  type: 'object',
  required: ['id'],
  additionalProperties: false,
  properties: {
    url: { type: 'string' },
    id: { type: 'integer' },
    extension: { type: 'string' },
    width: { type: 'integer' },
    height: { type: 'integer' },
    filesize: { type: 'integer' },
    sizes: { type: 'object', additionalProperties: ref('ImageSize') },
  },
};

/** `presentImage`'s answer: the image, or `false` when there is none (and on a locked record). */
export const IMAGE_OR_FALSE: JsonSchema = { oneOf: [{ const: false }, ref('Image')] };

const DIGITS = (n: number) => ({ type: 'string', pattern: `^\\d{${n}}$` });
/** util.ts `dateDetails`: a wall clock cut into zero-padded text parts (TEC's shape: strings, not numbers). */
const DATE_DETAILS: JsonSchema = {
  type: 'object',
  required: ['year', 'month', 'day', 'hour', 'minutes', 'seconds'],
  additionalProperties: false,
  properties: { year: DIGITS(4), month: DIGITS(2), day: DIGITS(2), hour: DIGITS(2), minutes: DIGITS(2), seconds: DIGITS(2) },
};

/** The event presenter's `cost_details` (redact.ts keeps its members, emptied). */
const COST_DETAILS: JsonSchema = {
  type: 'object',
  required: ['currency_symbol', 'currency_code', 'currency_position', 'values'],
  additionalProperties: false,
  properties: {
    currency_symbol: { type: 'string' },
    currency_code: { type: 'string' },
    currency_position: { type: 'string', description: '`prefix` or `postfix`; empty when the event has no cost.' },
    values: { type: 'array', items: { type: 'string' }, description: 'The numeric values of the cost, as text, sorted.' },
  },
};

/** The pieces the records share, by component name. */
export const SHARED_SCHEMAS: Record<string, JsonSchema> = { Image: IMAGE, ImageSize: IMAGE_SIZE, DateDetails: DATE_DETAILS, CostDetails: COST_DETAILS };

/** envelope.ts `listHeaders`: what every list answer carries (TEC's names; no `X-WP-*`, no `Link` pages). */
export const LIST_HEADERS: JsonSchema = {
  'X-TEC-Total': { description: 'Total number of records matching the request.', required: true, schema: { type: 'string', pattern: '^\\d+$' } },
  'X-TEC-TotalPages': { description: 'Total number of pages.', required: true, schema: { type: 'string', pattern: '^\\d+$' } },
};

const URL_MEMBERS = { rest_url: { type: 'string' }, next_rest_url: { type: 'string' }, previous_rest_url: { type: 'string' } };

/** envelope.ts `postEnvelope` and terms' `termsEnvelope`: a page of `collection`, each item a `component`. */
export function listEnvelopeSchema(collection: string, component: string): JsonSchema {
  return {
    type: 'object',
    required: [collection, 'rest_url', 'total', 'total_pages'],
    additionalProperties: false,
    properties: { [collection]: { type: 'array', items: ref(component) }, ...URL_MEMBERS, total: { type: 'integer', minimum: 0 }, total_pages: { type: 'integer', minimum: 0 } },
  };
}

/** The JSON-LD a single read adds (json-ld.ts), as schema.org's vocabulary shapes it. */
/** The WordPress post members every post kind (event, venue, organizer) presents alike, in their order. */
export const POST_MEMBERS: Record<string, JsonSchema> = {
  status: { type: 'string' },
  date: { type: 'string' },
  date_utc: { type: 'string' },
  modified: { type: 'string' },
  modified_utc: { type: 'string' },
  url: { type: 'string' },
};

export const JSON_LD: JsonSchema = { type: 'object', description: 'schema.org JSON-LD of the record (single reads only).' };
