import { maxAliasesPlugin } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthPlugin } from '@escape.tech/graphql-armor-max-depth';
import { maxDirectivesPlugin } from '@escape.tech/graphql-armor-max-directives';
import { maxTokensPlugin } from '@escape.tech/graphql-armor-max-tokens';
import { blockFieldSuggestionsPlugin } from '@escape.tech/graphql-armor-block-field-suggestions';
import { useCSRFPrevention } from '@graphql-yoga/plugin-csrf-prevention';
import { createGraphQLError, type Plugin } from 'graphql-yoga';
import { parse } from 'graphql';
import type {
  ASTVisitor,
  DocumentNode,
  ExecutionArgs,
  ExecutionResult,
  FieldNode,
  FragmentDefinitionNode,
  GraphQLSchema,
  OperationDefinitionNode,
  SelectionSetNode,
  ValidationContext,
  ValueNode,
} from 'graphql';
import type { Context } from '../services/context.ts';

/**
 * Limits of the public GraphQL endpoint, so that no query costs more than a bounded amount of
 * parsing, validation and database work; all in one place so that `yoga.ts` only spreads them in. Parse and validation limits come from GraphQL Armor; the cost
 * limit is our own (Armor's cost limit counts a field once whatever its `first`/`perPage`, so 1,000
 * aliased `events(perPage: 50)` cost the same as 1,000 `__typename`).
 */
export interface GraphQLLimits {
  /** Deepest selection (fragments expanded). */
  maxDepth: number;
  /** Aliases per operation. */
  maxAliases: number;
  /** Lexer tokens per document. */
  maxTokens: number;
  /** Directives per operation. */
  maxDirectives: number;
  /** Estimated rows × fields an operation may ask for (see `operationCost`). */
  maxCost: number;
  /** Operations per batched POST (array body); 0 refuses arrays. */
  maxBatch: number;
  /** Hide "Did you mean …?" from anonymous callers. */
  hideSuggestions: boolean;
  /** Schema introspection for anonymous callers. */
  introspection: boolean;
  /** Page size assumed for a list or connection field asked without `first`/`perPage`. */
  defaultListSize: number;
}

/** Marks the REST facade's own operations (fixed documents, already bounded): no cost limit for them. */
export const INTERNAL_OPERATION = 'calInternalOperation';

type LimitContext = (Partial<Context> & { cal?: Context; [INTERNAL_OPERATION]?: boolean }) | undefined;

// Before Yoga's context factory runs (parse, validate) the caller is in `cal`; after it, merged in.
const anonymous = (context: unknown) => {
  const c = context as LimitContext;
  return !(c?.viewer ?? c?.cal?.viewer);
};
const internal = (context: unknown) => !!(context as LimitContext)?.[INTERNAL_OPERATION];

/** Applies a parse/validate plugin to the public endpoint only, not to the REST facade's own operations. */
function publicOnly(plugin: Plugin): Plugin {
  const { onParse, onValidate } = plugin;
  return {
    ...(onParse && { onParse: (payload: Parameters<typeof onParse>[0]) => (internal(payload.context) ? undefined : onParse(payload)) }),
    ...(onValidate && { onValidate: (payload: Parameters<typeof onValidate>[0]) => (internal(payload.context) ? undefined : onValidate(payload)) }),
  };
}

/**
 * HTTP 400 even under `Accept: application/json`, where Yoga answers validation errors with 200
 * (GraphQL over HTTP's legacy rule, `spec: true`): a refusal by a limit is not a client typo.
 */
const refused = () => ({ status: 400, spec: false });

/** Refusals Yoga answers with HTTP 400 and a code the client can switch on. */
function limitError(message: string, code: string) {
  return createGraphQLError(message, { extensions: { code, http: refused() } });
}

function markRefusal(_ctx: unknown, error: { extensions: Record<string, unknown> }): void {
  (error as { extensions: Record<string, unknown> }).extensions = { ...error.extensions, code: 'GRAPHQL_LIMIT_EXCEEDED', http: refused() };
}

/** Envelop plugins enforcing `limits`; order does not matter. */
export function graphqlLimitPlugins(limits: GraphQLLimits): Plugin[] {
  // Armor's errors are plain validation errors (HTTP 200 under application/json): marked 400 here.
  const armor = { exposeLimits: true, propagateOnRejection: true, onReject: [markRefusal] };
  const plugins: Plugin[] = [
    publicOnly(maxTokensPlugin({ ...armor, n: limits.maxTokens })),
    publicOnly(maxDepthPlugin({ ...armor, n: limits.maxDepth, flattenFragments: true, ignoreIntrospection: true })),
    publicOnly(maxAliasesPlugin({ ...armor, n: limits.maxAliases, allowList: [] })),
    publicOnly(maxDirectivesPlugin({ ...armor, n: limits.maxDirectives })),
    costLimitPlugin(limits),
    {
      // A parse-time refusal (tokens) reaches the response without its status: set it on the result.
      onResultProcess({ result, setResult }) {
        if (Array.isArray(result) || !result || typeof result !== 'object' || !('errors' in result)) return;
        const errors = (result as { errors?: readonly { extensions?: Record<string, unknown> }[] }).errors;
        if (!errors?.some((e) => e.extensions?.code === 'GRAPHQL_LIMIT_EXCEEDED')) return;
        const extensions = (result as { extensions?: Record<string, unknown> }).extensions;
        setResult({ ...result, extensions: { ...extensions, http: { status: 400 } } } as typeof result);
      },
    },
  ];
  if (limits.hideSuggestions) plugins.push(onlyForAnonymous(blockFieldSuggestionsPlugin({ mask: '' })));
  if (!limits.introspection) {
    plugins.push({
      onValidate: ({ addValidationRule, context }) => {
        if (anonymous(context) && !internal(context)) addValidationRule(noIntrospection);
      },
    });
  }
  return plugins;
}

