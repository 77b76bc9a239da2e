/** Request parameters → GraphQL variables, for every resource: shapes only, no calendar rules. */
import type { PostStatus } from '../generated/operations.ts';
import type { AppState } from '../../src/services/context.ts';
import { ALL_STATUSES, canCreatePosts, type Status } from '../../src/domain/capabilities.ts';
import { isRecordId } from '../../src/domain/ids.ts';
import { parseList } from '../wp/coerce.ts';
import { invalidParamsError, type WpError } from '../wp/errors.ts';
import type { WpRequest } from '../wp/types.ts';

/** A GraphQL input type as the facade fills it in, one member at a time. */
export type Building<T> = { -readonly [K in keyof T]: T[K] };

/** The wire name of a core name: `startsBefore` → `starts_before`, `dateUtc` → `date_utc`. */
export const wireName = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** A positive integer (or its digits) that can name a record: larger ones must not reach a GraphQL `Int`. */
export const isIntLike = (v: unknown) => (typeof v === 'number' || (typeof v === 'string' && /^\s*\d+\s*$/.test(v))) && isRecordId(Number(v));

/** The `{id}` path parameter, or the error an ID that cannot exist deserves. */
export function pathId(req: WpRequest, notFound: () => WpError): number {
  const id = Number(req.pathParams.id);
  if (!isRecordId(id)) throw notFound();
  return id;
}

/** A list operation's `page` and `perPage` variables, from the (validated, defaulted) `page` and `per_page` arguments. */
export const pageVariables = (req: WpRequest) => ({ page: Number(req.params.page), perPage: Number(req.params.per_page) });

/** An integer parameter naming a record (`author`, `post_parent`), or a 400 naming it. */
export function recordId(name: string, v: unknown): number {
  if (!isIntLike(v)) throw invalidParamsError([[name, false]]);
  return Number(v);
}

/** A list of positive integers, or a 400 naming the parameter. */
export function intList(name: string, v: unknown): number[] {
  const list = parseList(v);
  if (!list.every(isIntLike)) throw invalidParamsError([[name, false]]);
  return list.map((x) => Number(String(x).trim()));
}

/** A list of strings or numbers (IDs, slugs, names), or a 400 naming the parameter. */
export function stringList(name: string, v: unknown): string[] {
  const list = parseList(v);
  if (!list.every((x) => typeof x === 'string' || (typeof x === 'number' && Number.isFinite(x)))) throw invalidParamsError([[name, false]]);
  return list.map((x) => String(x).trim()).filter(Boolean);
}

const isStatus = (v: unknown): v is Status => typeof v === 'string' && (ALL_STATUSES as readonly string[]).includes(v);
const STATUS_ENUM: Record<Status, PostStatus> = { publish: 'PUBLISH', future: 'FUTURE', draft: 'DRAFT', pending: 'PENDING', private: 'PRIVATE', trash: 'TRASH' };

/** WordPress statuses → the GraphQL enum; anything else is a 400 on `status`. */
export function statusEnum(name: string, v: unknown): PostStatus {
  if (!isStatus(v)) throw invalidParamsError([[name, false]]);
  return STATUS_ENUM[v];
}

export function statusEnumList(name: string, v: unknown): PostStatus[] {
  return stringList(name, v).map((s) => statusEnum(name, s));
}

/** A `type: 'boolean'` parameter's value (the argument step made it a boolean). */
export const flag = (v: unknown): boolean => v === true;

export function optionalNumber(v: unknown): number | undefined {
  const n = typeof v === 'number' ? v : typeof v === 'string' ? Number(v) : NaN;
  return Number.isFinite(n) ? n : undefined;
}

/** Raw body value of a parameter (for by-slug renames, where the path `slug` shadows it). */
export function bodyParam(req: WpRequest, name: string): unknown {
  const body = req.body;
  return body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>)[name] : undefined;
}

/** Parameters the client sent, keyed by name (defaults excluded). */
export function sentParams(req: WpRequest, names: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const n of names) if (req.sent(n) && req.params[n] !== undefined && req.params[n] !== null) out[n] = req.params[n];
  return out;
}

/**
 * The `status` a list URL shows (§5.3): what the client sent, else the role's default set
 * (`publish` for callers who may not edit, `any` for the others).
 */
export function listStatusParam(req: WpRequest): unknown {
  if (req.sent('status')) return req.params.status;
  return canCreatePosts((req.state as AppState).cal?.viewer ?? null) ? 'any' : 'publish';
}
