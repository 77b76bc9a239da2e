import type { DocumentNode, ExecutionResult } from 'graphql';
import type { Context } from '../src/services/context.ts';

/**
 * Running this schema's operations in-process: what the REST facade (rest-facade/) and the pages
 * (src/web/) are given to run their operations, without knowing the server that built it
 * (src/server/yoga.ts: through Yoga's envelop chain, with the plugins, masking and context of `/graphql`).
 */
export interface Executor {
  /**
   * A document holding one named operation, to run; it is validated against the schema once, on its
   * first run (which throws when it does not fit).
   */
  prepare(document: DocumentNode): PreparedOperation;
  execute(operation: PreparedOperation, variables: Record<string, unknown>, cal: Context): Promise<ExecutionResult>;
}

/** A named operation, validated on its first run, run many times. */
export interface PreparedOperation {
  name: string;
  document: DocumentNode;
}
