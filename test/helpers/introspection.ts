/**
 * Introspection shapes and helpers for the suites that walk the schema's arguments (every argument
 * of every root field, every field of their input objects) instead of listing them by hand.
 */
export interface TypeRef {
  kind: string;
  name: string | null;
  ofType: TypeRef | null;
}

export interface InputValue {
  name: string;
  type: TypeRef;
}

/** The selection of a type reference, four wrappers deep (`[String!]!` needs three). */
export const TYPE_REF = 'kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name } } } }';

/** The named type under the list and non-null wrappers. */
export const named = (t: TypeRef): TypeRef => (t.ofType ? named(t.ofType) : t);

export const isList = (t: TypeRef): boolean => t.kind === 'LIST' || (t.kind === 'NON_NULL' && isList(t.ofType!));

/** The type as SDL writes it (`[String!]!`), for variable declarations. */
export const print = (t: TypeRef): string => (t.kind === 'NON_NULL' ? `${print(t.ofType!)}!` : t.kind === 'LIST' ? `[${print(t.ofType!)}]` : t.name!);
