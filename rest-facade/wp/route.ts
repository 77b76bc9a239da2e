/**
 * Route definition framework modelled on WordPress `register_rest_route()`, and the argument
 * pipeline of §1.2–§1.4: sources and precedence, required check, validators (defaults included),
 * type coercion, collected `rest_invalid_param` errors.
 */
import {
  WpError,
  invalidParamsError,
  invalidTypeError,
  isWpError,
  missingParamsError,
  msg,
  wpError,
} from './errors.ts';
import { coerceBoolean, coerceInteger, coerceNumber, coerceString, isPlainScalar, isTainted, parseList } from './coerce.ts';
import { InvalidValue } from './query-string.ts';
import type {
  ArgEnv,
  ArgMap,
  ArgSpec,
  EndpointDef,
  HttpMethod,
  RouteDef,
  TFunction,
  WpRequest,
  WpUrls,
} from './types.ts';

/** Identity helper giving type inference for route definitions. Expands `{id}` / `{slug}` shorthands. */
export function defineRoute(def: RouteDef): RouteDef {
  return { ...def, pattern: expandPattern(def.pattern) };
}

/** `{id}` → `(?P<id>\d+)`, `{slug}` / `{anything}` → `(?P<name>[^/]+)`. */
export function expandPattern(pattern: string): string {
  return pattern.replace(/\{(\w+)\}/g, (_m, name: string) => (name === 'id' ? `(?P<id>\\d+)` : `(?P<${name}>[^/]+)`));
}

export interface CompiledRoute {
  /** Full WP route key, e.g. `/cal/events/v1/events/(?P<id>\d+)`. */
  key: string;
  namespace: string;
  regex: RegExp;
  /** Whether the route has named groups (then no `_links.self` in the index). */
  hasPattern: boolean;
  def: RouteDef;
}

