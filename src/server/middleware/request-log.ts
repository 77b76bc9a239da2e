import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import type { Logger } from 'pino';
import { SpanStatusCode } from '@opentelemetry/api';
import type { AppState } from '../../services/context.ts';
import { http } from '../../telemetry/metrics.ts';
import { inRequest, type RequestRecord } from '../../telemetry/scope.ts';
import { startServerSpan, tracingOn } from '../../telemetry/tracing.ts';
import { requestRoute } from '../request-route.ts';

/**
 * The request's ID (`X-Request-Id`, or a new UUID) in `ctx.state.requestId`, and one debug line per
 * answered request: its ID, route template, the GraphQL operations it ran, status and duration, and,
 * traced, its trace and span IDs (the logger's mixin, src/server/logger.ts). With metrics on it
 * counts and times the request by route template; with tracing on it is the trace's server span,
 * continuing the caller's `traceparent`.
 */
export function useRequestLog(logger: Logger, opts: { metrics: boolean } = { metrics: false }): Middleware<AppState> {
  return async function requestLog(ctx, next) {
    const started = performance.now();
    ctx.state.requestId = ctx.get('x-request-id') || randomUUID();
    if (!opts.metrics && !tracingOn()) {
      await next();
      logger.debug(
        { requestId: ctx.state.requestId, method: ctx.method, url: ctx.url, status: ctx.status, ms: +(performance.now() - started).toFixed(1) },
        'request',
      );
      return;
    }
    const record: RequestRecord = {};
    const traced = tracingOn() ? startServerSpan(ctx.method, ctx.req.headers, { 'http.request.method': ctx.method, 'url.path': ctx.path, 'http.request_id': ctx.state.requestId }) : null;
    let error: unknown;
    try {
      await inRequest(record, next, traced?.context);
    } catch (e) {
      error = e;
      throw e;
    } finally {
      const { route, surface } = requestRoute(ctx, record);
      const status = error ? 500 : ctx.status;
      const ms = performance.now() - started;
      if (opts.metrics) {
        const labels = { method: ctx.method, route, status: `${Math.floor(status / 100)}xx`, surface };
        http.requests.inc(labels);
        http.duration.observe(labels, ms / 1000);
      }
      const line = { requestId: ctx.state.requestId, method: ctx.method, url: ctx.url, route, ...(record.operations ? { operations: record.operations } : {}), status, ms: +ms.toFixed(1) };
      if (traced) {
        const { span } = traced;
        span.updateName(`${ctx.method} ${route}`);
        span.setAttributes({ 'http.route': route, 'http.response.status_code': status });
        if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
        const ids = span.spanContext();
        logger.debug({ ...line, trace_id: ids.traceId, span_id: ids.spanId }, 'request');
        span.end();
      } else {
        logger.debug(line, 'request');
      }
    }
  };
}
