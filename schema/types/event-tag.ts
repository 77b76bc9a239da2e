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
    count: t.exposeInt('publishedCount', { description: 'Number of published events (kept up to date by the database on every write).' }),
  }),
});

defineTermOperations({ taxonomy: 'TAG', model: 'Tag', typeName: 'EventTag', ref: EventTagRef, single: 'eventTag', plural: 'eventTags' });
