import { builder } from '../builder.ts';
import { EventTermInterface } from './term-fields.ts';
import { defineTermOperations } from './term-operations.ts';

export const EventTagRef = builder.prismaNode('Tag', {
  name: 'EventTag',
  description: 'An event tag. Tags and categories share one ID space.',
  id: { field: 'id' },
  interfaces: [EventTermInterface],
});

/** The edge of a tag in the default list (for change payloads). */
export const tagEdges = defineTermOperations({ taxonomy: 'TAG', model: 'Tag', typeName: 'EventTag', ref: EventTagRef, single: 'eventTag', plural: 'eventTags' });
