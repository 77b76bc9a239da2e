/**
 * Runs one of the pages' named operations (src/web/generated/operations.ts) through the executor
 * with the caller's context, typed by its document. A GraphQL error is not the visitor's fault
 * (the page built the variables): it is thrown, and answered as a 500 page.
 */
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import type { Context } from 'koa';
import type { AppState } from '../context.ts';
import type { Executor, PreparedOperation } from '../server/yoga.ts';

export interface PageOperations {
  run<R, V extends object>(ctx: Context, document: TypedDocumentNode<R, V>, variables: V): Promise<R>;
}

export function createPageOperations(executor: Executor): PageOperations {
  const prepared = new Map<unknown, PreparedOperation>();
  return {
    async run<R, V extends object>(ctx: Context, document: TypedDocumentNode<R, V>, variables: V): Promise<R> {
      let op = prepared.get(document);
      if (!op) prepared.set(document, (op = executor.prepare(document)));
      const result = await executor.execute(op, Object.fromEntries(Object.entries(variables)), (ctx.state as AppState).cal);
      if (result.errors?.length || !result.data) throw new Error(`${op.name}: ${result.errors?.map((e) => e.message).join('; ') ?? 'no data'}`);
      return result.data as R;
    },
  };
}
