/**
 * Venues and organizers have the same argument tables but for their fields and texts: a list, a
 * create that requires the name, reads and deletes by ID or slug (reads take a `password`), and
 * updates with the create's fields.
 */
import type { ArgMap } from '../../wp/types.ts';
import { withArgs } from '../../wp/route.ts';
import { eachPositiveInt, nonEmptyString, pageArg, passwordArg, perPageArg, STATUS_LIST_SCHEMA } from '../args.ts';
import { argsObjectSchema, WIRE_POSITIVE_INTEGER, type JsonSchema } from '../../wp/schema.ts';
import type { PostArgTables } from '../endpoint.ts';

/** Description keys of a linked-post type's arguments. */
export interface LinkedPostArgTexts {
  perPage: string;
  search: string;
  event: string;
  hasEvents: string;
  onlyWithUpcoming: string;
  postId: string;
  postName: string;
}

/** `fields`: the create/update fields in the index's order; the one named like the kind is its name. */
export function linkedPostArgs(kind: 'venue' | 'organizer', fields: ArgMap, text: LinkedPostArgTexts): PostArgTables {
  const id: ArgMap = { id: { type: 'integer', description: text.postId, required: true } };
  const slug: ArgMap = { slug: { type: 'string', description: text.postName, required: true } };
  return {
    list: {
      page: pageArg,
      per_page: perPageArg(text.perPage),
      search: { description: text.search, type: 'string', validate: nonEmptyString },
      event: { description: text.event, type: 'integer', schema: WIRE_POSITIVE_INTEGER },
      has_events: { description: text.hasEvents },
      only_with_upcoming: { description: text.onlyWithUpcoming, default: false },
      // Venue lists too describe `status` as the organizer's, as the reference index does.
      status: { format: 'string', description: 'desc.the_organizer_post_status', accept: 'list', schema: STATUS_LIST_SCHEMA },
      password: passwordArg,
    },
    create: withArgs(fields, { [kind]: { required: true } }),
    get: { ...id, password: passwordArg },
    delete: id,
    update: { ...id, ...fields },
    getBySlug: { ...slug, password: passwordArg },
    deleteBySlug: slug,
    updateBySlug: { ...slug, ...fields },
  };
}

/**
 * `venue`/`organizer` of an event write (input.ts `linkedRefs`): an ID, `{id}`, the fields of a
 * record to create (those of `POST /venues` or `/organizers`, `create`), a list of these, a CSV of
 * IDs; `""`, `0` and `[]` unlink.
 */
export function linkedRefsSchema(create: ArgMap): JsonSchema {
  const record = argsObjectSchema(create);
  const byId = { type: 'object', required: ['id'], properties: { id: WIRE_POSITIVE_INTEGER } };
  const one = { anyOf: [WIRE_POSITIVE_INTEGER, byId, record] };
  return { anyOf: [one, { type: 'array', items: one }, eachPositiveInt.schema, { enum: ['', 0, '0'] }] };
}
