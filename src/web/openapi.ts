/**
 * `GET /wp-json/cal/events/v1/openapi.json`: an OpenAPI 3.1 document of the whole REST API,
 * generated from the endpoints the facade serves (rest-facade/router.ts `RESOURCE_ENDPOINTS`, with
 * their routes and argument tables), so it cannot drift from them. Record schemas come from the plugin's own
 * `doc` document (rest-facade/doc), which stays as it is.
 */
import { buildDoc } from '../../rest-facade/doc/build.ts';
import { RESOURCE_ENDPOINTS } from '../../rest-facade/router.ts';
import type { ArgEnv, ArgMap, ArgSpec, HttpMethod, TFunction, WpUrls } from '../../rest-facade/wp/types.ts';
import { LANGS } from '../../rest-facade/wp/types.ts';

type Json = Record<string, unknown>;

const RESOURCE_SCHEMA: Record<string, string> = { events: 'Event', venues: 'Venue', organizers: 'Organizer', categories: 'Term', tags: 'Term' };

/** `/events/(?P<id>\d+)` → `/events/{id}`. */
const openApiPath = (pattern: string) => pattern.replace(/\(\?P<(\w+)>[^)]*\)/g, '{$1}');
const pathParams = (pattern: string) => [...pattern.matchAll(/\(\?P<(\w+)>([^)]*)\)/g)].map((m) => ({ name: m[1] as string, numeric: m[2] === '\\d+' }));

/** JSON-schema of one argument, from the keys its table declares (defaults evaluated live). */
function argSchema(spec: ArgSpec, env: ArgEnv, t: TFunction): Json {
  const schema: Json = {};
  if (spec.items) {
    // Lists are accepted as CSV, `x[]=` or JSON arrays (§1.3).
    schema.oneOf = [{ type: 'array', items: spec.items }, { type: 'string' }];
  } else if (spec.type) schema.type = spec.type;
  else if (spec.accept === 'any') schema.oneOf = [{ type: 'string' }, { type: 'integer' }, { type: 'object' }, { type: 'array' }];
  else schema.type = 'string';
  if (spec.format) schema.format = spec.format === 'double' ? 'double' : spec.format;
  if (spec.enum) schema.enum = [...spec.enum];
  if (spec.minimum !== undefined) schema.minimum = spec.minimum;
  if (spec.maximum !== undefined) schema.maximum = spec.maximum;
  const def = typeof spec.default === 'function' ? (spec.default as (e: ArgEnv) => unknown)(env) : spec.default;
  if (def !== undefined && def !== null) schema.default = def;
  if (spec.description) schema.description = t(spec.description);
  return schema;
}

const visibleArgs = (args: ArgMap, skip: ReadonlySet<string>) => Object.entries(args).filter(([name, spec]) => !spec.hidden && !skip.has(name));

function errorResponse(description: string): Json {
  return { description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
}

const PAGINATION_HEADERS = {
  'X-WP-Total': { description: 'Total number of records matching the request.', schema: { type: 'integer' } },
  'X-WP-TotalPages': { description: 'Total number of pages.', schema: { type: 'integer' } },
  Link: { description: '`rel="next"` / `rel="prev"` page links.', schema: { type: 'string' } },
};

function operation(resource: string, method: HttpMethod, handler: string, args: ArgMap, pattern: string, env: ArgEnv, t: TFunction): Json {
  const schemaName = RESOURCE_SCHEMA[resource] ?? 'Term';
  const ref = { $ref: `#/components/schemas/${schemaName}` };
  const inPath = pathParams(pattern);
  const pathNames = new Set(inPath.map((p) => p.name));
  const parameters: Json[] = inPath.map((p) => ({ name: p.name, in: 'path', required: true, schema: { type: p.numeric ? 'integer' : 'string' } }));
  const op: Json = {
    operationId: `${handler}${resource[0]?.toUpperCase()}${resource.slice(1)}${pattern.includes('by-slug') ? 'BySlug' : ''}${method === 'GET' || method === 'DELETE' ? '' : method === 'POST' && handler === 'update' ? 'Post' : method === 'PUT' ? 'Put' : method === 'PATCH' ? 'Patch' : ''}`,
    tags: [resource],
    summary: `${method} ${openApiPath(pattern)}`,
  };
  const fields = visibleArgs(args, pathNames);
  if (method === 'GET' || method === 'DELETE') {
    for (const [name, spec] of fields) {
      parameters.push({ name, in: 'query', ...(spec.required ? { required: true } : {}), schema: argSchema(spec, env, t), ...(spec.items ? { style: 'form', explode: false } : {}) });
    }
  } else {
    const properties: Json = {};
    const required: string[] = [];
    for (const [name, spec] of fields) {
      properties[name] = argSchema(spec, env, t);
      if (spec.required) required.push(name);
    }
    const schema = { type: 'object', properties, ...(required.length ? { required } : {}) };
    op.requestBody = {
      required: required.length > 0,
      content: { 'application/json': { schema }, 'application/x-www-form-urlencoded': { schema } },
    };
  }
  if (parameters.length) op.parameters = parameters;
  const responses: Json = {};
  if (handler === 'list') {
    responses['200'] = {
      description: 'A page of records.',
      headers: PAGINATION_HEADERS,
      content: { 'application/json': { schema: { type: 'object', properties: { [resource]: { type: 'array', items: ref }, total: { type: 'integer' }, total_pages: { type: 'integer' }, rest_url: { type: 'string', format: 'uri' }, next_rest_url: { type: 'string', format: 'uri' }, previous_rest_url: { type: 'string', format: 'uri' } } } } },
    };
  } else responses[handler === 'create' ? '201' : '200'] = { description: handler === 'remove' ? 'The deleted (or trashed) record.' : 'The record.', content: { 'application/json': { schema: ref } } };
  responses['400'] = errorResponse('Invalid parameters (`rest_invalid_param`, details per parameter).');
  responses['401'] = errorResponse('Wrong credentials, or a write without credentials.');
  responses['403'] = errorResponse('The caller may not do this.');
  if (handler !== 'list' && handler !== 'create') responses['404'] = errorResponse('No such record.');
  responses['429'] = errorResponse('Too many failed sign-ins (`Retry-After`).');
  op.responses = responses;
  if (method !== 'GET') op.security = [{ basic: [] }];
  return op;
}

/** The document for one site URL set (servers: the site's namespace and every language variant). */
export function buildOpenApi(urls: WpUrls, env: ArgEnv, t: TFunction): Json {
  const schemas = ((buildDoc(t, urls).components as Json | undefined)?.schemas ?? {}) as Json;
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
    info: {
      title: 'cal-events REST API',
      version: '1.0.0',
      description:
        'The Events Calendar REST API v1, wire-compatible (`cal/events/v1`). Reads are public (published records); writes need HTTP Basic with an account or application password. GraphQL: `/graphql`.',
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
      schemas: {
        ...schemas,
        Error: {
          type: 'object',
          required: ['code', 'message', 'data'],
          properties: {
            code: { type: 'string' },
            message: { type: 'string' },
            data: { type: 'object', properties: { status: { type: 'integer' }, params: { type: 'object' }, details: {} }, required: ['status'] },
          },
        },
      },
    },
  };
}
