/**
 * The endpoints of categories and tags, one object each (endpoint.ts): the same routes and
 * translations but for their operations and argument tables (contract §5.7, §7.8, §7.9).
 * categories/endpoints.ts and tags/endpoints.ts name theirs.
 */
import { invalidParamsError, tableError } from '../../wp/errors.ts';
import type { WpRequest } from '../../wp/types.ts';
import type {
  CreateEventCategoryMutationVariables,
  CreateEventTagMutationVariables,
  CreateTermInput,
  DeleteEventCategoryMutationVariables,
  DeleteEventTagMutationVariables,
  EventCategoryByIdQueryVariables,
  EventCategoryListQueryVariables,
  EventTagByIdQueryVariables,
  EventTagListQueryVariables,
  TermFilter,
  UpdateEventCategoryMutationVariables,
  UpdateEventTagMutationVariables,
  UpdateTermInput,
} from '../../generated/operations.ts';
import { endpoint, ID, UPDATE, writePermission, type Endpoint, type Operations, type TermArgTables } from '../endpoint.ts';
import { intList, pageVariables, pathId, recordId, sentParams, type Building } from '../params.ts';
import { presentTerm, termsListResponse, type AnyTerm, type Taxonomy } from './presenter.ts';

/** The operations of a category or tag; a write's payload has the term under the alias `term` (a deleted one as it was). */
type TermOperations<N> = Operations<
  N,
  { readonly term: AnyTerm },
  {
    list: EventCategoryListQueryVariables & EventTagListQueryVariables;
    byId: EventCategoryByIdQueryVariables & EventTagByIdQueryVariables;
    create: CreateEventCategoryMutationVariables & CreateEventTagMutationVariables;
    update: UpdateEventCategoryMutationVariables & UpdateEventTagMutationVariables;
    remove: DeleteEventCategoryMutationVariables & DeleteEventTagMutationVariables;
  }
>;

export interface TermResource<N> {
  taxonomy: Taxonomy;
  /** The collection's route: `/categories`, `/tags`. */
  path: string;
  args: TermArgTables;
  operations: TermOperations<N>;
}

/** `GET /categories`, `GET /tags` query parameters → `TermFilter`. */
function termFilter(req: WpRequest): TermFilter {
  const p = req.params;
  const filter: Building<TermFilter> = {};
  if (req.sent('search')) filter.search = String(p.search);
  if (req.sent('include')) filter.include = intList('include', p.include);
  if (req.sent('exclude')) filter.exclude = intList('exclude', p.exclude);
  if (req.sent('order')) filter.order = String(p.order);
  if (req.sent('orderby')) filter.orderby = String(p.orderby);
  filter.hideEmpty = p.hide_empty === undefined ? true : Boolean(p.hide_empty);
  if (req.sent('parent')) filter.parent = intList('parent', p.parent)[0];
  const event = req.sent('event') ? p.event : req.sent('post') ? p.post : undefined;
  if (event !== undefined) filter.event = intList(req.sent('event') ? 'event' : 'post', event)[0];
  if (req.sent('slug')) filter.slug = String(p.slug);
  return filter;
}

/** Term write parameters → UpdateTermInput (and CreateTermInput, which has the same members). */
function termInput(taxonomy: Taxonomy, req: WpRequest): Building<UpdateTermInput> {
  const p = req.params;
  // WordPress refuses any `parent` on a flat taxonomy, even 0, although tag routes do not declare it.
  if (taxonomy === 'tag' && req.rawParams.parent !== undefined && req.rawParams.parent !== null) throw tableError('rest_taxonomy_not_hierarchical');
  const input: Building<UpdateTermInput> = {};
  for (const k of ['name', 'slug', 'description'] as const) if (req.sent(k) && p[k] !== null) input[k] = String(p[k]);
  if (req.sent('parent')) input.parentId = p.parent === 0 ? 0 : recordId('parent', p.parent);
  return input;
}

/** In the namespace index's order: the collection, then the item's read, update and delete (WordPress's order for terms). */
export function termEndpoints<N extends AnyTerm>({ taxonomy, path, args, operations: ops }: TermResource<N>): Endpoint[] {
  const present = (term: AnyTerm, req: WpRequest, links: boolean) => presentTerm(term, taxonomy, req.urls, { links });
  const address = (req: WpRequest) => ({ id: pathId(req, () => invalidParamsError([['id', false]])) });
  const byId = `${path}/${ID}`;
  return [
    endpoint({
      name: 'list',
      methods: ['GET'],
      routes: [{ path, args: args.list }],
      permission: 'public',
      resource: taxonomy,
      operation: ops.list,
      variables: (req) => ({ filter: termFilter(req), ...pageVariables(req) }),
      present: (value, req) =>
        termsListResponse(taxonomy, {
          items: value.edges.map((e) => present(e.node, req, false)),
          total: value.totalCount,
          totalPages: value.totalPages,
          page: Number(req.params.page),
          perPage: value.perPage,
          params: sentParams(req, ['per_page', 'search', 'include', 'exclude', 'order', 'orderby', 'hide_empty', 'parent', 'post', 'event', 'slug']),
          urls: req.urls,
        }),
    }),
    endpoint({
      name: 'create',
      methods: ['POST'],
      routes: [{ path, args: args.create }],
      permission: writePermission,
      resource: taxonomy,
      operation: ops.create,
      // The argument table requires the name: the input has it.
      variables: (req) => ({ input: termInput(taxonomy, req) as CreateTermInput }),
      present: ({ term }, req) => ({ status: 201, body: present(term, req, true), headers: { Location: req.urls.rest(`${path}/${term.databaseId}`) } }),
    }),
    endpoint({
      name: 'get',
      methods: ['GET'],
      routes: [{ path: byId, args: args.get }],
      permission: 'public',
      resource: taxonomy,
      operation: ops.byId,
      variables: address,
      present: (term, req) => ({ body: present(term, req, true) }),
    }),
    endpoint({
      name: 'update',
      methods: UPDATE,
      routes: [{ path: byId, args: args.update }],
      permission: writePermission,
      resource: taxonomy,
      operation: ops.update,
      variables: (req) => ({ ...address(req), input: termInput(taxonomy, req) }),
      present: ({ term }, req) => ({ body: present(term, req, true) }),
    }),
    endpoint({
      name: 'remove',
      methods: ['DELETE'],
      routes: [{ path: byId, args: args.delete }],
      permission: writePermission,
      resource: taxonomy,
      operation: ops.remove,
      variables: address,
      present: ({ term }, req) => ({ body: present(term, req, false) }),
    }),
  ];
}
