/**
 * WordPress-shaped errors: `{"code", "message", "data": {"status", …}[, "additional_data"]}`.
 *
 * Messages are i18n keys (or literal text) resolved with the request's language when the error
 * is serialized, so handlers never need to translate themselves. Any `Msg` placed inside `data`
 * (e.g. the per-parameter messages of `rest_invalid_param`) is resolved the same way.
 */

/** Interpolating message lookup for the request's language. Unknown keys are returned as is. */
export type TFunction = (key: string, vars?: Record<string, unknown>) => string;

/** A translatable message: catalog key + interpolation variables. */
export class Msg {
  constructor(
    readonly key: string,
    readonly vars?: Record<string, unknown>,
  ) {}
}
export function msg(key: string, vars?: Record<string, unknown>): Msg {
  return new Msg(key, vars);
}

/** A message given as catalog key / literal text, or as a `Msg` with variables. */
export type MessageRef = string | Msg;

export class WpError {
  readonly code: string;
  readonly message: MessageRef;
  /** WordPress error data (`status` included when there is one); `null` when none. */
  readonly data: Record<string, unknown> | null;
  /** WordPress `additional_data` (e.g. `term_exists`). */
  readonly additionalData?: unknown[];
  /** Headers the answer carries besides the standard ones (`Retry-After`). */
  headers?: Record<string, string>;

  constructor(code: string, message: MessageRef, data: Record<string, unknown> | null = null, additionalData?: unknown[]) {
    this.code = code;
    this.message = message;
    this.data = data;
    if (additionalData !== undefined) this.additionalData = additionalData;
  }

  /** HTTP status: `data.status`, else 500 (like `rest_convert_error_to_response`). */
  get status(): number {
    const s = this.data?.status;
    return typeof s === 'number' && s >= 100 && s <= 599 ? s : 500;
  }

  /** The wire body. */
  toBody(t: TFunction): Record<string, unknown> {
    const body: Record<string, unknown> = {
      code: this.code,
      message: resolveMessage(this.message, t),
      data: resolveDeep(this.data, t),
    };
    if (this.additionalData !== undefined) body.additional_data = resolveDeep(this.additionalData, t);
    return body;
  }
}

/**
 * `wpError('event-not-accessible', 'error.event-not-accessible', 403)`.
 * `status` may be `null` for errors used only as validator details (their `data` then carries only `extraData`).
 */
export function wpError(
  code: string,
  message: MessageRef,
  status: number | null = 400,
  extraData?: Record<string, unknown>,
  additionalData?: unknown[],
): WpError {
  const data: Record<string, unknown> | null =
    status === null ? (extraData ? { ...extraData } : null) : { status, ...(extraData ?? {}) };
  return new WpError(code, message, data, additionalData);
}

export function isWpError(x: unknown): x is WpError {
  return x instanceof WpError;
}

export function resolveMessage(m: MessageRef, t: TFunction): string {
  return m instanceof Msg ? t(m.key, m.vars) : t(m);
}

/** Replace every `Msg` inside a JSON-ish value by its translation. */
export function resolveDeep(v: unknown, t: TFunction): unknown {
  if (v instanceof Msg) return t(v.key, v.vars);
  if (v instanceof WpError) return v.toBody(t);
  if (Array.isArray(v)) return v.map((x) => resolveDeep(x, t));
  if (v && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = resolveDeep(x, t);
    return out;
  }
  return v;
}

/**
 * The §8.2 table: code → [message key, HTTP status]. Message keys are `error.<code>`; the English
 * texts live in `rest-facade/i18n/en.json`.
 */
