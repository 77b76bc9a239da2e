import type { Category, Tag } from '../../prisma/generated/client/client.ts';
import { builder } from '../builder.ts';

/** The columns both term tables have. */
type EventTermShape = Pick<Category | Tag, 'id' | 'name' | 'slug' | 'description' | 'publishedCount'>;

/** Fields categories and tags share. */
export const EventTermInterface = builder.interfaceRef<EventTermShape>('EventTerm').implement({
  description: 'What event categories and tags share. Categories and tags share one ID space.',
  fields: (t) => ({
    databaseId: t.exposeInt('id'),
    name: t.exposeString('name'),
    slug: t.exposeString('slug'),
    description: t.exposeString('description'),
    count: t.exposeInt('publishedCount', { description: 'Number of published events (kept up to date by the database on every write).' }),
  }),
});
