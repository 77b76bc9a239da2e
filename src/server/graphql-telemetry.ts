import type { Plugin } from 'graphql-yoga';
import { defaultFieldResolver, isObjectType, type DocumentNode, type ExecutionResult, type GraphQLSchema, type OperationDefinitionNode } from 'graphql';
import { trace, type Span } from '@opentelemetry/api';
import { bounded, db, graphql } from '../telemetry/metrics.ts';
import { currentRequest } from '../telemetry/scope.ts';
import { fail, inResolverSpan, inSpan, tracingOn } from '../telemetry/tracing.ts';
import { INTERNAL_OPERATION } from './graphql-limits.ts';

/**
 * Metrics and spans of every GraphQL execution, whichever function runs it (graphql-js or the
 * compiled one of src/server/compiled-operations.ts, which only swaps the execute function):
 * `onExecute` / `onExecuteDone` count and time it, `instrumentation.execute` makes its span the
 * active one while it runs, so that Prisma's spans nest under it.
 *
 * Operation names of the facade's and the pages' operations are the code's own; names sent by
 * clients of `/graphql` are bounded (`bounded`), as are error codes.
 *
 * With `resolvers` (CAL_TRACE_RESOLVERS) and traces on, each run of a field's own resolver is a span
 * under the operation's, so a slow field and its SQL show where an operation spends its time. Off by
 * default: a list of a hundred events is hundreds of spans.
 */
export function useGraphQLTelemetry(opts: { metrics: boolean; resolvers?: boolean }): Plugin {
  const publicName = bounded(100);
  const code = bounded(50);
  const nameOf = (args: { operationName?: string | null; contextValue?: unknown }, op: OperationDefinitionNode | undefined) => {
    const name = args.operationName ?? op?.name?.value ?? '(anonymous)';
    return internal(args.contextValue) ? name : publicName(name);
  };
  return {
    onSchemaChange({ schema }) {
      if (opts.resolvers && tracingOn()) traceResolvers(schema);
    },
    instrumentation: {
      // Named by onExecute below, which runs inside it (this payload has no operation yet).
      execute: (_payload, wrapped) => {
        if (!tracingOn()) return wrapped();
        return inSpan('graphql.execute', {}, async () => {
          const span = trace.getActiveSpan();
          if (span) ours.add(span);
          await wrapped();
        });
      },
    },
    onExecute({ args }) {
      if (!opts.metrics && !tracingOn()) return;
      const op = operationOf(args.document, args.operationName);
      const type = op?.operation ?? 'query';
      const name = nameOf(args, op);
      const started = performance.now();
      const record = currentRequest();
      const span = tracingOn() ? trace.getActiveSpan() : undefined;
      if (span && ours.has(span)) {
        span.updateName(`${type} ${args.operationName ?? op?.name?.value ?? ''}`.trim());
        span.setAttributes({ 'graphql.operation.type': type, 'graphql.operation.name': name });
      }
      if (record) (record.operations ??= []).push(name);
      return {
        onExecuteDone({ result }) {
          // A stream (subscription, @defer) is counted when it starts.
          const errors = 'errors' in result ? (result as ExecutionResult).errors : undefined;
          if (opts.metrics) {
            graphql.operations.inc({ operation: name, type, route: record?.surface === 'rest' || record?.surface === 'pages' || record?.surface === 'feeds' ? (record.route ?? 'none') : 'none' });
            graphql.duration.observe({ operation: name, type }, (performance.now() - started) / 1000);
            let unavailable = false;
            for (const e of errors ?? []) {
              const c = String(e.extensions?.code ?? 'INTERNAL_SERVER_ERROR');
              graphql.errors.inc({ operation: name, code: code(c) });
              unavailable ||= c === 'SERVICE_UNAVAILABLE';
            }
            if (unavailable) db.unavailable.inc();
          }
          if (errors?.length && span && ours.has(span)) fail(span, new Error(errors.map((e) => e.message).join('; ')));
        },
      };
    },
  };
}

const wrapped = new WeakSet<object>();

/**
 * Wraps, in place and once, the resolver of each field that has one of its own (not graphql's
 * default, nor a Pothos exposed field's, which only reads a property): graphql-js and the compiled operations (graphql-jit,
 * which reads the resolvers when it compiles) both run the wrapped one.
 */
function traceResolvers(schema: GraphQLSchema): void {
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields())) {
      const resolve = field.resolve;
      if (!resolve || resolve === defaultFieldResolver || field.extensions.pothosExposedField !== undefined || wrapped.has(field)) continue;
      wrapped.add(field);
      const name = `resolve ${type.name}.${field.name}`;
      field.resolve = (source, args, context, info) =>
        inResolverSpan(name, { 'graphql.field.name': info.fieldName, 'graphql.field.type': String(info.returnType), 'graphql.parent.type': type.name }, () =>
          resolve(source, args, context, info),
        );
    }
  }
}

/** The spans of executions (the active span in onExecute may be another: none traced, a REST route's). */
const ours = new WeakSet<Span>();

const internal = (ctx: unknown) => !!(ctx as { [INTERNAL_OPERATION]?: boolean } | null)?.[INTERNAL_OPERATION];

function operationOf(document: DocumentNode, name: string | null | undefined): OperationDefinitionNode | undefined {
  let first: OperationDefinitionNode | undefined;
  for (const d of document.definitions) {
    if (d.kind !== 'OperationDefinition') continue;
    if (!name || d.name?.value === name) return d;
    first ??= d;
  }
  return first;
}
