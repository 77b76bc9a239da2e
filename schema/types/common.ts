import { builder } from '../builder.ts';

export const PostStatusEnum = builder.enumType('PostStatus', {
  description: 'Publication status of an event, venue or organizer (WordPress post statuses).',
  values: {
    PUBLISH: { value: 'publish', description: 'Public.' },
    FUTURE: { value: 'future', description: 'Scheduled: published at its publication date.' },
    DRAFT: { value: 'draft', description: 'Draft.' },
    PENDING: { value: 'pending', description: 'Awaiting review.' },
    PRIVATE: { value: 'private', description: 'Visible to editors only.' },
    TRASH: { value: 'trash', description: 'In the trash.' },
  } as const,
});

export const ImageRef = builder.prismaNode('Attachment', {
  name: 'Image',
  description: 'An image attachment. Attachments share the ID space of events, venues and organizers.',
  id: { field: 'id' },
  fields: (t) => ({
    databaseId: t.exposeInt('id', { description: 'Numeric post ID.' }),
    url: t.exposeString('url'),
    title: t.exposeString('title'),
    mimeType: t.exposeString('mimeType'),
    extension: t.string({
      description: 'File extension taken from the URL.',
      resolve: (a) => /\.([a-z0-9]+)(?:$|[?#])/i.exec(new URL(a.url).pathname)?.[1]?.toLowerCase() ?? '',
    }),
    width: t.exposeInt('width', { nullable: true }),
    height: t.exposeInt('height', { nullable: true }),
    filesize: t.exposeInt('filesize', { nullable: true }),
    sizes: t.expose('sizes', { type: 'JSON', nullable: true, description: 'Renditions by name.' }),
  }),
});

/** Sets shared by the three post kinds: wall-clock strings as the REST contract formats them. */
export const wallClock = (d: Date) => d.toISOString().slice(0, 19).replace('T', ' ');