export function compileRoute(def: RouteDef, namespace: string): CompiledRoute {
  const pattern = expandPattern(def.pattern);
  const key = namespace ? `/${namespace}${pattern}` : pattern || '/';
  const source = key.replace(/\(\?P</g, '(?<');
  return {
    key,
    namespace,
    regex: new RegExp(`^${source}$`, 'i'),
    hasPattern: /\(\?P<\w+>/.test(key),
    def: { ...def, pattern },
  };
}

export interface RouteMatch {
  route: CompiledRoute;
  endpoint: EndpointDef;
  /** Raw (percent-encoded) path captures. */
  groups: Record<string, string>;
}

/** Routes whose pattern matches the path (raw, trailing slash already removed), in registration order. */
export function routesForPath(routes: readonly CompiledRoute[], path: string): Array<{ route: CompiledRoute; groups: Record<string, string> }> {
  const out: Array<{ route: CompiledRoute; groups: Record<string, string> }> = [];
  for (const route of routes) {
    const m = route.regex.exec(path);
    if (m) out.push({ route, groups: { ...(m.groups ?? {}) } });
  }
  return out;
}

/** First route + endpoint serving that method (WordPress: first match in registration order). */
export function matchRoute(routes: readonly CompiledRoute[], path: string, method: HttpMethod): RouteMatch | null {
  for (const { route, groups } of routesForPath(routes, path)) {
    const endpoint = route.def.endpoints.find((e) => e.methods.includes(method));
    if (endpoint) return { route, endpoint, groups };
  }
  return null;
}

/**
 * Extend/override an argument table keeping its order: existing names keep their position
 * (their spec is merged), new names are appended. `null` removes an arg.
 *   withArgs(eventFields, { title: { required: true } })
 */
export function withArgs(base: ArgMap, overrides: Record<string, Partial<ArgSpec> | null>): ArgMap {
  const out: ArgMap = {};
  for (const [name, spec] of Object.entries(base)) {
    const o = overrides[name];
    if (o === null) continue;
    out[name] = o ? { ...spec, ...o } : spec;
  }
  for (const [name, o] of Object.entries(overrides)) if (!(name in base) && o) out[name] = { ...o };
  return out;
}

/* ------------------------------------------------------------------ index data */

/** JSON-schema keywords shown in the index (WordPress `rest_get_allowed_schema_keywords()` + description). */
const SCHEMA_KEYS = new Set([
  'title',
  'description',
  'default',
  'type',
  'format',
  'enum',
  'items',
  'properties',
  'additionalProperties',
  'patternProperties',
  'minProperties',
  'maxProperties',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minLength',
  'maxLength',
  'pattern',
  'minItems',
  'maxItems',
  'uniqueItems',
  'anyOf',
  'oneOf',
]);

export function evalDefault(spec: ArgSpec, env: ArgEnv): unknown {
  const d = spec.default;
  return typeof d === 'function' ? (d as (e: ArgEnv) => unknown)(env) : d;
}

/** The index form of an argument table (`[]` when empty, like a PHP empty array). */
export function argsIndexData(args: ArgMap | undefined, env: ArgEnv, t: TFunction): Record<string, unknown> | unknown[] {
  const entries = Object.entries(args ?? {}).filter(([, spec]) => !spec.hidden);
  if (entries.length === 0) return [];
  const out: Record<string, unknown> = {};
  for (const [name, spec] of entries) {
    const a: Record<string, unknown> = {};
    for (const k of Object.keys(spec)) {
      if (!SCHEMA_KEYS.has(k)) continue;
      const v = (spec as Record<string, unknown>)[k];
      if (v === undefined) continue;
      if (k === 'default') a.default = evalDefault(spec, env);
      else if (k === 'description' && typeof v === 'string') a.description = t(v);
      else a[k] = v;
    }
    a.required = spec.required === true;
    out[name] = a;
  }
  return out;
}

/** WordPress `get_data_for_route()` ("help" context): the namespace-index / OPTIONS entry of a route. */
export function routeIndexEntry(route: CompiledRoute, env: ArgEnv, t: TFunction, urls: WpUrls): Record<string, unknown> {
  const methods: string[] = [];
  const endpoints: unknown[] = [];
  for (const e of route.def.endpoints) {
    if (e.showInIndex === false) continue;
    methods.push(...e.methods);
    endpoints.push({ methods: [...e.methods], args: argsIndexData(e.args, env, t) });
  }
  const data: Record<string, unknown> = { namespace: route.namespace, methods, endpoints };
  if (!route.hasPattern) {
    data._links = { self: [{ href: urls.restRoot.replace(/\/$/, '') + route.key }] };
  }
  return data;
}

/* ---------------------------------------------------------------- arguments */

export interface ParamSources {
  /** Top-level JSON body members (JSON `null` members already removed). */
  json?: Record<string, unknown>;
  /** Form body (urlencoded / multipart). */
  form?: Record<string, unknown>;
  query: Record<string, unknown>;
  /** Path captures, decoded (InvalidValue when not UTF-8). */
  path: Record<string, string | InvalidValue>;
}

/** Merge the sources by precedence (JSON → form → query → path; REC: path wins for its own names). */
export function mergeSources(s: ParamSources): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const layers = [s.path, s.query, s.form ?? {}, s.json ?? {}];
  for (const layer of layers) for (const [k, v] of Object.entries(layer)) if (v !== undefined) out[k] = v;
  for (const [k, v] of Object.entries(s.path)) out[k] = v;
  return out;
}

function acceptOf(spec: ArgSpec): 'scalar' | 'list' | 'any' | 'typed' {
  if (spec.accept) return spec.accept;
  if (spec.type) return 'typed';
  if (spec.items) return 'list';
  return 'scalar';
}

/**
 * Run §1.3 steps 3–5 for an endpoint, filling `req.params` with the final values.
 * Returns the error to answer with, or null.
 */
export async function processArgs(
  endpoint: EndpointDef,
  req: WpRequest,
  merged: Record<string, unknown>,
  env: ArgEnv,
  sentNames: Set<string>,
): Promise<WpError | null> {
  const args = endpoint.args ?? {};
  const values: Record<string, unknown> = {};

  // Values + defaults (null defaults are never applied, like PHP isset()).
  for (const [name, spec] of Object.entries(args)) {
    if (merged[name] !== undefined && merged[name] !== null) {
      values[name] = merged[name];
      sentNames.add(name);
    } else if (spec.default !== undefined) {
      const d = evalDefault(spec, env);
      if (d !== undefined && d !== null) values[name] = d;
    }
  }

  // Step 3: required.
  const missing = Object.entries(args)
    .filter(([name, spec]) => spec.required === true && values[name] === undefined)
    .map(([name]) => name);
  if (missing.length) return missingParamsError(missing);

  // Step 4: hygiene, shape and validators on every present value (defaults included).
  req.params = values;
  const failures: Array<[string, WpError | boolean]> = [];
  for (const [name, spec] of Object.entries(args)) {
    if (values[name] === undefined) continue;
    let v = values[name];
    if (isTainted(v)) {
      failures.push([name, false]);
      continue;
    }
    const accept = acceptOf(spec);
    if (accept === 'scalar' && !isPlainScalar(v)) {
      failures.push([name, false]);
      continue;
    }
    if (accept === 'list') {
      v = parseList(v);
      values[name] = v;
      // A CSV is url-decoded once more: `%00` is a NUL now, refused as one sent as such.
      if (isTainted(v)) {
        failures.push([name, false]);
        continue;
      }
    }
    if (accept === 'typed' && !isPlainScalar(v)) continue; // reported as a type error in step 5
    if (spec.validate) {
      let r: unknown;
      try {
        r = await spec.validate(v, { req, name });
      } catch (e) {
        if (!isWpError(e)) throw e;
        r = e;
      }
      if (r === false) failures.push([name, false]);
      else if (isWpError(r)) failures.push([name, r]);
    }
  }
  if (failures.length) return invalidParamsError(failures);

  // Step 5: type coercion, enum, sanitize.
  for (const [name, spec] of Object.entries(args)) {
    if (values[name] === undefined) continue;
    const v = values[name];
    if (spec.type) {
      const c =
        spec.type === 'integer'
          ? coerceInteger(v)
          : spec.type === 'boolean'
            ? coerceBoolean(v)
            : spec.type === 'number'
              ? coerceNumber(v)
              : coerceString(v, spec.lenient === true);
      if (!c.ok) {
        failures.push([name, invalidTypeError(name, spec.type)]);
        continue;
      }
      values[name] = c.value;
      if (spec.enum && !spec.enum.includes(c.value)) {
        failures.push([
          name,
          wpError('rest_not_in_enum', msg('param.not_in_enum', { param: name, values: spec.enum.join(', ') }), null, { param: name }),
        ]);
        continue;
      }
    }
    if (spec.sanitize) {
      let out: unknown;
      try {
        out = await spec.sanitize(values[name], { req, name });
      } catch (e) {
        if (!isWpError(e)) throw e;
        out = e;
      }
      if (isWpError(out)) failures.push([name, out]);
      else values[name] = out;
    }
  }
  if (failures.length) return invalidParamsError(failures);
  req.params = values;
  return null;
}

