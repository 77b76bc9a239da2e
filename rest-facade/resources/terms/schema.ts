/** The JSON Schemas of presenter.ts's categories and tags: standalone and embedded in events. */
import { ref } from '../../presenters/schema.ts';
import type { JsonSchema } from '../../wp/schema.ts';

/** `termUrls`: `self`, `collection` and, for a parented category, `up` (an object, not a list). */
const TERM_URLS: JsonSchema = {
  type: 'object',
  required: ['self', 'collection'],
  additionalProperties: false,
  properties: { self: { type: 'string' }, collection: { type: 'string' }, up: { type: 'string' } },
};

const LINK = { type: 'object', required: ['href'], properties: { href: { type: 'string' }, embeddable: { type: 'boolean' }, name: { type: 'string' }, templated: { type: 'boolean' } } };

/** `presentTerm`: `parent` on categories only, `_links` on single reads and writes. */
const TERM: JsonSchema = {
  type: 'object',
  required: ['id', 'count', 'description', 'name', 'slug', 'taxonomy', 'meta', 'url', 'urls'],
  additionalProperties: false,
  properties: {
    id: { type: 'integer' },
    count: { type: 'integer', minimum: 0 },
    description: { type: 'string' },
    name: { type: 'string' },
    slug: { type: 'string' },
    taxonomy: { enum: ['cal_events_cat', 'post_tag'] },
    parent: { type: 'integer', minimum: 0, description: 'Categories only: the parent category, 0 at the root.' },
    meta: { type: 'array', maxItems: 0 },
    url: { type: 'string' },
    urls: ref('TermUrls'),
    _links: { type: 'object', additionalProperties: { type: 'array', items: LINK } },
  },
};

/** `presentEmbeddedTerm`: the WordPress term object an event lists (tags carry `parent: 0`). */
const EMBEDDED_TERM: JsonSchema = {
  type: 'object',
  required: ['name', 'slug', 'term_group', 'term_taxonomy_id', 'taxonomy', 'description', 'parent', 'count', 'filter', 'id', 'urls'],
  additionalProperties: false,
  properties: {
    name: { type: 'string' },
    slug: { type: 'string' },
    term_group: { type: 'integer' },
    term_taxonomy_id: { type: 'integer' },
    taxonomy: { enum: ['cal_events_cat', 'post_tag'] },
    description: { type: 'string' },
    parent: { type: 'integer', minimum: 0 },
    count: { type: 'integer', minimum: 0 },
    filter: { const: 'raw' },
    id: { type: 'integer' },
    urls: ref('TermUrls'),
  },
};

export const TERM_SCHEMAS: Record<string, JsonSchema> = { Term: TERM, EmbeddedTerm: EMBEDDED_TERM, TermUrls: TERM_URLS };
