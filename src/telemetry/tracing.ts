import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Attributes, type Context as OtelContext, type Span } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { enableRequestScope } from './scope.ts';

/**
 * OpenTelemetry traces, off unless the standard variables ask for them: OTEL_EXPORTER_OTLP_ENDPOINT
 * (or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT), OTEL_EXPORTER_OTLP_PROTOCOL (`http/protobuf`, the
 * default, or `http/json`), OTEL_SERVICE_NAME, OTEL_TRACES_SAMPLER and OTEL_TRACES_SAMPLER_ARG (read
 * by the SDK itself), OTEL_SDK_DISABLED / OTEL_TRACES_EXPORTER=none to turn them off.
 *
 * One trace per request: the HTTP server span (src/server/middleware/request-log.ts, continuing the
 * caller's W3C `traceparent`), the REST route (rest-facade/wp/mount.ts), the GraphQL operation
 * (src/server/graphql-telemetry.ts), Prisma's spans (@prisma/instrumentation: the client operation
 * and each SQL statement), the change bus's publish and each purge (which sends `traceparent` on).
 * Each webhook delivery attempt is a trace of its own (a client span; `traceparent` sent on too).
 * Off, `tracingOn()` is false and every helper here runs its function as it is.
 */
let on = false;
let provider: BasicTracerProvider | null = null;
export const tracingOn = () => on;

const tracer = () => trace.getTracer('cal-events');

export async function startTracing(env: NodeJS.ProcessEnv = process.env, exporter?: SpanExporter): Promise<boolean> {
  if (on) return true;
  const endpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || env.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (!exporter && (!endpoint || env.OTEL_SDK_DISABLED === 'true' || env.OTEL_TRACES_EXPORTER === 'none')) return false;
  const protocol = env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL || env.OTEL_EXPORTER_OTLP_PROTOCOL || 'http/protobuf';
  if (!exporter) {
    if (protocol === 'http/json') exporter = new (await import('@opentelemetry/exporter-trace-otlp-http')).OTLPTraceExporter();
    else if (protocol === 'http/protobuf') exporter = new (await import('@opentelemetry/exporter-trace-otlp-proto')).OTLPTraceExporter();
    else throw new Error(`OTEL_EXPORTER_OTLP_PROTOCOL=${protocol}: this service exports traces over http/protobuf or http/json`);
  }
  enableRequestScope();
  provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': env.OTEL_SERVICE_NAME || 'cal-events' }),
    spanProcessors: [new BatchSpanProcessor(exporter, { scheduledDelayMillis: 1000 })],
  });
  trace.setGlobalTracerProvider(provider);
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  // Prisma's spans: its client reports them through the global tracing helper this instrumentation sets.
  const { PrismaInstrumentation } = await import('@prisma/instrumentation');
  const prisma = new PrismaInstrumentation();
  prisma.setTracerProvider(provider);
  prisma.enable();
  on = true;
  return true;
}

/** Sends the spans still buffered and stops exporting (shutdown). */
export async function stopTracing(): Promise<void> {
  await provider?.shutdown();
}

/** The server span of an incoming request, child of the caller's `traceparent` when it sent one. */
export function startServerSpan(name: string, headers: Record<string, string | string[] | undefined>, attributes: Attributes): { span: Span; context: OtelContext } {
  const parent = propagation.extract(context.active(), headers);
  const span = tracer().startSpan(name, { kind: SpanKind.SERVER, attributes }, parent);
  return { span, context: trace.setSpan(parent, span) };
}

/**
 * Runs `fn` in a child span of the active one (given to `fn`, undefined when tracing is off); the
 * span ends when `fn` settles, its error recorded.
 */
export function inSpan<T>(name: string, attributes: Attributes, fn: (span?: Span) => Promise<T>, kind: SpanKind = SpanKind.INTERNAL): Promise<T> {
  if (!on) return fn();
  return tracer().startActiveSpan(name, { attributes, kind }, async (span) => {
    try {
      return await fn(span);
    } catch (e) {
      fail(span, e);
      throw e;
    } finally {
      span.end();
    }
  });
}

/**
 * A GraphQL resolver's span: `fn` may answer synchronously or with a promise (or throw); the span
 * ends when its answer is there, and is the active one while it runs, so Prisma's spans nest in it.
 */
export function inResolverSpan<T>(name: string, attributes: Attributes, fn: () => T): T {
  if (!on) return fn();
  const span = tracer().startSpan(name, { attributes });
  return context.with(trace.setSpan(context.active(), span), () => {
    let result: T;
    try {
      result = fn();
    } catch (e) {
      fail(span, e);
      span.end();
      throw e;
    }
    if (result instanceof Promise) {
      return result.then(
        (value: unknown) => (span.end(), value),
        (e: unknown) => {
          fail(span, e);
          span.end();
          throw e;
        },
      ) as T;
    }
    span.end();
    return result;
  });
}

/**
 * `inSpan` at the root of a trace of its own: background work (a webhook delivery) that a request's
 * write may have woken up, but that is not part of that request and outlives it.
 */
export function inNewTrace<T>(name: string, attributes: Attributes, fn: (span?: Span) => Promise<T>, kind: SpanKind = SpanKind.INTERNAL): Promise<T> {
  if (!on) return fn();
  return context.with(ROOT_CONTEXT, () => inSpan(name, attributes, fn, kind));
}

/**
 * Runs `fn` outside whatever request is active (its trace and request scope): background work that
 * a request merely woke up (the in-process bus calls its listeners inside the writing request).
 */
export function detached<T>(fn: () => T): T {
  return context.with(ROOT_CONTEXT, fn);
}

export function fail(span: Span, e: unknown): void {
  span.recordException(e instanceof Error ? e : String(e));
  span.setStatus({ code: SpanStatusCode.ERROR, message: e instanceof Error ? e.message : String(e) });
}

/** Adds the active trace's `traceparent` to outgoing headers (purges, webhooks), so the receiver continues it. */
export function withTraceparent(headers: Record<string, string>): Record<string, string> {
  if (on) propagation.inject(context.active(), headers);
  return headers;
}

/** The active span's trace and span IDs, for log lines. */
export function traceIds(): { trace_id: string; span_id: string } | undefined {
  if (!on) return undefined;
  const ctx = trace.getActiveSpan()?.spanContext();
  return ctx ? { trace_id: ctx.traceId, span_id: ctx.spanId } : undefined;
}

export { SpanKind };
