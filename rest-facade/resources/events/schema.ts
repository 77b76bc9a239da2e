/** The JSON Schema of presenter.ts's event (a locked event: redact.ts's replacements included). */
import { IMAGE_OR_FALSE, JSON_LD, orNull, POST_MEMBERS, ref } from '../../presenters/schema.ts';
import type { JsonSchema } from '../../wp/schema.ts';

const text = { type: 'string' };
const flag = orNull('boolean');

const MEMBERS: Record<string, JsonSchema> = {
  id: { type: 'integer' },
  global_id: text,
  global_id_lineage: { type: 'array', items: text },
  author: { type: 'string', pattern: '^\\d+$', description: 'The author’s user ID, as text (TEC sends a string; "0" when none).' },
  ...POST_MEMBERS,
  rest_url: text,
  title: text,
  description: text,
  excerpt: text,
  slug: text,
  image: { ...IMAGE_OR_FALSE, description: 'The featured image, or `false` when there is none.' },
  all_day: flag,
  start_date: text,
  start_date_details: ref('DateDetails'),
  end_date: text,
  end_date_details: ref('DateDetails'),
  utc_start_date: text,
  utc_start_date_details: ref('DateDetails'),
  utc_end_date: text,
  utc_end_date_details: ref('DateDetails'),
  timezone: text,
  timezone_abbr: text,
  cost: text,
  cost_details: ref('CostDetails'),
  website: text,
  show_map: flag,
  show_map_link: flag,
  hide_from_listings: flag,
  sticky: flag,
  featured: flag,
  categories: { type: 'array', items: ref('EmbeddedTerm') },
  tags: { type: 'array', items: ref('EmbeddedTerm') },
  venue: {
    description: 'The venue when the event has exactly one; otherwise a list: `[]` when it has none (TEC’s shape).',
    oneOf: [ref('Venue'), { type: 'array', items: ref('Venue') }],
  },
  organizer: { type: 'array', items: ref('Organizer') },
  json_ld: JSON_LD,
};

/** Every member is always there but `json_ld` (single reads of an event the caller may see). */
export const EVENT_SCHEMA: JsonSchema = {
  type: 'object',
  required: Object.keys(MEMBERS).filter((k) => k !== 'json_ld'),
  additionalProperties: false,
  properties: MEMBERS,
};
