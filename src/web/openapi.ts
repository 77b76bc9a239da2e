/**
 * `GET /wp-json/cal/events/v1/openapi.json`: an OpenAPI 3.1 document of the whole REST API,
 * assembled from the code that serves it, so that it says what the service sends and accepts:
 * - operations: the endpoints the facade serves (rest-facade/router.ts `RESOURCE_ENDPOINTS`);
 * - requests: their argument tables, each argument's schema read from its validator or its
 *   declared type's wire form (rest-facade/wp/schema.ts);
 * - answers: the schema beside each presenter (rest-facade/resources/<kind>/schema.ts,
 *   rest-facade/presenters/schema.ts) and the WordPress error body.
 * Only the descriptions come from the plugin's own `doc` document (rest-facade/doc, translated),
 * whose types are TEC's and wrong: none of them is used.
 */
import { buildDoc } from '../../rest-facade/doc/build.ts';
import { RESOURCE_ENDPOINTS } from '../../rest-facade/router.ts';
import type { EndpointName } from '../../rest-facade/resources/endpoint.ts';
import { EVENT_SCHEMA } from '../../rest-facade/resources/events/schema.ts';
import { ORGANIZER_SCHEMA } from '../../rest-facade/resources/organizers/schema.ts';
import { TERM_SCHEMAS } from '../../rest-facade/resources/terms/schema.ts';
import { VENUE_SCHEMA } from '../../rest-facade/resources/venues/schema.ts';
import { LIST_HEADERS, SHARED_SCHEMAS, listEnvelopeSchema, ref } from '../../rest-facade/presenters/schema.ts';
import { coerceBoolean, coerceInteger } from '../../rest-facade/wp/coerce.ts';
import { argWireSchema, ERROR_SCHEMA, type JsonSchema } from '../../rest-facade/wp/schema.ts';
import type { ArgEnv, ArgMap, ArgSpec, HttpMethod, TFunction, WpUrls } from '../../rest-facade/wp/types.ts';
import { LANGS } from '../../rest-facade/wp/types.ts';

type Json = Record<string, unknown>;

const RESOURCE_SCHEMA: Record<string, string> = { events: 'Event', venues: 'Venue', organizers: 'Organizer', categories: 'Term', tags: 'Term' };

/** `/events/(?P<id>\d+)` → `/events/{id}`. */
const openApiPath = (pattern: string) => pattern.replace(/\(\?P<(\w+)>[^)]*\)/g, '{$1}');
const pathParams = (pattern: string) => [...pattern.matchAll(/\(\?P<(\w+)>([^)]*)\)/g)].map((m) => ({ name: m[1] as string, numeric: m[2] === '\\d+' }));

/**
 * What the plugin's argument descriptions leave out, in the document only (the namespace index
 * keeps TEC's texts).
 */
const NOTES: Record<string, string> = {
  geoloc:
    'Filters nothing on its own: with both `geoloc_lat` and `geoloc_lng`, events whose venue lies near that point; with only one of them, events whose venue has coordinates.',
  geoloc_lat: 'Latitude in decimal degrees (text that is not a number reads as 0).',
  geoloc_lng: 'Longitude in decimal degrees (text that is not a number reads as 0).',
  categories: 'IDs, slugs or names.',
  tags: 'IDs, slugs or names.',
  venue: 'On writes: an ID, `{"id": …}`, the fields of a venue to create (`{"venue": "Grand Hall"}`), a list of these; `""`, `0` or `[]` unlinks.',
  organizer: 'On writes: an ID, `{"id": …}`, the fields of an organizer to create, a list of these; `""`, `0` or `[]` unlinks.',
};

/** A default as the typed value the argument step makes of it (the index shows TEC's `"10"`, `"1"`). */
function typedDefault(spec: ArgSpec, env: ArgEnv): unknown {
  const d = typeof spec.default === 'function' ? (spec.default as (e: ArgEnv) => unknown)(env) : spec.default;
  if (d === undefined || d === null) return undefined;
  const coerced = spec.type === 'integer' ? coerceInteger(d) : spec.type === 'boolean' ? coerceBoolean(d) : { ok: true as const, value: d };
  return coerced.ok ? coerced.value : d;
}

/** JSON Schema of one argument, from its table entry (defaults evaluated live). */
function argSchema(name: string, spec: ArgSpec, env: ArgEnv, t: TFunction, get: boolean): Json {
  const schema: Json = argWireSchema(spec);
  const def = typedDefault(spec, env);
  if (def !== undefined) schema.default = def;
  const text = [spec.description ? t(spec.description) : '', get || !['geoloc', 'geoloc_lat', 'geoloc_lng'].includes(name) ? (NOTES[name] ?? '') : ''].filter(Boolean).join(' ');
  if (text) schema.description = text;
  return schema;
}