export const ERROR_CODES = {
  rest_no_route: 404,
  rest_invalid_json: 400,
  rest_missing_callback_param: 400,
  rest_invalid_param: 400,
  rest_forbidden: 403,
  rest_cookie_invalid_nonce: 403,
  rest_callback_invalid: 400,
  'event-not-accessible': 403,
  'event-password-protected': 403,
  'event-no-longer-available': 403,
  'rest-event-not-found': 404,
  'rest-invalid-event-id': 400,
  'event-archive-page-not-found': 404,
  'venue-archive-page-not-found': 404,
  'organizer-archive-page-not-found': 404,
  'venue-not-accessible': 403,
  'organizer-not-accessible': 403,
  'event-is-in-trash': 410,
  'venue-is-in-trash': 410,
  'organizer-is-in-trash': 410,
  'could-not-delete-event': 500,
  'could-not-delete-venue': 500,
  'could-not-delete-organizer': 500,
  'could-not-create-venue': 400,
  'could-not-create-organizer': 400,
  'could-not-update-venue': 400,
  'could-not-update-organizer': 400,
  'could-not-update-event': 403,
  'invalid-linked-post-id': 400,
  'archive-bad-search-string': 400,
  term_exists: 400,
  rest_taxonomy_not_hierarchical: 400,
  rest_term_invalid: 400,
  duplicate_term_slug: 400,
  rest_cannot_delete: 500,
  'event-tickets-not-active': 400,
  'event-tickets-api-not-active': 400,
  internal_server_error: 500,
  service_unavailable: 503,
  rest_payload_too_large: 413,
  incorrect_password: 401,
  invalid_username: 401,
  invalid_email: 401,
  rest_not_logged_in: 401,
} as const satisfies Record<string, number>;

export type KnownErrorCode = keyof typeof ERROR_CODES;

/**
 * A §8.2 error with its default status and message key: `tableError('rest-event-not-found', {id: 9})`.
 * Variables: `rest-event-not-found` {id}; `duplicate_term_slug` {slug}; `rest_missing_callback_param`
 * / `rest_invalid_param` {params}. `term_exists` has two messages: `error.term_exists` ("…with this parent.", the default) and
 * `error.term_exists_in_taxonomy` (tags): `wpError('term_exists', 'error.term_exists_in_taxonomy', 400, {term_id}, [id, id])`.
 */
export function tableError(
  code: KnownErrorCode,
  vars?: Record<string, unknown>,
  extraData?: Record<string, unknown>,
  status?: number,
): WpError {
  return wpError(code, msg(`error.${code}`, vars), status ?? ERROR_CODES[code], extraData);
}

export function noRoute(): WpError {
  return tableError('rest_no_route');
}

/** `rest_forbidden`: 401 for anonymous callers, 403 for logged-in ones. */
export function forbidden(user: { anonymous: boolean }): WpError {
  return tableError('rest_forbidden', undefined, undefined, user.anonymous ? 401 : 403);
}

export function internalError(): WpError {
  return tableError('internal_server_error');
}

/** The database cannot serve for a moment (src/db/unavailable.ts): 503, and when to try again. */
export function serviceUnavailable(retryAfterS: number): WpError {
  const error = tableError('service_unavailable');
  error.headers = { 'Retry-After': String(retryAfterS) };
  return error;
}

/** The per-parameter message of a plain validator refusal. */
export const INVALID_PARAMETER = 'param.invalid';

/** `"<name> is not of type <type>."` detail error (code `rest_invalid_type`). */
export function invalidTypeError(name: string, type: string): WpError {
  return wpError('rest_invalid_type', msg('param.invalid_type', { param: name, type }), null, { param: name });
}

/**
 * Build a `rest_invalid_param` error (§8.1) from per-parameter failures, in the given order:
 * `true`/`false` → plain refusal ("Invalid parameter.", no detail); a WpError → its message, and a
 * detail `{code, message, data}`. `details` is `[]` when there is no detail.
 */
export function invalidParamsError(failures: Record<string, WpError | boolean> | Array<[string, WpError | boolean]>): WpError {
  const entries = Array.isArray(failures) ? failures : Object.entries(failures);
  const params: Record<string, unknown> = {};
  const details: Record<string, unknown> = {};
  for (const [name, f] of entries) {
    if (f instanceof WpError) {
      params[name] = f.message instanceof Msg ? f.message : msg(f.message);
      details[name] = f;
    } else {
      params[name] = msg(INVALID_PARAMETER);
    }
  }
  const names = entries.map(([n]) => n).join(', ');
  return wpError('rest_invalid_param', msg('error.rest_invalid_param', { params: names }), 400, {
    params,
    details: Object.keys(details).length ? details : [],
  });
}

export function missingParamsError(names: string[]): WpError {
  return wpError('rest_missing_callback_param', msg('error.rest_missing_callback_param', { params: names.join(', ') }), 400, {
    params: names,
  });
}
