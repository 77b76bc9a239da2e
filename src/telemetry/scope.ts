import { context, createContextKey } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';

/**
 * What one request's telemetry learns while it runs: the route template that answered it and the
 * surface (REST, GraphQL, pages, feeds), set by whichever layer matched it (the REST facade, the
 * pages' router), read by the request's metrics, log line and spans.
 *
 * It travels in OpenTelemetry's context: one AsyncLocalStorage per process, the one the trace's
 * spans and the query budget travel in too. Records are made when metrics or tracing are on
 * (`enableRequestScope`); otherwise `currentRequest()` is undefined and recording does nothing.
 */
export interface RequestRecord {
  route?: string;
  surface?: Surface;
  /** The GraphQL operations it ran, by name. */
  operations?: string[];
}
export type Surface = 'rest' | 'graphql' | 'pages' | 'feeds' | 'other';

const KEY = createContextKey('cal-events request');
let enabled = false;

// The process's one AsyncLocalStorage for request-scoped values: OpenTelemetry's context manager,
// registered on load (the query budget of src/db/request-budget.ts lives in it too, so that a request
// never runs under two stores: each store costs every promise of the request a copy). A manager
// registered already (a host that set up OpenTelemetry itself) is kept: setGlobal… refuses a second.
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());

/** Runs `fn` with `value` under `key` in the active context (request-scoped values). */
export function withValue<T>(key: symbol, value: unknown, fn: () => T): T {
  return context.with(context.active().setValue(key, value), fn);
}

/** The value under `key` in the active context. */
export function valueOf<T>(key: symbol): T | undefined {
  return context.active().getValue(key) as T | undefined;
}

export { createContextKey };

/** Metrics or tracing on: requests get a record. */
export function enableRequestScope(): void {
  enabled = true;
}

/** Runs `fn` in the scope of a new request record (the active context's, a span's if any, plus the record). */
export function inRequest<T>(record: RequestRecord, fn: () => T, parent = context.active()): T {
  return enabled ? context.with(parent.setValue(KEY, record), fn) : fn();
}

export function currentRequest(): RequestRecord | undefined {
  return enabled ? (context.active().getValue(KEY) as RequestRecord | undefined) : undefined;
}

/**
 * The layer that matched the request says which route template and surface it is. The first to
 * match names it: a page that runs the REST facade in-process stays the page.
 */
export function routeMatched(route: string, surface: Surface): void {
  const record = currentRequest();
  if (record && record.route === undefined) {
    record.route = route;
    record.surface = surface;
  }
}

