import { builder } from '../builder.ts';

/** An enum whose every value has a description: `{ NAME: [internal value, description] }`. */
export function describedEnum<const Values extends Record<string, readonly [value: string, description: string]>>(
  name: string,
  description: string,
  values: Values,
) {
  const config = Object.fromEntries(Object.entries(values).map(([key, [value, description]]) => [key, { value, description }]));
  return builder.enumType(name, { description, values: config as { [K in keyof Values]: { value: Values[K][0]; description: string } } });
}

export const PostStatusEnum = describedEnum('PostStatus', 'Publication status of an event, venue or organizer (WordPress post statuses).', {
  PUBLISH: ['publish', 'Public.'],
  FUTURE: ['future', 'Scheduled: published at its publication date.'],
  DRAFT: ['draft', 'Draft.'],
  PENDING: ['pending', 'Awaiting review.'],
  PRIVATE: ['private', 'Visible to editors only.'],
  TRASH: ['trash', 'In the trash.'],
});

export const ImageRef = builder.prismaNode('Attachment', {
  name: 'Image',
  description: 'An image attachment. Attachments share the ID space of events, venues and organizers.',
  id: { field: 'id' },
  fields: (t) => ({
    databaseId: t.exposeInt('id', { description: 'Numeric post ID.' }),
    url: t.string({
      description: 'Where the file is: under `/wp-content/uploads/` of this service when it keeps the file (absolute under CAL_SITE_URL when set, else site-relative).',
      resolve: (a, _args, ctx) => (a.url.startsWith('/') && ctx.settings.siteUrl ? ctx.settings.siteUrl + a.url : a.url),
    }),
    title: t.exposeString('title'),
    mimeType: t.exposeString('mimeType'),
    extension: t.string({
      description: 'File extension taken from the URL.',
      resolve: (a) => /\.([a-z0-9]+)(?:$|[?#])/i.exec(new URL(a.url, 'http://localhost').pathname)?.[1]?.toLowerCase() ?? '',
    }),
    width: t.exposeInt('width', { nullable: true }),
    height: t.exposeInt('height', { nullable: true }),
    filesize: t.exposeInt('filesize', { nullable: true }),
    sizes: t.expose('sizes', { type: 'JSON', nullable: true, description: 'Renditions by name.' }),
  }),
});

/** Sets shared by the three post kinds: wall-clock strings as the REST contract formats them. */
export const wallClock = (d: Date) => d.toISOString().slice(0, 19).replace('T', ' ');
