/** Abusive requests (huge lists, deep and aliased queries, big bodies), shared by test/server/abuse.test.ts and the abuse benchmark. */
export interface AbusiveRequest {
  name: string;
  send: () => Promise<{ status: number }>;
}

export function abusiveRequests(base: string): AbusiveRequest[] {
  const graphql = (body: string) =>
    fetch(`${base}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body }).then(async (r) => {
      await r.arrayBuffer();
      return { status: r.status };
    });
  let deep = 'databaseId';
  for (let i = 0; i < 25; i++) deep = `parent { children { ${deep} } }`;
  const ids = Array.from({ length: 1000 }, (_, i) => Buffer.from(`Event:${i + 1}`).toString('base64'));
  return [
    { name: 'nodes(1000 ids)', send: () => graphql(JSON.stringify({ query: 'query ($ids: [ID!]!) { nodes(ids: $ids) { id ... on Event { title description } } }', variables: { ids } })) },
    { name: 'cyclic depth 50', send: () => graphql(JSON.stringify({ query: `{ eventCategory(id: 1) { ... on EventCategory { ${deep} } } }` })) },
    {
      name: '1000 aliases',
      send: () => graphql(JSON.stringify({ query: `{ ${Array.from({ length: 1000 }, (_, i) => `a${i}: events(perPage: 50) { __typename }`).join(' ')} }` })),
    },
    { name: '5 MB body', send: () => graphql(JSON.stringify({ query: '{ __typename }', variables: { pad: 'x'.repeat(5 * 1024 * 1024) } })) },
  ];
}
