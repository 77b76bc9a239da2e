import { invalidParamsError, tableError } from '../../wp/errors.ts';
import type { WpRequest, WpResponse } from '../../wp/types.ts';
import { isTruthy } from '../../wp/coerce.ts';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import type { RestErrorFragment } from '../../generated/operations.ts';
import { isRestError, listStatusParam, run, sentParams, toWpError, type RestError, type RouteDeps } from '../common.ts';
import { intList, pathId, statusEnumList } from '../params.ts';
import { linkedPostInput } from './input.ts';
import type { JsonObject, RestUrls } from '../../presenters/util.ts';
import { linkedPostsListResponse, type LinkedPostFragment, type LinkedPostPresentOptions } from './presenter.ts';

type Page<N> = { readonly totalCount: number; readonly totalPages: number; readonly perPage: number; readonly edges: ReadonlyArray<{ readonly node: N }> };
/** One root field of type `T`, whatever its name (`venues`, `organizer`, `createVenue`, …). */
type Root<T> = { readonly [field: string]: T };
/** A write's success payload, its record under the alias `record` (the documents' `record: venue { … }`). */
type Written<N> = { readonly record: N };

/**
 * The five operations of a venue or organizer resource (documents generated from its
 * operations.graphql), by the shapes the handlers rely on: `N` is the resource's fragment. The
 * variables are named as the handlers pass them (their types are the generated documents' own).
 */
export interface LinkedPostOperations<N> {
  list: TypedDocumentNode<Root<Page<N>>, { filter?: never; page?: never; perPage?: never }>;
  byId: TypedDocumentNode<Root<N | null>, { id?: never; slug?: never }>;
  create: TypedDocumentNode<Root<Written<N> | RestErrorFragment>, { input: never }>;
  update: TypedDocumentNode<Root<Written<N> | RestErrorFragment>, { id?: never; slug?: never; input: never }>;
  remove: TypedDocumentNode<Root<Written<N> | RestErrorFragment>, { id?: never; slug?: never }>;
}

/** Venues and organizers share their routes' shape (contract §5.6, §6, §7.7, §7.9). */
export function linkedPostHandlers<N extends LinkedPostFragment>(
  kind: 'venue' | 'organizer',
  ops: LinkedPostOperations<N>,
  presentNode: (node: N, urls: RestUrls, opts: LinkedPostPresentOptions) => JsonObject,
) {
  const present = (node: N, req: WpRequest, jsonLd: boolean) => presentNode(node, req.urls, { jsonLd, locked: node.locked });
  const address = (req: WpRequest) =>
    req.pathParams.slug !== undefined ? { slug: req.pathParams.slug } : { id: pathId(req, () => invalidParamsError([['id', false]])) };
  const param = (req: WpRequest) => (req.pathParams.slug !== undefined ? 'slug' : 'id');
  /** The data, or the mapped error (an unknown address, or a null from a `strict` read, is 400 on `id`/`slug`). */
  const check = <T>(req: WpRequest, value: T | RestError | null): T => {
    if (value === null || (isRestError(value) && value.__typename === 'NotFoundError')) throw invalidParamsError([[param(req), false]]);
    if (isRestError(value)) throw toWpError(value, kind, req, param(req));
    return value;
  };

  const list = (deps: RouteDeps) => async (req: WpRequest): Promise<WpResponse> => {
    const p = req.params;
    const filter: Record<string, unknown> = {};
    if (req.sent('search')) filter.search = p.search;
    if (req.sent('event')) filter.event = intList('event', p.event)[0];
    if (req.sent('has_events')) filter.hasEvents = isTruthy(p.has_events);
    if (req.sent('only_with_upcoming')) filter.onlyWithUpcoming = isTruthy(p.only_with_upcoming);
    if (req.sent('status')) filter.statuses = statusEnumList('status', p.status);
    const page = Number(p.page);
    const value = check(req, await run(deps, req, ops.list, { filter, page, perPage: Number(p.per_page) }));
    const items = value.edges.map((e) => present(e.node, req, false));
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
  };

  const get = (deps: RouteDeps) => async (req: WpRequest): Promise<WpResponse> => {
    const node = check(req, await run(deps, req, ops.byId, address(req)));
    return { body: present(node, req, true) };
  };

  const input = (req: WpRequest) => linkedPostInput(kind, req.params, req.sent);

  const create = (deps: RouteDeps) => async (req: WpRequest): Promise<WpResponse> => {
    const value = await run(deps, req, ops.create, { input: input(req) });
    if (isRestError(value)) throw toWpError(value, kind, req);
    return { status: 201, body: present(value.record, req, false) };
  };

  const update = (deps: RouteDeps) => async (req: WpRequest): Promise<WpResponse> => {
    const { record } = check(req, await run(deps, req, ops.update, { ...address(req), input: input(req) }));
    return { body: present(record, req, false) };
  };

  const remove = (deps: RouteDeps) => async (req: WpRequest): Promise<WpResponse> => {
    const { record } = check(req, await run(deps, req, ops.remove, address(req)));
    return { body: present(record, req, false) };
  };

  return { list, get, create, update, remove };
}
