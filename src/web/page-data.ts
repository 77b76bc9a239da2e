/**
 * The pages as a client of the core: each page runs its own named GraphQL operations
 * (src/web/operations/*.graphql, typed by GraphQL Code Generator into src/web/generated/operations.ts)
 * through the in-process executor, with the request's GraphQL context — the same viewer,
 * credentials, visibility and clock the REST facade and `/graphql` give this request.
 *
 *   const data = await pageData.run(ctx, EventsListDocument, { filter, page });
 *
 * `run` resolves to the operation's typed data. A typed error the core raised (not found, not
 * accessible, invalid input, sign-in required) becomes a `PageRefusal` carrying the HTTP status the
 * page answers (the web router renders it as an error page); any other GraphQL error is a bug here
 * (the pages build their variables) and is thrown as such.
 */
import type { ResultOf, TypedDocumentNode, VariablesOf } from '@graphql-typed-document-node/core';
import type { DocumentNode } from 'graphql';
import type { Context as KoaContext } from 'koa';
import type { AppState, Context } from '../services/context.ts';
import { RETRY_AFTER_S } from '../db/unavailable.ts';
import type { Executor, PreparedOperation } from '../../schema/executor.ts';
import * as generated from './generated/operations.ts';

/** The status a page answers for a typed error of the core (`extensions.type`). */
const REFUSAL_STATUS: Record<string, number> = {
  NotFoundError: 404,
  ForbiddenError: 404, // a record the caller may not read is not there, as for the pages until now
  GoneError: 404,
  ValidationError: 400,
  UnauthenticatedError: 401,
};

/** A page the core refused: rendered as an HTML error page with this status. */
export class PageRefusal extends Error {
  constructor(
    readonly status: number,
    message = '',
    /** Seconds, for a 429 or a 503 (`Retry-After`). */
    readonly retryAfter?: number,
  ) {
    super(message);
    this.name = 'PageRefusal';
  }
}

export interface RunOptions {
  /**
   * A password the visitor entered in a password form: the core is given this one only (not the
   * post-password cookie), so that `locked` tells whether it opens the record.
   */
  password?: string;
}

export type PageRun = <D extends TypedDocumentNode<ResultOf<D>, VariablesOf<D>>>(
  ctx: KoaContext,
  document: D,
  variables: VariablesOf<D>,
  options?: RunOptions,
) => Promise<ResultOf<D>>;

/** The GraphQL context of this request (set by the server's auth middleware). */
export function calOf(ctx: KoaContext): Context {
  return (ctx.state as AppState).cal;
}

export function createPageData(executor: Executor): { run: PageRun } {
  // Every operation of src/web/operations/, each validated on its first run (as the REST facade's are).
  const documents: DocumentNode[] = Object.values(generated).filter((d) => d.definitions.some((def) => def.kind === 'OperationDefinition'));
  const prepared = new Map<DocumentNode, PreparedOperation>(documents.map((d) => [d, executor.prepare(d)]));
  const operation = (document: DocumentNode) => {
    const op = prepared.get(document);
    if (!op) throw new Error('not an operation of src/web/generated/operations.ts');
    return op;
  };
  const run: PageRun = async (ctx, document, variables, options = {}) => {
    const op = operation(document);
    const base = calOf(ctx);
    const cal = options.password !== undefined ? { ...base, password: options.password, postPass: undefined } : base;
    const result = await executor.execute(op, variables ?? {}, cal);
    const error = result.errors?.[0];
    if (error) {
      const type = error.extensions?.type;
      const status = typeof type === 'string' ? REFUSAL_STATUS[type] : undefined;
      if (status) throw new PageRefusal(status, error.message);
      if (error.extensions?.code === 'BAD_USER_INPUT') throw new PageRefusal(400, error.message);
      if (error.extensions?.code === 'SERVICE_UNAVAILABLE') throw new PageRefusal(503, error.message, RETRY_AFTER_S);
      throw new Error(`page operation ${op.name} failed: ${result.errors!.map((e) => e.message).join('; ')}`);
    }
    if (!result.data) throw new Error(`page operation ${op.name} returned no data`);
    // The data has the shape the document's generated type describes (GraphQL execution guarantees it).
    return result.data as ResultOf<typeof document>;
  };
  return { run };
}
