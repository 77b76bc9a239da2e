import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import type { DocumentNode, ExecutionResult, GraphQLSchema } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { compiledRoot } from '../../schema/shared-paths.ts';

/**
 * Fixed operations run compiled (graphql-jit): the REST facade's and the pages' operations and the
 * trusted documents are known before they run, so each is compiled into one function once, and
 * executed by it instead of graphql-js's walk of the document for every field of every record.
 * Ad-hoc documents keep graphql-js, and so do documents with `@defer`/`@stream` (answered in parts)
 * and subscriptions (which never pass through `execute`).
 *
 * It is one envelop plugin that only swaps the execute function (`setExecuteFn`): every plugin's
 * `onExecute` and `onExecuteDone` still run around a compiled execution, in the plugins' order, as
 * they do around graphql-js's, and Yoga's error masking sees the same result. So an instrumentation
 * plugin (metrics, tracing) attaches by `onExecute` (the operation's name and document, its start)
 * and the `onExecuteDone` it returns (the result, its errors, the end), or by `instrumentation.execute`,
 * which wraps every execution whichever function runs it. A plugin that wraps the execute function
 * itself (`setExecuteFn(wrap(executeFn))`) must stand after this one in the list, so that the
 * `executeFn` it is handed is the compiled one; before it, this plugin would replace its wrapper.
 *
 * The resolvers are the schema's own (Pothos's, with the Prisma plugin's selections and the error
 * plugin's typed results); `compiledRoot()` carries the path links they find their parent's plan by
 * (schema/shared-paths.ts).
 */
export function useCompiledOperations(opts: { compile: (contextValue: unknown) => boolean }): Plugin {
  // Per schema (there is one) and document, by operation name: compiled once, or null when graphql-jit refused it.
  const compiled = new WeakMap<GraphQLSchema, WeakMap<DocumentNode, Map<string, CompiledQuery | null>>>();
  const compiledFor = (schema: GraphQLSchema, document: DocumentNode, operationName: string | null | undefined): CompiledQuery | null => {
    let bySchema = compiled.get(schema);
    if (!bySchema) compiled.set(schema, (bySchema = new WeakMap()));
    let byName = bySchema.get(document);
    if (!byName) bySchema.set(document, (byName = new Map()));
    const name = operationName ?? '';
    let query = byName.get(name);
    if (query === undefined) {
      query = streamed(document) ? null : compiledOrNull(schema, document, operationName);
      byName.set(name, query);
    }
    return query;
  };
  return {
    onExecute({ args, setExecuteFn }) {
      if (!opts.compile(args.contextValue)) return;
      const query = compiledFor(args.schema, args.document, args.operationName);
      if (!query) return;
      setExecuteFn((run) => query.query(compiledRoot(), run.contextValue, run.variableValues ?? {}) as ExecutionResult | Promise<ExecutionResult>);
    },
  };
}

/** The compiled operation; null (graphql-js runs it, and says what is wrong) when graphql-jit refuses the document or fails on it. */
function compiledOrNull(schema: GraphQLSchema, document: DocumentNode, operationName: string | null | undefined): CompiledQuery | null {
  try {
    const result = compileQuery(schema, document, operationName ?? undefined);
    return isCompiledQuery(result) ? result : null;
  } catch {
    return null;
  }
}

/** Whether the document uses `@defer` or `@stream` anywhere: answered in parts, by graphql-js's executor. */
function streamed(document: DocumentNode): boolean {
  const seen = (node: unknown): boolean => {
    if (Array.isArray(node)) return node.some(seen);
    if (typeof node !== 'object' || node === null) return false;
    const n = node as { kind?: string; name?: { value: string } };
    if (n.kind === 'Directive' && (n.name?.value === 'defer' || n.name?.value === 'stream')) return true;
    for (const key in node) if (key !== 'loc' && seen((node as Record<string, unknown>)[key])) return true;
    return false;
  };
  return seen(document.definitions);
}
