import { useChangeCursors } from './change-cursors.ts';
import { createGraphQLError, createYoga, type YogaServerInstance } from 'graphql-yoga';
import type { DocumentNode, ExecutionResult, GraphQLError, GraphQLSchema } from 'graphql';
import type { Executor, PreparedOperation } from '../../schema/executor.ts';
import type { Context } from '../services/context.ts';
import { QUERY_BUDGET_MESSAGE } from '../db/request-budget.ts';
import { useDeliveryBudgets } from './delivery-budget.ts';
import { errorChain } from '../db/error-chain.ts';
import { databaseUnavailable, RETRY_AFTER_S, UNAVAILABLE_MESSAGE } from '../db/unavailable.ts';
import { csrfPlugins, graphqlLimitPlugins, INTERNAL_OPERATION, yogaLimitOptions, type GraphQLLimits } from './graphql-limits.ts';
import { renderGraphiQL } from './graphiql.ts';
import { graphiqlExamples } from './graphiql-examples.ts';
import { useDeferStream } from '@graphql-yoga/plugin-defer-stream';
import { persistedOperationPlugins, type TrustedDocuments } from './persisted-operations.ts';
import type { Freshness } from './cache/freshness.ts';
import { useGraphQLTelemetry } from './graphql-telemetry.ts';
import { useCompiledOperations } from './compiled-operations.ts';

export interface ServerContext {
  cal: Context;
}

// By name, not instanceof: graphql's CJS and ESM builds may both be loaded (dual-package hazard).
const isGraphQLError = (e: unknown) => e instanceof Error && e.name === 'GraphQLError';

/** A client error without `extensions.code` gets BAD_USER_INPUT (the variable-coercion errors of graphql-js). */
function withCode(error: GraphQLError): GraphQLError {
  if (error.extensions?.code) return error;
  return createGraphQLError(error.message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    path: error.path,
    originalError: error.originalError ?? undefined,
    extensions: { ...error.extensions, code: 'BAD_USER_INPUT' },
  });
}

/** Prisma wraps adapter errors; the original message survives in the chain (errorChain). */
function causedBy(e: unknown, test: (message: string) => boolean): boolean {
  for (const { message } of errorChain(e)) if (typeof message === 'string' && test(message)) return true;
  return false;
}
const exceededBudget = (e: unknown) => causedBy(e, (m) => m.includes(QUERY_BUDGET_MESSAGE));
/** PostgreSQL refuses a NUL character in any text (SQLSTATE 22021): only a client's input can carry one. */
const nulInText = (e: unknown) => causedBy(e, (m) => /invalid byte sequence for encoding "UTF8": 0x00/.test(m));

