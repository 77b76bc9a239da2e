/**
 * Categories and tags have the same argument tables but for the hierarchy: categories take a
 * `parent` (a filter on lists, a field on writes), tags do not.
 */
import type { ArgMap } from '../../wp/types.ts';
import { withArgs } from '../../wp/route.ts';
import { eachPositiveInt, nonEmptyString, pageArg, perPageArg } from '../args.ts';
import { WIRE_POSITIVE_INTEGER } from '../../wp/schema.ts';
import type { TermArgTables } from '../endpoint.ts';

export function termArgs(taxonomy: 'category' | 'tag', perPageText: string): TermArgTables {
  const text = (what: string) => `desc.the_event_${taxonomy}_${what}`;
  const hierarchical = taxonomy === 'category';
  const fields: ArgMap = {
    name: { type: 'string', description: text('name'), validate: nonEmptyString },
    description: { type: 'string', description: text('description'), validate: nonEmptyString },
    slug: { type: 'string', description: text('slug'), validate: nonEmptyString },
    // The reference index describes `parent` with the slug's text.
    // `0` puts the category at the root.
    ...(hierarchical ? { parent: { type: 'integer', description: text('slug'), schema: { anyOf: [{ enum: [0, '0'] }, WIRE_POSITIVE_INTEGER] } } } : {}),
  } satisfies ArgMap;
  const id: ArgMap = { id: { type: 'integer', description: text('term_id'), required: true } };
  return {
    list: {
      page: pageArg,
      per_page: perPageArg(perPageText),
      search: { description: 'desc.limit_results_to_those_matching_a_string', type: 'string', validate: nonEmptyString },
      exclude: { description: 'desc.ensure_result_set_exclude_specific_ids', items: { type: 'integer' }, validate: eachPositiveInt },
      include: { description: 'desc.limit_result_set_to_specific_ids', items: { type: 'integer' }, validate: eachPositiveInt },
      order: { description: 'desc.order_sort_attribute_ascending_or_descending', type: 'string', validate: nonEmptyString },
      orderby: { description: 'desc.sort_collection_by_term_attribute', type: 'string', validate: nonEmptyString },
      hide_empty: { description: 'desc.whether_to_hide_terms_not_assigned_to_any_posts', type: 'boolean', default: '1' },
      ...(hierarchical ? { parent: { description: 'desc.limit_result_set_to_terms_assigned_to_a_specific_parent', type: 'integer', schema: WIRE_POSITIVE_INTEGER } } : {}),
      post: { description: 'desc.limit_result_set_to_terms_assigned_to_a_specific_post', type: 'integer', schema: WIRE_POSITIVE_INTEGER },
      event: { description: 'desc.limit_result_set_to_terms_assigned_to_a_specific_eve_ecfe9d', type: 'integer', schema: WIRE_POSITIVE_INTEGER },
      slug: { description: 'desc.limit_result_set_to_terms_with_a_specific_slug', type: 'string', validate: nonEmptyString },
    },
    create: withArgs(fields, { name: { required: true } }),
    get: id,
    update: { ...id, ...fields },
    delete: id,
  };
}
