import { publishedCountLoader } from '../../src/services/terms.ts';
import { builder } from '../builder.ts';
import { defineTermOperations } from './term-operations.ts';

export const EventTagRef = builder.prismaNode('Tag', {
  name: 'EventTag',
  description: 'An event tag. Tags and categories share one ID space.',
  id: { field: 'id' },
  fields: (t) => ({
    databaseId: t.exposeInt('id'),
    name: t.exposeString('name'),
    slug: t.exposeString('slug'),
    description: t.exposeString('description'),
    count: t.int({ description: 'Number of published events.', resolve: (c, _a, ctx) => publishedCountLoader(ctx, 'TAG').load(c.id) }),
  }),
});

defineTermOperations({ taxonomy: 'TAG', model: 'Tag', typeName: 'EventTag', ref: EventTagRef, single: 'eventTag', plural: 'eventTags' });
