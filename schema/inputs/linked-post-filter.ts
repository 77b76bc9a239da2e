import type { LinkedPostFilter } from '../../src/services/linked-post-list.ts';
import { builder } from '../builder.ts';
import { optionalRecordId } from '../ids.ts';
import { PostStatusEnum } from '../types/common.ts';

export const LinkedPostFilterInput = builder.inputType('LinkedPostFilter', {
  description: 'Filters of the venue and organizer lists (contract §5.6).',
  fields: (t) => ({
    search: t.string(),
    event: t.id({ description: 'Only those linked to this event.' }),
    hasEvents: t.boolean({ description: 'Linked (true) or not (false) to an event that is not draft/pending.' }),
    onlyWithUpcoming: t.boolean({ description: 'Linked to an event starting now or later.' }),
    statuses: t.field({ type: [PostStatusEnum] }),
  }),
});

/** The service's filter: the event as its database ID. */
export function toLinkedPostFilter(input: typeof LinkedPostFilterInput.$inferInput | null | undefined): LinkedPostFilter {
  return input ? { ...input, event: optionalRecordId(input.event, ['Event'], 'event') } : {};
}
