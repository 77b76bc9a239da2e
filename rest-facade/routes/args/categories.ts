/**
 * Argument tables of the `/categories` routes, transcribed from the reference namespace index
 * (samples/GET_index.json): names, order, schema keys (in the order the index shows them),
 * defaults and `required`. Descriptions are i18n keys (`rest-facade/i18n/*.json`).
 *
 * Generic validators (no database) are attached here; database-backed checks (existing IDs,
 * date parsing, statuses by role, …) are added by the handlers with `withArgs()`:
 *   withArgs(eventsListArgs, { categories: { validate: isKnownCategoryList } })
 * which keeps the parameter order. Note that args with a non-null `default` (e.g. `all_day:
 * false` on updates) always have a value: use `req.sent(name)` to know whether the client sent it.
 */
import type { ArgMap } from '../../wp/types.ts';
import { positiveInt, nonEmptyString, eachPositiveInt, capPerPage } from './validators.ts';
import { perPageDefault } from './defaults.ts';

/** `GET /categories` */
export const categoriesListArgs: ArgMap = {
  page: { default: 1, description: "desc.the_archive_page_to_return", type: "integer", validate: positiveInt },
  per_page: { default: perPageDefault, description: "desc.the_number_of_event_categories_to_return_on_each_page", type: "integer", validate: positiveInt, sanitize: capPerPage },
  search: { description: "desc.limit_results_to_those_matching_a_string", type: "string", validate: nonEmptyString },
  exclude: { description: "desc.ensure_result_set_exclude_specific_ids", items: {"type": "integer"}, validate: eachPositiveInt },
  include: { description: "desc.limit_result_set_to_specific_ids", items: {"type": "integer"}, validate: eachPositiveInt },
  order: { description: "desc.order_sort_attribute_ascending_or_descending", type: "string", validate: nonEmptyString },
  orderby: { description: "desc.sort_collection_by_term_attribute", type: "string", validate: nonEmptyString },
  hide_empty: { description: "desc.whether_to_hide_terms_not_assigned_to_any_posts", type: "boolean", default: "1" },
  parent: { description: "desc.limit_result_set_to_terms_assigned_to_a_specific_parent", type: "integer" },
  post: { description: "desc.limit_result_set_to_terms_assigned_to_a_specific_post", type: "integer" },
  event: { description: "desc.limit_result_set_to_terms_assigned_to_a_specific_eve_ecfe9d", type: "integer" },
  slug: { description: "desc.limit_result_set_to_terms_with_a_specific_slug", type: "string", validate: nonEmptyString },
};

/** `POST /categories` */
export const categoriesCreateArgs: ArgMap = {
  name: { type: "string", description: "desc.the_event_category_name", required: true, validate: nonEmptyString },
  description: { type: "string", description: "desc.the_event_category_description", validate: nonEmptyString },
  slug: { type: "string", description: "desc.the_event_category_slug", validate: nonEmptyString },
  parent: { type: "integer", description: "desc.the_event_category_slug" },
};

/** `GET /categories/(?P<id>\d+)` */
export const categoryGetArgs: ArgMap = {
  id: { type: "integer", description: "desc.the_event_category_term_id", required: true },
};

/** `POST, PUT, PATCH /categories/(?P<id>\d+)` */
export const categoryUpdateArgs: ArgMap = {
  id: { type: "integer", description: "desc.the_event_category_term_id", required: true },
  name: { type: "string", description: "desc.the_event_category_name", validate: nonEmptyString },
  description: { type: "string", description: "desc.the_event_category_description", validate: nonEmptyString },
  slug: { type: "string", description: "desc.the_event_category_slug", validate: nonEmptyString },
  parent: { type: "integer", description: "desc.the_event_category_slug" },
};

/** `DELETE /categories/(?P<id>\d+)` */
export const categoryDeleteArgs: ArgMap = {
  id: { type: "integer", description: "desc.the_event_category_term_id", required: true },
};
