import { invalidParamsError, tableError } from '../../wp/errors.ts';
import type { WpRequest, WpResponse } from '../../wp/types.ts';
import {
  CreateEventCategoryDocument,
  CreateEventTagDocument,
  DeleteEventCategoryDocument,
  DeleteEventTagDocument,
  EventCategoryByIdDocument,
  EventCategoryListDocument,
  EventTagByIdDocument,
  EventTagListDocument,
  UpdateEventCategoryDocument,
  UpdateEventTagDocument,
} from '../../generated/operations.ts';
import { isRestError, run, sentParams, toWpError, type RestError, type RouteDeps } from '../common.ts';
import { intList, pathId, recordId } from '../params.ts';
import { presentTerm, termsListResponse } from './presenter.ts';

/** Categories and tags share their routes' shape (contract §5.7, §7.8, §7.9). */
export function termHandlers(taxonomy: 'category' | 'tag') {
  const ops =
    taxonomy === 'category'
      ? {
          list: EventCategoryListDocument,
          byId: EventCategoryByIdDocument,
          create: CreateEventCategoryDocument,
          update: UpdateEventCategoryDocument,
          remove: DeleteEventCategoryDocument,
        }
      : { list: EventTagListDocument, byId: EventTagByIdDocument, create: CreateEventTagDocument, update: UpdateEventTagDocument, remove: DeleteEventTagDocument };
  const resource = taxonomy;
  const termId = (req: WpRequest) => pathId(req, () => invalidParamsError([['id', false]]));
  /** The data, or the mapped error (an unknown ID, or a null from a `strict` read, is 400 on `id`). */
  const check = <T>(req: WpRequest, value: T | RestError | null): T => {
    if (value === null || (isRestError(value) && value.__typename === 'NotFoundError')) throw invalidParamsError([['id', false]]);
    if (isRestError(value)) throw toWpError(value, resource, req);
    return value;
  };

  const list = (deps: RouteDeps) => async (req: WpRequest): Promise<WpResponse> => {
    const p = req.params;
    const filter: Record<string, unknown> = {};
    if (req.sent('search')) filter.search = p.search;
    if (req.sent('include')) filter.include = intList('include', p.include);
    if (req.sent('exclude')) filter.exclude = intList('exclude', p.exclude);
    if (req.sent('order')) filter.order = p.order;
    if (req.sent('orderby')) filter.orderby = p.orderby;
    filter.hideEmpty = p.hide_empty === undefined ? true : Boolean(p.hide_empty);
    if (req.sent('parent')) filter.parent = intList('parent', p.parent)[0];
    const event = req.sent('event') ? p.event : req.sent('post') ? p.post : undefined;
    if (event !== undefined) filter.event = intList(req.sent('event') ? 'event' : 'post', event)[0];
    if (req.sent('slug')) filter.slug = p.slug;
    const page = Number(p.page);
    const value = check(req, await run(deps, req, ops.list, { filter, page, perPage: Number(p.per_page) }));
    return termsListResponse(taxonomy, {
      items: value.edges.map((e) => presentTerm(e.node, taxonomy, req.urls, { links: false })),
      total: value.totalCount,
      totalPages: value.totalPages,
      page,
      perPage: value.perPage,
      params: sentParams(req, ['per_page', 'search', 'include', 'exclude', 'order', 'orderby', 'hide_empty', 'parent', 'post', 'event', 'slug']),
      urls: req.urls,
    });
  };

  const termInput = (req: WpRequest) => {
    const p = req.params;
    // WordPress refuses any `parent` on a flat taxonomy, even 0, although tag routes do not declare it.
    if (taxonomy === 'tag' && req.rawParams.parent !== undefined && req.rawParams.parent !== null) throw tableError('rest_taxonomy_not_hierarchical');
    const input: Record<string, unknown> = {};
    for (const k of ['name', 'slug', 'description'] as const) if (req.sent(k) && p[k] !== null) input[k] = String(p[k]);
    if (req.sent('parent')) input.parentId = p.parent === 0 ? 0 : recordId('parent', p.parent);
    return input;
  };

  const get = (deps: RouteDeps) => async (req: WpRequest): Promise<WpResponse> => {
    const node = check(req, await run(deps, req, ops.byId, { id: termId(req) }));
    return { body: presentTerm(node, taxonomy, req.urls, { links: true }) };
  };

  const create = (deps: RouteDeps) => async (req: WpRequest): Promise<WpResponse> => {
    const { term: node } = check(req, await run(deps, req, ops.create, { input: termInput(req) }));
    const body = presentTerm(node, taxonomy, req.urls, { links: true });
    return { status: 201, body, headers: { Location: req.urls.rest(`/${taxonomy === 'category' ? 'categories' : 'tags'}/${node.databaseId}`) } };
  };

  const update = (deps: RouteDeps) => async (req: WpRequest): Promise<WpResponse> => {
    const { term: node } = check(req, await run(deps, req, ops.update, { id: termId(req), input: termInput(req) }));
    return { body: presentTerm(node, taxonomy, req.urls, { links: true }) };
  };

  const remove = (deps: RouteDeps) => async (req: WpRequest): Promise<WpResponse> => {
    const { term: node } = check(req, await run(deps, req, ops.remove, { id: termId(req) }));
    return { body: presentTerm(node, taxonomy, req.urls, { links: false }) };
  };

  return { list, get, create, update, remove };
}
