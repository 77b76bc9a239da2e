/**
 * The wire form of what the facade accepts and answers, as JSON Schema 2020-12 (the dialect of
 * OpenAPI 3.1): the forms the argument step (route.ts, coerce.ts) accepts for each declared type,
 * the schema a validator carries beside its check, and the WordPress error body. The OpenAPI
 * document (src/web/openapi.ts) is assembled from these and from the presenters' schemas, so
 * that what it promises is what the code beside it does.
 */
import type { ArgMap, ArgSpec } from './types.ts';

export type JsonSchema = Record<string, unknown>;

/** A validator with the JSON Schema of the raw values it lets through. */
export type Described<F> = F & { readonly schema: JsonSchema };

/** `fn`, carrying `schema`: the request side of the document reads it where the check is declared. */
export function described<F extends (...args: never[]) => unknown>(fn: F, schema: JsonSchema): Described<F> {
  return Object.assign(fn, { schema });
}

// §1.4: what each declared type accepts. Query strings and form bodies are text, so each type
// has its text form beside the JSON one (`"12"`, `"true"`, `"1"`).
// PHP `is_numeric` text of an integral value: digits, `12.0`, or an exponent form (`1e3`; one
// whose value is not integral, `1.5e0`, is the one leniency of the document over the service).
const WS = '[ \\t\\n\\r\\v\\f]*';
const EXPONENT = '(\\d+(\\.\\d*)?|\\.\\d+)[eE]\\+?\\d+';
const INTEGER_TEXT = `^${WS}[+-]?(\\d+(\\.0*)?|${EXPONENT})${WS}$`;
const NUMBER_TEXT = '^[ \\t\\n\\r\\v\\f]*[+-]?(\\d+(\\.\\d*)?|\\.\\d+)([eE][+-]?\\d+)?[ \\t\\n\\r\\v\\f]*$';
const BOOLEAN_TEXT = '^([tT][rR][uU][eE]|[fF][aA][lL][sS][eE]|[01])$';

export const WIRE_INTEGER: JsonSchema = { anyOf: [{ type: 'integer' }, { type: 'string', pattern: INTEGER_TEXT }] };
export const WIRE_NUMBER: JsonSchema = { anyOf: [{ type: 'number' }, { type: 'string', pattern: NUMBER_TEXT }] };
export const WIRE_BOOLEAN: JsonSchema = { anyOf: [{ type: 'boolean' }, { enum: [0, 1] }, { type: 'string', pattern: BOOLEAN_TEXT }] };
/** A positive integer no larger than a record ID can be (`is_positive_int`). */
export const WIRE_POSITIVE_INTEGER: JsonSchema = {
  anyOf: [{ type: 'integer', minimum: 1, maximum: 2147483647 }, { type: 'string', pattern: `^${WS}\\+?(0*[1-9]\\d{0,9}(\\.0*)?|0*[1-9]\\d*(\\.\\d*)?[eE]\\+?\\d+)${WS}$` }],
};
/** A list parameter (§1.2): a JSON or `x[]=` array, or comma-separated text. */
export const wireList = (item: JsonSchema): JsonSchema => ({ anyOf: [{ type: 'array', items: item }, { type: 'string' }, ...(item.type === 'integer' ? [{ type: 'integer' }] : [])] });

/**
 * The raw values an argument accepts, from its table entry: the schema its validator carries,
 * else its declared type's wire form, else its shape (`accept`).
 */
export function argWireSchema(spec: ArgSpec): JsonSchema {
  const declared = spec.schema ?? (spec.validate as Partial<Described<unknown>> | undefined)?.schema;
  if (declared) return { ...declared };
  if (spec.accept === 'any') return {};
  if (spec.items || spec.accept === 'list') return wireList(spec.items ? { type: spec.items.type } : { type: 'string' });
  switch (spec.type) {
    case 'integer':
      return { ...WIRE_INTEGER };
    case 'boolean':
      return { ...WIRE_BOOLEAN };
    case 'number':
      return { ...WIRE_NUMBER };
    case 'string':
      return spec.lenient ? { type: ['string', 'number'] } : { type: 'string' };
    default:
      // Untyped scalars: any JSON scalar (the handler reads it), never an array or object.
      return { type: ['string', 'number', 'boolean'] };
  }
}

/** Every WordPress error body (`WpError.toBody`): `data.params` is a list of names when parameters are missing, a map name → message when invalid. */
export const ERROR_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['code', 'message', 'data'],
  additionalProperties: false,
  properties: {
    code: { type: 'string' },
    message: { type: 'string' },
    data: {
      type: 'object',
      required: ['status'],
      properties: {
        status: { type: 'integer' },
        params: { oneOf: [{ type: 'array', items: { type: 'string' } }, { type: 'object', additionalProperties: { type: 'string' } }] },
        details: { oneOf: [{ type: 'array', maxItems: 0 }, { type: 'object', additionalProperties: { type: 'object', required: ['code', 'message'] } }] },
      },
    },
    additional_data: { type: 'array' },
  },
};

/** The object an argument table accepts as a body (or a nested record): its visible arguments, `required` kept. */
export function argsObjectSchema(args: ArgMap, skip: ReadonlySet<string> = new Set()): JsonSchema {
  const properties: JsonSchema = {};
  const required: string[] = [];
  for (const [name, spec] of Object.entries(args)) {
    if (spec.hidden || skip.has(name)) continue;
    properties[name] = argWireSchema(spec);
    if (spec.required) required.push(name);
  }
  return { type: 'object', properties, ...(required.length ? { required } : {}) };
}