/** Header that lets a non-JSON POST (form, multipart) through: browsers cannot add it without a CORS preflight. */
const CSRF_HEADER = 'x-graphql-yoga-csrf';
const JSON_TYPES = ['application/json', 'application/graphql-response+json'];

/**
 * Cross-site request forgery: a browser sends form, multipart and text/plain POSTs
 * cross-site without a preflight, with the user's Basic credentials. Those are refused unless they
 * carry the CSRF header (Yoga's plugin); a POST must say what it is (no Content-Type → 415). GETs
 * cannot run mutations (Yoga answers 405), so they need no header.
 */
export function csrfPlugins(): Plugin[] {
  const library = useCSRFPrevention({ requestHeaders: [CSRF_HEADER] });
  return [
    {
      onRequestParse(payload) {
        const { request } = payload;
        if (request.method !== 'POST') return;
        const type = request.headers.get('content-type')?.toLowerCase() ?? '';
        if (JSON_TYPES.some((t) => type.startsWith(t))) return;
        if (!type || !(type.startsWith('multipart/form-data') || type.startsWith('application/x-www-form-urlencoded'))) {
          throw createGraphQLError(`POST /graphql needs Content-Type: application/json (got ${type ? JSON.stringify(type.split(';')[0]) : 'none'}).`, {
            extensions: { code: 'UNSUPPORTED_MEDIA_TYPE', http: { status: 415 } },
          });
        }
        return library.onRequestParse!(payload);
      },
    },
  ];
}

/** Yoga's own options for the limits it implements itself. */
export function yogaLimitOptions(limits: GraphQLLimits) {
  // CORS is the app's (src/server/middleware/cors.ts): Yoga's default echoes any origin with credentials.
  return { batching: limits.maxBatch > 0 ? { limit: limits.maxBatch } : false, cors: false } as const;
}

function onlyForAnonymous(plugin: Plugin): Plugin {
  const inner = plugin.onValidate!;
  return { onValidate: (payload) => (anonymous(payload.context) ? inner(payload) : undefined) };
}

/** Without graphql's NoSchemaIntrospectionCustomRule: its instanceof checks break across graphql's two builds. */
function noIntrospection(context: ValidationContext): ASTVisitor {
  return {
    Field(node) {
      if (node.name.value === '__schema' || node.name.value === '__type') {
        context.reportError(limitError('GraphQL introspection is disabled for anonymous callers.', 'INTROSPECTION_DISABLED'));
      }
    },
  };
}

function costLimitPlugin(limits: GraphQLLimits): Plugin {
  let schema: GraphQLSchema | undefined;
  const exceeded = (cost: number, what = '') =>
    limitError(`Query cost limit of ${limits.maxCost} exceeded${what}, found ${cost}. Ask for fewer items or fields.`, 'COST_LIMIT_EXCEEDED');
  // Queries and mutations (onExecute) and subscriptions (onSubscribe, over SSE and WebSocket) alike.
  const check = ({ args, setResultAndStopExecution }: { args: ExecutionArgs; setResultAndStopExecution: (result: ExecutionResult) => void }) => {
    if (internal(args.contextValue)) return;
    const cost = operationCost(args.schema, args.document, args.operationName, args.variableValues ?? {}, limits.defaultListSize);
    if (cost > limits.maxCost) setResultAndStopExecution({ errors: [exceeded(cost)] });
  };
  return {
    onSchemaChange({ schema: current }) {
      schema = current;
    },
    // A batch (array POST) is one request: its operations run at once, so their costs add up and
    // the whole array is refused before any of it runs. Unparsable entries fail on their own later.
    onRequestParse() {
      return {
        onRequestParseDone({ requestParserResult }) {
          if (!Array.isArray(requestParserResult) || !schema) return;
          let total = 0;
          for (const params of requestParserResult) {
            if (typeof params?.query !== 'string') continue;
            let document: DocumentNode;
            try {
              document = parse(params.query, { maxTokens: limits.maxTokens });
            } catch {
              continue;
            }
            const variables = params.variables && typeof params.variables === 'object' ? params.variables : {};
            total += operationCost(schema, document, params.operationName, variables, limits.defaultListSize);
          }
          if (total > limits.maxCost) throw exceeded(total, ' by this batch');
        },
      };
    },
    onExecute: check,
    onSubscribe: check,
  };
}