const visibleArgs = (args: ArgMap, skip: ReadonlySet<string>) => Object.entries(args).filter(([name, spec]) => !spec.hidden && !skip.has(name));

const json = (schema: Json) => ({ 'application/json': { schema } });
const RETRY_AFTER = { 'Retry-After': { description: 'Seconds to wait before trying again.', required: true, schema: { type: 'string', pattern: '^\\d+$' } } };

/** The error answers each kind of endpoint can give (WordPress error body, rest-facade/wp/errors.ts). */
const ERRORS: Record<EndpointName, Record<string, string>> = {
  list: {
    '400': 'Invalid parameters (`rest_invalid_param`: `data.params` maps each to its message) or missing ones (`rest_missing_callback_param`: `data.params` lists them).',
    '401': 'Wrong credentials, or statuses other than `publish` asked for without them.',
    '403': 'The caller may not do this.',
    '404': 'A page past the last one (`event-archive-page-not-found`, …).',
  },
  get: { '400': 'Invalid parameters.', '401': 'Wrong credentials, or a record that needs them.', '403': 'The caller may not see this record.', '404': 'No such event.', '410': 'The record is in the trash.' },
  create: { '400': 'Invalid or missing parameters, or a malformed body.', '401': 'No credentials, or wrong ones.', '403': 'The caller may not do this.', '413': 'The body is too large.' },
  update: { '400': 'Invalid parameters, or a malformed body.', '401': 'No credentials, or wrong ones.', '403': 'The caller may not do this.', '404': 'No such event.', '410': 'The record is in the trash.', '413': 'The body is too large.' },
  remove: { '400': 'Invalid parameters.', '401': 'No credentials, or wrong ones.', '403': 'The caller may not do this.', '404': 'No such event.', '410': 'The record is already in the trash.' },
};

function errorResponses(name: EndpointName): Json {
  const out: Json = {};
  for (const [status, description] of Object.entries(ERRORS[name])) out[status] = { description, content: json(ref('Error')) };
  out['429'] = { description: 'Too many failed sign-ins.', headers: RETRY_AFTER, content: json(ref('Error')) };
  out['500'] = { description: 'The service failed (`internal_server_error`, `could-not-delete-…`).', content: json(ref('Error')) };
  out['503'] = { description: 'The database cannot serve for a moment.', headers: RETRY_AFTER, content: json(ref('Error')) };
  return out;
}

function operationId(resource: string, method: HttpMethod, name: EndpointName, pattern: string): string {
  const variant = method === 'POST' && name === 'update' ? 'Post' : method === 'PUT' ? 'Put' : method === 'PATCH' ? 'Patch' : '';
  return `${name}${resource[0]?.toUpperCase()}${resource.slice(1)}${pattern.includes('by-slug') ? 'BySlug' : ''}${variant}`;
}

function operation(resource: string, method: HttpMethod, name: EndpointName, args: ArgMap, pattern: string, env: ArgEnv, t: TFunction): Json {
  const record = ref(RESOURCE_SCHEMA[resource] ?? 'Term');
  const inPath = pathParams(pattern);
  const pathNames = new Set(inPath.map((p) => p.name));
  const parameters: Json[] = inPath.map((p) => ({ name: p.name, in: 'path', required: true, schema: p.numeric ? { type: 'integer', minimum: 0 } : { type: 'string', minLength: 1 } }));
  const op: Json = { operationId: operationId(resource, method, name, pattern), tags: [resource], summary: `${method} ${openApiPath(pattern)}` };
  const fields = visibleArgs(args, pathNames);
  if (method === 'GET' || method === 'DELETE') {
    for (const [arg, spec] of fields) {
      const schema = argSchema(arg, spec, env, t, true);
      parameters.push({ name: arg, in: 'query', ...(spec.required ? { required: true } : {}), schema, ...(spec.items || spec.accept === 'list' ? { style: 'form', explode: false } : {}) });
    }
  } else {
    const properties: Json = {};
    const required: string[] = [];
    for (const [arg, spec] of fields) {
      // A JSON `null` member is no member at all (WordPress drops them before reading the body).
      const schema = argSchema(arg, spec, env, t, false);
      properties[arg] = { anyOf: [schema, { type: 'null' }], ...(schema.description ? { description: schema.description } : {}) };
      if (spec.required) required.push(arg);
    }
    const schema = { type: 'object', properties, ...(required.length ? { required } : {}) };
    op.requestBody = {
      required: required.length > 0,
      content: { 'application/json': { schema }, 'application/x-www-form-urlencoded': { schema }, 'multipart/form-data': { schema } },
    };
  }
  if (parameters.length) op.parameters = parameters;
  const responses: Json = {};
  if (name === 'list') {
    responses['200'] = { description: 'A page of records.', headers: LIST_HEADERS, content: json(ref(`${resource[0]?.toUpperCase()}${resource.slice(1)}Page`)) };
  } else {
    responses[name === 'create' ? '201' : '200'] = { description: name === 'remove' ? 'The deleted (or trashed) record.' : 'The record.', content: json(record) };
  }
  // Reads answer a conditional request (If-None-Match, If-Modified-Since) whose copy is current with
  // 304 and no body.
  if (method === 'GET') {
    responses['304'] = {
      description: 'Not modified: the copy the request named (`If-None-Match`, `If-Modified-Since`) is current. No body.',
      headers: { ETag: { description: 'The current version’s validator.', schema: { type: 'string' } } },
    };
  }
  op.responses = { ...responses, ...errorResponses(name) };
  if (method !== 'GET') op.security = [{ basic: [] }];
  return op;
}

