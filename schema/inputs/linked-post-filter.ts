import { builder } from '../builder.ts';
import { PostStatusEnum } from '../types/common.ts';

export const LinkedPostFilterInput = builder.inputType('LinkedPostFilter', {
  description: 'Filters of the venue and organizer lists (contract §5.6).',
  fields: (t) => ({
    search: t.string(),
    event: t.int({ description: 'Only those linked to this event.' }),
    hasEvents: t.boolean({ description: 'Linked (true) or not (false) to an event that is not draft/pending.' }),
    onlyWithUpcoming: t.boolean({ description: 'Linked to an event starting now or later.' }),
    statuses: t.field({ type: [PostStatusEnum] }),
  }),
});