export function createGraphQLServer(
  schema: GraphQLSchema,
  opts: {
    logger?: { error: (o: object, m: string) => void };
    limits: GraphQLLimits;
    freshness?: Freshness | null;
    trustedDocuments?: TrustedDocuments | null;
    /** Run the fixed operations compiled (default true; CAL_GRAPHQL_COMPILE). */
    compile?: boolean;
    /** Count and time operations (CAL_METRICS_ADDR not `off`). */
    metrics?: boolean;
    /** A span per resolver run, when traces are on (CAL_TRACE_RESOLVERS). */
    traceResolvers?: boolean;
  },
) {
  const trustedTexts = new Set(opts.trustedDocuments?.values() ?? []);
  return createYoga<ServerContext, Context>({
    schema,
    // Limits of a public endpoint and CSRF protection (src/server/graphql-limits.ts).
    // Persisted operations first: they turn a hash into the document the other plugins check.
    plugins: [
      ...persistedOperationPlugins(opts.trustedDocuments ?? null),
      // @defer / @stream, answered as multipart/mixed (or SSE); the limits below still apply to the whole document.
      useDeferStream(),
      // Every subscription event carries its change's cursor (SSE: the event's id).
      useChangeCursors(),
      // Each event a subscription delivers reads within a statement budget of its own.
      useDeliveryBudgets(),
      ...graphqlLimitPlugins(opts.limits),
      ...csrfPlugins(),
      // A mutation answers once the byte cache's freshness has moved on (src/server/cache/freshness.ts).
      ...(opts.freshness ? [opts.freshness.plugin()] : []),
      // The REST facade's and the pages' operations and the trusted documents run compiled; a
      // plugin's onExecute/onExecuteDone (metrics, tracing) sees them all the same, wherever it stands.
      ...(opts.compile === false ? [] : [useCompiledOperations({ compile: (context) => internal(context) || trusted(context, trustedTexts) })]),
      // Metrics and spans of each execution, compiled or not (src/server/graphql-telemetry.ts).
      useGraphQLTelemetry({ metrics: opts.metrics ?? false, resolvers: opts.traceResolvers ?? false }),
    ],
    ...yogaLimitOptions(opts.limits),
    graphqlEndpoint: '/graphql',
    graphiql: { title: 'cal-events GraphQL', ...graphiqlExamples },
    renderGraphiQL, // assets served by this service (src/server/graphiql.ts), never a CDN
    landingPage: false,
    // Anything that is not a typed domain error is masked: clients never see internals.
    maskedErrors: {
      maskError: (error, message) => {
        const original = (error as { originalError?: unknown }).originalError;
        // Parse, validation and variable-coercion errors are the client's own: shown as they are,
        // with a code (graphql-js gives variable-coercion errors none: BAD_USER_INPUT, as Apollo Server says).
        if (isGraphQLError(error) && (original === undefined || isGraphQLError(original))) return withCode(error as GraphQLError);
        if (exceededBudget(original ?? error)) {
          return createGraphQLError('This request needs more database work than one request may do; ask for less.', {
            extensions: { code: 'REQUEST_TOO_EXPENSIVE' },
          });
        }
        if (databaseUnavailable(original ?? error)) {
          return createGraphQLError(UNAVAILABLE_MESSAGE, {
            extensions: { code: 'SERVICE_UNAVAILABLE', http: { status: 503, headers: { 'Retry-After': String(RETRY_AFTER_S) } } },
          });
        }
        if (nulInText(original ?? error)) {
          return createGraphQLError('Text may not contain the NUL character (\\u0000).', { extensions: { code: 'BAD_USER_INPUT', field: null } });
        }
        opts.logger?.error({ err: original ?? error }, 'unexpected GraphQL error');
        return createGraphQLError(message);
      },
    },
    context: ({ cal }) => cal,
    logging: false,
  });
}

const internal = (context: unknown) => !!(context as { [INTERNAL_OPERATION]?: boolean } | null)?.[INTERNAL_OPERATION];

/** Whether `/graphql` was sent the text of a trusted document (by ID or as it is). */
function trusted(context: unknown, texts: ReadonlySet<string>): boolean {
  if (!texts.size) return false;
  const query = (context as { params?: { query?: unknown } } | null)?.params?.query;
  return typeof query === 'string' && texts.has(query);
}

export type GraphQLServer = YogaServerInstance<ServerContext, Context>;

/**
 * The in-process executor the REST facade and the pages receive (schema/executor.ts). It runs
 * operations through Yoga's envelop chain (same plugins, masking and context as `/graphql`)
 * without an HTTP round trip.
 */
export function createExecutor(yoga: GraphQLServer): Executor {
  // Each document is validated on its first run, not when prepared: validating the ~40 documents
  // of the facade and the pages was a quarter of the CPU of a start. A document that does not fit
  // the schema still never runs (its first run throws); test/graphql/operations.test.ts validates
  // every one of them.
  const validated = new WeakSet<DocumentNode>();
  const prepare = (document: DocumentNode): PreparedOperation => {
    const operations = document.definitions.flatMap((d) => (d.kind === 'OperationDefinition' && d.name ? [d.name.value] : []));
    if (operations.length !== 1) throw new Error(`a REST operation document holds one named operation, not ${operations.length}`);
    return { name: operations[0]!, document };
  };
  const execute = async (op: PreparedOperation, variables: Record<string, unknown>, cal: Context): Promise<ExecutionResult> => {
    const { execute: run, validate, schema, contextFactory } = yoga.getEnveloped({ cal, [INTERNAL_OPERATION]: true });
    if (!validated.has(op.document)) {
      // Yoga's validate, not our `graphql` import: under vitest that import may resolve to the other
      // build (ESM vs CJS) of graphql, which refuses Yoga's schema.
      const errors: readonly GraphQLError[] = validate(schema, op.document);
      if (errors.length) throw new Error(`invalid REST operation document: ${errors.map((e) => e.message).join('; ')}`);
      validated.add(op.document);
    }
    const contextValue = await contextFactory();
    return (await run({ schema, document: op.document, variableValues: variables, contextValue, operationName: op.name })) as ExecutionResult;
  };
  return { prepare, execute };
}
