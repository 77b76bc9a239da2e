/**
 * Core types of the WordPress-REST-server layer of the facade.
 *
 * A route is modelled on WordPress `register_rest_route()`: a raw WP pattern relative to the
 * namespace (`''` for the namespace root, `/events/(?P<id>\d+)`; the shorthands `{id}` and
 * `{slug}` are accepted and shown expanded), and a list of endpoints (method groups) each with an
 * ordered argument table, an optional permission check and a handler.
 */
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { TFunction, WpError } from './errors.ts';

export const NAMESPACE = 'cal/events/v1';

/** Languages served under `/{lang}/wp-json/…` (the un-prefixed paths use `en`). */
export const LANGS = ['en', 'fr', 'de', 'es', 'it', 'nl', 'pt', 'pl'] as const;
export type Lang = (typeof LANGS)[number];

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Site settings the REST layer (index defaults, arg defaults) depends on. */
export interface WpSettings {
  /** IANA zone of the site (WP `timezone_string`). */
  siteTimezone: string;
  /** Default `per_page` of every list (shown as a *string* in the index). */
  postsPerPage: number;
  /** Cap of `per_page`. */
  maxPerPage: number;
  /** Optional site name/description, shown by the `/wp-json/` root index. */
  siteName?: string;
  siteDescription?: string;
}

export const DEFAULT_SETTINGS: WpSettings = {
  siteTimezone: 'America/New_York',
  postsPerPage: 10,
  maxPerPage: 50,
};

/** What dynamic argument defaults are computed from. */
export interface ArgEnv {
  settings: WpSettings;
  now: Date;
}

/** Caller of a request. Authentication itself is pluggable (`authenticate` option of the mount). */
export interface AnonymousCaller {
  anonymous: true;
}
export interface AuthenticatedCaller {
  anonymous: false;
  /** WordPress-style user ID. */
  id: number;
  login?: string;
  roles?: readonly string[];
  capabilities?: readonly string[];
  /** Anything else the auth layer wants to hand to permission checks / handlers. */
  [extra: string]: unknown;
}
export type Caller = AnonymousCaller | AuthenticatedCaller;
export const ANONYMOUS: AnonymousCaller = Object.freeze({ anonymous: true as const });

/** Absolute-URL helpers; every URL carries the `/{lang}` prefix of a language variant. */
export interface WpUrls {
  /** `{site}` without any language prefix and without trailing slash. */
  site: string;
  /** `{site}[/{lang}]` — WordPress `home_url()` without trailing slash. */
  home: string;
  /** `{site}[/{lang}]/wp-json/` — WordPress `rest_url()`. */
  restRoot: string;
  /** `{restRoot}cal/events/v1` (no trailing slash). */
  namespaceRoot: string;
  /** `{restRoot}cal/events/v1{path}` — e.g. `rest('/events/8')`. */
  rest(path?: string): string;
  /** `{home}{path}` — e.g. `homeUrl('/event/slug/')`. */
  homeUrl(path?: string): string;
}

/** Interpolating message lookup for the request's language (defined beside the messages it resolves). */
export type { TFunction };

export type ArgType = 'integer' | 'boolean' | 'string' | 'number';

/** Outcome of an argument validator: `true`/`undefined` = valid, `false` = "Invalid parameter.", a WpError = its message (+ details). */
export type ValidateResult = boolean | undefined | void | WpError;

export interface ArgValidationContext {
  /** The (partly built) request; `params` holds the raw (uncoerced) values at validation time. */
  req: WpRequest;
  name: string;
}

/**
 * One argument of an endpoint. The JSON-schema-ish keys (`type`, `format`, `items`, `default`,
 * `description`, `enum`, …) are shown in the index in the order they are declared, followed by
 * `required`. Everything else is internal.
 */
export interface ArgSpec {
  type?: ArgType;
  format?: string;
  items?: Record<string, unknown>;
  /** A value, or a function of the live settings/clock. `null` is shown in the index but never applied (like PHP `isset`). */
  default?: unknown | ((env: ArgEnv) => unknown);
  /** An i18n key (resolved per language) or literal text. */
  description?: string;
  enum?: readonly unknown[];
  minimum?: number;
  maximum?: number;
  required?: boolean;

