import { ValidationError } from '../../src/domain/errors.ts';
import { builder } from '../builder.ts';
import { domainGraphQLError, raisesDomainErrors } from '../errors.ts';
import { decodeGlobalId } from '../ids.ts';
import { loadNodes } from '../node-loader.ts';

/**
 * `node(id)` / `nodes(ids)` (Relay), declared here rather than by the relay plugin so that a
 * malformed global ID is the client's mistake: a `BAD_USER_INPUT` error naming the argument (for
 * `nodes`, on that item only), never a masked server fault. A well-formed ID of an unknown type or
 * record, or of one the caller may not read, answers null.
 */
type GlobalId = { typename: string; id: number };

const wellFormed = (d: GlobalId | ValidationError): d is GlobalId => !(d instanceof ValidationError);

const NodeRef = builder.nodeInterfaceRef();

builder.queryFields((t) => ({
  node: t.field({
    type: NodeRef,
    nullable: true,
    args: { id: t.arg.id({ required: true }) },
    resolve: raisesDomainErrors(async (_root, { id }, ctx, info) => {
      const decoded = decodeGlobalId(String(id), 'id');
      if (!wellFormed(decoded)) throw decoded;
      return (await loadNodes(ctx, info, [decoded]))[0];
    }),
  }),
  nodes: t.field({
    type: [NodeRef],
    nullable: { list: false, items: true },
    args: { ids: t.arg.idList({ required: true }) },
    resolve: raisesDomainErrors(async (_root, { ids }, ctx, info) => {
      // A malformed ID fails its own item (null, with an error at `nodes.<i>`); the others load in one batch.
      const decoded = ids.map((id) => decodeGlobalId(String(id), 'ids'));
      const loaded = await loadNodes(ctx, info, decoded.filter(wellFormed));
      let next = 0;
      return decoded.map((d) => (wellFormed(d) ? Promise.resolve(loaded[next++] ?? null) : Promise.reject(domainGraphQLError(d))));
    }),
  }),
}));