/** Arguments that say how many items a list field returns. */
const PAGE_ARGS = new Set(['first', 'last', 'perPage', 'per_page', 'limit']);

interface SchemaField {
  type: unknown;
  args?: readonly { name: string; defaultValue?: unknown }[];
}

/** A page size or ID count from a request value (a number, or a list's length); undefined for anything else (null included). */
function countOf(value: unknown): number | undefined {
  if (typeof value === 'number') return value;
  if (Array.isArray(value)) return value.length;
  return undefined;
}

/**
 * The estimated cost of an operation: every field costs 1, and the selection below a list field
 * counts once per item it may return — its `first`/`last`/`perPage`/`per_page`/`limit` argument,
 * the length of an `ids` list, or `defaultListSize` when none is given. An argument is read as it
 * will run: a literal, a variable's value, else the variable's default, else the argument's own
 * default in the schema (`occurrences(first: Int = 100)`). Lists directly inside a connection
 * (`edges`, `nodes`) are the connection's page and do not multiply again. Works from the schema by
 * type names only (no instanceof: graphql may be loaded twice, as ESM and CJS).
 */
export function operationCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | null | undefined,
  variables: Record<string, unknown>,
  defaultListSize: number,
): number {
  const fragments = new Map<string, FragmentDefinitionNode>();
  let operation: OperationDefinitionNode | undefined;
  for (const d of document.definitions) {
    if (d.kind === 'FragmentDefinition') fragments.set(d.name.value, d);
    else if (d.kind === 'OperationDefinition' && (!operationName || d.name?.value === operationName)) operation ??= d;
  }
  if (!operation) return 0;
  const root =
    operation.operation === 'query' ? schema.getQueryType() : operation.operation === 'mutation' ? schema.getMutationType() : schema.getSubscriptionType();

  // A variable left out takes its default (`$n: Int = 50`); one given, even null, is what runs.
  const defaults = new Map<string, ValueNode>();
  for (const v of operation.variableDefinitions ?? []) if (v.defaultValue) defaults.set(v.variable.name.value, v.defaultValue);
  const numberOf = (value: ValueNode | undefined): number | undefined => {
    if (!value) return undefined;
    if (value.kind === 'IntValue') return Number(value.value);
    if (value.kind === 'ListValue') return value.values.length;
    if (value.kind === 'Variable') {
      const name = value.name.value;
      return Object.hasOwn(variables, name) ? countOf(variables[name]) : numberOf(defaults.get(name));
    }
    return undefined;
  };

  const fieldsOf = (typeName: string | undefined) => {
    const type = typeName ? (schema.getType(typeName) as { getFields?: () => Record<string, SchemaField> } | undefined) : undefined;
    return type?.getFields?.();
  };

  const visit = (set: SelectionSetNode | undefined, typeName: string | undefined, seen: Set<string>): number => {
    if (!set) return 0;
    let total = 0;
    for (const selection of set.selections) {
      if (selection.kind === 'InlineFragment') {
        total += visit(selection.selectionSet, selection.typeCondition?.name.value ?? typeName, seen);
      } else if (selection.kind === 'FragmentSpread') {
        const fragment = fragments.get(selection.name.value);
        if (fragment && !seen.has(fragment.name.value)) {
          total += visit(fragment.selectionSet, fragment.typeCondition.name.value, new Set([...seen, fragment.name.value]));
        }
      } else {
        total += fieldCost(selection, typeName, seen);
      }
    }
    return total;
  };

  const fieldCost = (field: FieldNode, parentType: string | undefined, seen: Set<string>): number => {
    if (!field.selectionSet) return 1;
    const definition = fieldsOf(parentType)?.[field.name.value];
    const typeString = String(definition?.type ?? '');
    const childType = typeString.replace(/[[\]!]/g, '') || undefined;
    let multiplier: number | undefined;
    const given = new Map((field.arguments ?? []).map((a) => [a.name.value, a.value]));
    for (const name of new Set([...given.keys(), ...(definition?.args ?? []).map((a) => a.name)])) {
      if (!PAGE_ARGS.has(name) && name !== 'ids') continue;
      // Not given, null, or a variable without a value: what the resolver gets is the schema's default.
      const n = numberOf(given.get(name)) ?? countOf(definition?.args?.find((a) => a.name === name)?.defaultValue);
      if (n !== undefined) multiplier = Math.max(multiplier ?? 0, n);
    }
    if (multiplier === undefined) {
      const isList = typeString.startsWith('[');
      // A connection, or a union result that may be one (`... on EventConnection`), is a page.
      const isConnection =
        !!childType?.endsWith('Connection') ||
        field.selectionSet.selections.some((s) => s.kind === 'InlineFragment' && !!s.typeCondition?.name.value.endsWith('Connection'));
      const isConnectionPage = !!parentType?.endsWith('Connection');
      multiplier = isConnection || (isList && !isConnectionPage) ? defaultListSize : 1;
    }
    return 1 + Math.max(1, multiplier) * visit(field.selectionSet, childType, seen);
  };

  return visit(operation.selectionSet, root?.name, new Set());
}