  /** Runs on every present value (defaults included) before type coercion (§1.3 step 4). May be async. */
  validate?: (value: unknown, ctx: ArgValidationContext) => ValidateResult | Promise<ValidateResult>;
  /** Runs after type coercion; returns the new value or a WpError (collected into `rest_invalid_param`). */
  sanitize?: (value: unknown, ctx: ArgValidationContext) => unknown | Promise<unknown>;
  /** Processed like any arg but not listed in the index/OPTIONS (e.g. newer-TEC `password`). */
  hidden?: boolean;
  /** `type: 'string'` only: also accept JSON numbers (converted to their decimal string). REC §1.4. */
  lenient?: boolean;
  /**
   * What shape of raw value is accepted (internal, not shown in the index):
   * - `'scalar'` (default for untyped args without `items`): arrays/objects → 400 "Invalid parameter.";
   * - `'list'` (default when `items` is declared): CSV / `x[]=` / JSON arrays, normalized to an array
   *   (CSV url-decoded once more, split on commas, trimmed) before validation;
   * - `'any'`: passed through untouched (objects/arrays allowed, e.g. `venue`, `cost`).
   */
  accept?: 'scalar' | 'list' | 'any';
  /**
   * The raw values it accepts, as JSON Schema, when neither its validator's schema nor its declared
   * type says it (internal, not shown in the index; read by the OpenAPI document, wp/schema.ts).
   */
  schema?: Record<string, unknown>;
}

/** Ordered argument table of an endpoint (object key order = parameter order). */
export type ArgMap = Record<string, ArgSpec>;

/** What a handler returns. */
export interface WpResponse {
  /** Default 200. */
  status?: number;
  body: unknown;
  headers?: Record<string, string | number>;
}

export type PermissionResult = boolean | WpError;

export interface EndpointDef {
  methods: readonly HttpMethod[];
  args?: ArgMap;
  /** Missing = public. `false` → 401 `rest_forbidden` (anonymous) / 403 (logged in); a WpError is returned as is. */
  permission?: (req: WpRequest) => PermissionResult | Promise<PermissionResult>;
  handler: (req: WpRequest) => Promise<WpResponse | WpError> | WpResponse | WpError;
  /** Default true. */
  showInIndex?: boolean;
}

export interface RouteDef {
  /** Raw WP pattern relative to the namespace, e.g. `/events/(?P<id>\d+)`; `''` = namespace root. */
  pattern: string;
  endpoints: readonly EndpointDef[];
}

/** The request as seen by permission checks and handlers. */
export interface WpRequest {
  /** Effective method (after `_method` / `X-HTTP-Method-Override`; `HEAD` is served as `GET`). */
  method: HttpMethod;
  /** The HTTP method on the wire (`HEAD`, `OPTIONS`, …). */
  httpMethod: string;
  /** The REST route path, e.g. `/cal/events/v1/events/8`. */
  path: string;
  /** Matched route key, e.g. `/cal/events/v1/events/(?P<id>\d+)`. */
  route: string;
  /** Declared args after defaults, validation and coercion (`integer` → number, `boolean` → boolean, lists → arrays). */
  params: Record<string, unknown>;
  /** Named groups of the path match (decoded). */
  pathParams: Record<string, string>;
  /** Whether the client sent this arg itself (as opposed to a default). */
  sent(name: string): boolean;
  /** All raw parameters merged by precedence (declared or not). */
  rawParams: Record<string, unknown>;
  /** Raw parsed query string. */
  query: Record<string, unknown>;
  /** Parsed body (JSON value or form object) or `undefined`. */
  body: unknown;
  headers: IncomingHttpHeaders;
  user: Caller;
  lang: Lang;
  t: TFunction;
  urls: WpUrls;
  settings: WpSettings;
  /** Request clock (use it instead of `new Date()` so defaults and handlers agree). */
  now: Date;
  /** The application's per-request state (`WpHttpRequest.state`). */
  state: unknown;
  /** Set when a permission check only computes the `Allow` header (nothing is executed). */
  probe?: boolean;
}

/** An HTTP request as the REST server reads it (mount.ts `dispatch`): from Koa's context, or built by an in-process caller. */
export interface WpHttpRequest {
  /** HTTP method on the wire. */
  method: string;
  /** URL path, not decoded (`/fr/wp-json/cal/events/v1/events`). */
  path: string;
  /** Query string without the `?`. */
  querystring: string;
  headers: IncomingHttpHeaders;
  /** The body to read (the Node request stream); absent: no body. */
  body?: IncomingMessage;
  /** Whether the connection is TLS (the scheme of the site URL when none is configured). */
  encrypted: boolean;
  /** The application's per-request state, for `authenticate` and the handlers (Koa: `ctx.state`). */
  state: unknown;
}

/** The answer to a REST request: headers in the order they were set, with their names as set. */
export interface WpHttpResponse {
  status: number;
  headers: Record<string, string>;
  /** Text, or its bytes (a JSON body with non-ASCII text escaped, `encodeJsonBody`). */
  body: string | Buffer;
  /** The body holds only ASCII characters (every JSON body `encodeJson` writes): its bytes are its characters. */
  ascii?: boolean;
}