/** The code's schemas, with the plugin's (translated) description of each member that has none of its own. */
function describedSchemas(t: TFunction, urls: WpUrls): Json {
  const texts = ((buildDoc(t, urls).components as Json | undefined)?.schemas ?? {}) as Record<string, { properties?: Record<string, { description?: string }> }>;
  const schemas: Record<string, JsonSchema> = {
    ...SHARED_SCHEMAS,
    ...TERM_SCHEMAS,
    Event: EVENT_SCHEMA,
    Venue: VENUE_SCHEMA,
    Organizer: ORGANIZER_SCHEMA,
    EventsPage: listEnvelopeSchema('events', 'Event'),
    VenuesPage: listEnvelopeSchema('venues', 'Venue'),
    OrganizersPage: listEnvelopeSchema('organizers', 'Organizer'),
    CategoriesPage: listEnvelopeSchema('categories', 'Term'),
    TagsPage: listEnvelopeSchema('tags', 'Term'),
    Error: ERROR_SCHEMA,
  };
  const out: Json = {};
  for (const [name, schema] of Object.entries(schemas)) {
    const from = texts[name]?.properties ?? {};
    const properties = schema.properties as Record<string, Json> | undefined;
    if (!properties) {
      out[name] = schema;
      continue;
    }
    const described: Json = {};
    for (const [key, member] of Object.entries(properties)) {
      const text = member.description ?? from[key]?.description;
      described[key] = text ? { ...member, description: text } : member;
    }
    out[name] = { ...schema, properties: described };
  }
  return out;
}

/** The document for one site URL set (servers: the site's namespace and every language variant). */
export function buildOpenApi(urls: WpUrls, env: ArgEnv, t: TFunction): Json {
  const paths: Record<string, Json> = {};
  for (const e of RESOURCE_ENDPOINTS) {
    for (const route of e.routes) {
      const resource = route.path.split('/')[1] ?? '';
      const item: Json = (paths[openApiPath(route.path)] ??= {});
      for (const method of e.methods) item[method.toLowerCase()] = operation(resource, method, e.name, route.args, route.path, env, t);
    }
  }
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    info: {
      title: 'cal-events REST API',
      version: '1.0.0',
      description:
        'The Events Calendar REST API v1, wire-compatible (`cal/events/v1`). Reads are public (published records); writes need HTTP Basic with an account or application password. ' +
        'Parameters are read as WordPress reads them: numbers and booleans also as text (`"12"`, `"1"`, `"true"`), lists also as comma-separated text. ' +
        'WordPress’s global parameters (`_fields`, `_envelope`, `_jsonp`, `_method`) change the answer’s shape and are not described here. GraphQL: `/graphql`.',
    },
    servers: [
      { url: urls.namespaceRoot, description: 'en' },
      ...LANGS.filter((l) => l !== 'en').map((l) => ({ url: `${urls.site}/${l}/wp-json/cal/events/v1`, description: l })),
    ],
    security: [{}, { basic: [] }],
    tags: Object.keys(RESOURCE_SCHEMA).map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: { basic: { type: 'http', scheme: 'basic', description: 'Account password or application password.' } },
      schemas: describedSchemas(t, urls),
    },
  };
}
