import { invalidParamsError, tableError } from '../../wp/errors.ts';
import type { WpRequest, WpResponse } from '../../wp/types.ts';
import { isTruthy } from '../../wp/coerce.ts';
import { isRestError, listStatusParam, run, sentParams, toWpError, type RouteDeps } from '../common.ts';
import { intList, pathId, statusEnumList } from '../params.ts';
import { linkedPostInput } from './input.ts';
import type { JsonObject, RestUrls } from '../../presenters/types.ts';
import { linkedPostsListResponse, type LinkedPostPresentOptions } from './presenter.ts';

/** Venues and organizers share their routes' shape (contract §5.6, §6, §7.7, §7.9). */
export function linkedPostHandlers(kind: 'venue' | 'organizer', presentNode: (node: any, urls: RestUrls, opts: LinkedPostPresentOptions) => JsonObject) {
  const Cap = kind === 'venue' ? 'Venue' : 'Organizer';
  const present = (node: any, req: WpRequest, jsonLd: boolean) => presentNode(node, req.urls, { jsonLd, locked: node.locked });
  const address = (req: WpRequest) =>
    req.pathParams.slug !== undefined ? { slug: req.pathParams.slug } : { id: pathId(req, () => invalidParamsError([['id', false]])) };
  const param = (req: WpRequest) => (req.pathParams.slug !== undefined ? 'slug' : 'id');
  const check = (req: WpRequest, value: unknown) => {
    if (isRestError(value)) {
      if (value.__typename === 'NotFoundError') throw invalidParamsError([[param(req), false]]);
      throw toWpError(value, kind, req, param(req));
    }
    return value as any;
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
    const value = check(req, await run(deps, req, `${Cap}sArchive`, { filter, page, perPage: Number(p.per_page) }));
    const items = value.edges.map((e: { node: unknown }) => present(e.node, req, false));
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
    const node = check(req, await run(deps, req, `${Cap}ById`, address(req)));
    return { body: present(node, req, true) };
  };

  const input = (req: WpRequest) => linkedPostInput(kind, req.params, req.sent);

  const create = (deps: RouteDeps) => async (req: WpRequest): Promise<WpResponse> => {
    const value = await run(deps, req, `Create${Cap}`, { input: input(req) });
    if (isRestError(value)) throw toWpError(value, kind, req);
    return { status: 201, body: present(value, req, false) };
  };

  const update = (deps: RouteDeps) => async (req: WpRequest): Promise<WpResponse> => {
    const node = check(req, await run(deps, req, `Update${Cap}`, { ...address(req), input: input(req) }));
    return { body: present(node, req, false) };
  };

  const remove = (deps: RouteDeps) => async (req: WpRequest): Promise<WpResponse> => {
    const node = check(req, await run(deps, req, `Delete${Cap}`, address(req)));
    return { body: present(node, req, false) };
  };

  return { list, get, create, update, remove };
}
