import { readFileSync } from 'node:fs';
import { createInMemoryAPQStore, useAPQ } from '@graphql-yoga/plugin-apq';
import { defaultExtractPersistedOperationId, usePersistedOperations } from '@graphql-yoga/plugin-persisted-operations';
import type { Plugin } from 'graphql-yoga';
import { z } from 'zod';

/** Trusted documents: operation ID (usually the SHA-256 of its text) → document text. */
export type TrustedDocuments = ReadonlyMap<string, string>;

// The common manifest formats: `{ "<id>": "query …" }` (GraphQL Code Generator's client preset's
// `persisted-documents.json`, and relay-compiler's `persistConfig.file` output as it writes it) and
// Apollo's (`{ format: "apollo-persisted-query-manifest", operations: [{ id, body }] }`).
const manifest = z.union([
  z.object({ format: z.literal('apollo-persisted-query-manifest'), operations: z.array(z.object({ id: z.string().min(1), body: z.string().min(1) })) }),
  z.record(z.string().min(1), z.string().min(1)),
]);

/** Reads a trusted-documents manifest (CAL_GRAPHQL_TRUSTED_DOCUMENTS); throws a one-line message when it is unusable. */
export function loadTrustedDocuments(path: string): TrustedDocuments {
  let parsed: z.infer<typeof manifest>;
  try {
    parsed = manifest.parse(JSON.parse(readFileSync(path, 'utf8')));
  } catch (e) {
    throw new Error(`cannot read the trusted documents manifest ${path}: ${(e as Error).message.split('\n')[0]}`);
  }
  if ('format' in parsed && Array.isArray(parsed.operations)) return new Map(parsed.operations.map((o) => [o.id, o.body]));
  return new Map(Object.entries(parsed).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
}

/**
 * Persisted operations of `/graphql`. Without a manifest: automatic persisted
 * queries (Apollo's APQ: a client sends the SHA-256 of its document, and the document itself once
 * when the server answers `PERSISTED_QUERY_NOT_FOUND`), kept per process. With a manifest (trusted
 * documents): anonymous callers may run only the listed operations, by ID (`documentId`, Relay's
 * `doc_id`, or APQ's `extensions.persistedQuery.sha256Hash`); signed-in callers may send any
 * document. Over HTTP a request that carries an Authorization header here is signed in: wrong
 * credentials were refused (401) before Yoga. Persisted GET reads get the ETag and Cache-Control of
 * every GET read.
 */
export function persistedOperationPlugins(trusted: TrustedDocuments | null): Plugin[] {
  if (!trusted) return [useAPQ({ store: createInMemoryAPQStore({ max: 5000, ttl: 24 * 3600 * 1000 }) })];
  return [
    usePersistedOperations({
      getPersistedOperation: (key) => trusted.get(key) ?? null,
      // `documentId` (GraphQL over HTTP's persisted documents) or `doc_id` (Relay's), in the JSON body
      // or the query string; else APQ's hash.
      extractPersistedOperationId: (params, request, context) => {
        const search = new URL(request.url).searchParams;
        for (const key of DOCUMENT_ID_KEYS) {
          const inBody = key in params ? (params as Record<string, unknown>)[key] : undefined;
          if (typeof inBody === 'string' && inBody) return inBody;
          const inQuery = search.get(key);
          if (inQuery) return inQuery;
        }
        return defaultExtractPersistedOperationId(params, request, context);
      },
      allowArbitraryOperations: (request) => request.headers.has('authorization'),
      customErrors: {
        persistedQueryOnly: {
          message: 'Only trusted operations may be run without signing in: send a documentId (or doc_id) from the manifest.',
          extensions: { code: 'PERSISTED_QUERY_ONLY', http: { status: 400 } },
        },
        notFound: { message: 'No trusted operation has this ID.', extensions: { code: 'PERSISTED_QUERY_NOT_IN_LIST', http: { status: 400 } } },
        keyNotFound: { message: 'Send a documentId or doc_id (or extensions.persistedQuery.sha256Hash).', extensions: { code: 'PERSISTED_QUERY_ONLY', http: { status: 400 } } },
      },
    }),
  ];
}

/** Where a request names a trusted document: GraphQL over HTTP's `documentId`, Relay's `doc_id`. */
const DOCUMENT_ID_KEYS = ['documentId', 'doc_id'] as const;

/** Over WebSocket (no HTTP request per operation): may an anonymous caller run this document? */
export function isTrustedDocument(trusted: TrustedDocuments, query: string, extensions: Record<string, unknown> | undefined | null): string | null {
  const persisted = extensions?.persistedQuery as { sha256Hash?: unknown } | undefined;
  const named = DOCUMENT_ID_KEYS.map((key) => extensions?.[key]).find((v) => typeof v === 'string');
  const id = typeof named === 'string' ? named : typeof persisted?.sha256Hash === 'string' ? persisted.sha256Hash : null;
  if (id !== null) return trusted.get(id) ?? null;
  for (const body of trusted.values()) if (body === query) return body;
  return null;
}
