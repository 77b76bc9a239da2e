/**
 * What the venue and organizer schemas share (presenter.ts `presentLinkedPost`): empty members are
 * omitted (PHP `array_filter`), so only the members never empty are required.
 */
import { IMAGE_OR_FALSE, JSON_LD, POST_MEMBERS } from '../../presenters/schema.ts';
import type { JsonSchema } from '../../wp/schema.ts';

const text = { type: 'string' };

/** A venue's or organizer's schema: the shared members, then `members` (its own), then the global IDs. */
export function linkedPostSchema(kind: 'venue' | 'organizer', members: Record<string, JsonSchema>, required: readonly string[] = []): JsonSchema {
  return {
    type: 'object',
    required: ['id', 'status', 'date', 'modified', 'url', 'global_id', 'global_id_lineage', ...required],
    additionalProperties: false,
    properties: {
      id: { type: 'integer' },
      author: { type: 'string', pattern: '^\\d+$', description: 'The author’s user ID, as text (TEC sends a string).' },
      ...POST_MEMBERS,
      [kind]: text,
      description: text,
      excerpt: text,
      slug: text,
      image: { ...IMAGE_OR_FALSE, description: 'The featured image; absent when there is none.' },
      ...members,
      json_ld: JSON_LD,
      global_id: text,
      global_id_lineage: { type: 'array', items: text },
    },
  };
}
