import { categoryPath } from '../../src/services/terms.ts';
import { builder } from '../builder.ts';
import { EventTermInterface } from './term-fields.ts';
import { defineTermOperations } from './term-operations.ts';

export const EventCategoryRef = builder.prismaNode('Category', {
  name: 'EventCategory',
  description: 'A hierarchical event category. Categories and tags share one ID space.',
  id: { field: 'id' },
  interfaces: [EventTermInterface],
  fields: (t) => ({
    parentId: t.int({ description: '0 for top-level categories.', deprecationReason: 'Use parent.', resolve: (c) => c.parentId ?? 0 }),
    parent: t.relation('parent', { nullable: true }),
    children: t.relation('children', { query: { orderBy: { name: 'asc' } } }),
    path: t.stringList({
      description: 'Slugs from the top-level ancestor down to this category.',
      resolve: (c, _a, ctx) => categoryPath(ctx, c.id),
    }),
  }),
});

/** The edge of a category in the default list (for change payloads). */
export const categoryEdges = defineTermOperations({ taxonomy: 'CATEGORY', model: 'Category', typeName: 'EventCategory', ref: EventCategoryRef, single: 'eventCategory', plural: 'eventCategories' });
