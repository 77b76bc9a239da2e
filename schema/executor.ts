import type { DocumentNode, ExecutionResult } from 'graphql';
import type { Context } from '../src/services/context.ts';

/**
 * Running this schema's operations in-process: what the REST facade (rest-facade/) and the pages
 * (src/web/) are given to run their operations, without knowing the server that built it
 * (src/server/yoga.ts: through Yoga's envelop chain, with the plugins, masking and context of `/graphql`).
 */
export interface Executor {
  /** Validates a document holding one named operation against the schema, once; throws when it does not fit. */
  prepare(document: DocumentNode): PreparedOperation;
  execute(operation: PreparedOperation, variables: Record<string, unknown>, cal: Context): Promise<ExecutionResult>;
}

/** A named operation validated once, run many times. */
export interface PreparedOperation {
  name: string;
  document: DocumentNode;
}
