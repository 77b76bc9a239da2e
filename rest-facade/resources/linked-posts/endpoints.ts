/**
 * The endpoints of venues and organizers, one object each (endpoint.ts): the same routes and
 * translations but for their operations, argument tables and presenter (contract §5.6, §6, §7.7,
 * §7.9). venues/endpoints.ts and organizers/endpoints.ts name theirs.
 */
import { invalidParamsError, tableError } from '../../wp/errors.ts';
import type { WpRequest } from '../../wp/types.ts';
import { isTruthy } from '../../wp/coerce.ts';
import type {
  CreateOrganizerMutationVariables,
  CreateVenueMutationVariables,
  DeleteOrganizerMutationVariables,
  DeleteVenueMutationVariables,
  LinkedPostFilter,
  OrganizerByIdQueryVariables,
  OrganizersArchiveQueryVariables,
  UpdateOrganizerMutationVariables,
  UpdateVenueMutationVariables,
  VenueByIdQueryVariables,
  VenuesArchiveQueryVariables,
} from '../../generated/operations.ts';
import { endpoint, ID, SLUG, UPDATE, writePermission, type Endpoint, type Operations, type PostArgTables } from '../endpoint.ts';
import { intList, listStatusParam, pageVariables, pathId, sentParams, statusEnumList, type Building } from '../params.ts';
import { linkedPostInput, type LinkedPostCreate } from './input.ts';
import type { JsonObject, RestUrls } from '../../presenters/util.ts';
import { linkedPostsListResponse, type LinkedPostFragment, type LinkedPostPresentOptions } from './presenter.ts';

/** The operations of a venue or organizer; a write's payload has the record under the alias `record` (`record: venue { … }`). */
type LinkedPostOperations<N> = Operations<
  N,
  { readonly record: N },
  {
    list: VenuesArchiveQueryVariables & OrganizersArchiveQueryVariables;
    byId: VenueByIdQueryVariables & OrganizerByIdQueryVariables;
    create: CreateVenueMutationVariables & CreateOrganizerMutationVariables;
    update: UpdateVenueMutationVariables & UpdateOrganizerMutationVariables;
    remove: DeleteVenueMutationVariables & DeleteOrganizerMutationVariables;
  }
>;

export interface LinkedPostResource<N> {
  kind: 'venue' | 'organizer';
  /** The collection's route: `/venues`, `/organizers`. */
  path: string;
  args: PostArgTables;
  operations: LinkedPostOperations<N>;
  present: (node: N, urls: RestUrls, opts: LinkedPostPresentOptions) => JsonObject;
}

/** `GET /venues`, `GET /organizers` query parameters → `LinkedPostFilter`. */
function linkedPostFilter(req: WpRequest): LinkedPostFilter {
  const p = req.params;
  const filter: Building<LinkedPostFilter> = {};
  if (req.sent('search')) filter.search = String(p.search);
  if (req.sent('event')) filter.event = intList('event', p.event)[0];
  if (req.sent('has_events')) filter.hasEvents = isTruthy(p.has_events);
  if (req.sent('only_with_upcoming')) filter.onlyWithUpcoming = isTruthy(p.only_with_upcoming);
  if (req.sent('status')) filter.statuses = statusEnumList('status', p.status);
  return filter;
}

/** In the namespace index's order: the collection, then each item's read, delete and update. */
export function linkedPostEndpoints<N extends LinkedPostFragment>({ kind, path, args, operations: ops, present: presentNode }: LinkedPostResource<N>): Endpoint[] {
  const present = (node: N, req: WpRequest, jsonLd: boolean) => ({ body: presentNode(node, req.urls, { jsonLd }) });
  const address = (req: WpRequest) =>
    req.pathParams.slug !== undefined ? { slug: req.pathParams.slug } : { id: pathId(req, () => invalidParamsError([['id', false]])) };
  const input = (req: WpRequest) => linkedPostInput(kind, req.params, req.sent);
  const byId = `${path}/${ID}`;
  const bySlug = `${path}/by-slug/${SLUG}`;
  return [
    endpoint({
      name: 'list',
      methods: ['GET'],
      routes: [{ path, args: args.list }],
      permission: 'public',
      resource: kind,
      operation: ops.list,
      variables: (req) => ({ filter: linkedPostFilter(req), ...pageVariables(req) }),
      present: (value, req) => {
        const page = Number(req.params.page);
        const items = value.edges.map((e) => present(e.node, req, false).body);
        if (page > 1 && items.length === 0) throw tableError(`${kind}-archive-page-not-found`);
        return linkedPostsListResponse(kind, {
          items,
          total: value.totalCount,
          totalPages: value.totalPages,
          page,
          perPage: value.perPage,
          params: { ...sentParams(req, ['event', 'has_events', 'search', 'only_with_upcoming']), status: listStatusParam(req) },
          urls: req.urls,
        });
      },
    }),
    endpoint({
      name: 'create',
      methods: ['POST'],
      routes: [{ path, args: args.create }],
      permission: writePermission,
      resource: kind,
      operation: ops.create,
      // The argument table requires the name (`venue`, `organizer`): the input has it.
      variables: (req) => ({ input: input(req) as LinkedPostCreate }),
      present: ({ record }, req) => ({ status: 201, ...present(record, req, false) }),
    }),
    endpoint({
      name: 'get',
      methods: ['GET'],
      routes: [{ path: byId, args: args.get }, { path: bySlug, args: args.getBySlug }],
      permission: 'public',
      resource: kind,
      operation: ops.byId,
      variables: address,
      present: (node, req) => present(node, req, true),
    }),
    endpoint({
      name: 'remove',
      methods: ['DELETE'],
      routes: [{ path: byId, args: args.delete }, { path: bySlug, args: args.deleteBySlug }],
      permission: writePermission,
      resource: kind,
      operation: ops.remove,
      variables: address,
      present: ({ record }, req) => present(record, req, false),
    }),
    endpoint({
      name: 'update',
      methods: UPDATE,
      routes: [{ path: byId, args: args.update }, { path: bySlug, args: args.updateBySlug }],
      permission: writePermission,
      resource: kind,
      operation: ops.update,
      variables: (req) => ({ ...address(req), input: input(req) }),
      present: ({ record }, req) => present(record, req, false),
    }),
  ];
}
