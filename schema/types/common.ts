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
      resolve: (a) => urlExtension(a.url),
    }),
    width: t.exposeInt('width', { nullable: true }),
    height: t.exposeInt('height', { nullable: true }),
    filesize: t.exposeInt('filesize', { nullable: true }),
    sizes: t.expose('sizes', { type: 'JSON', nullable: true, description: 'Renditions by name.' }),
  }),
});

/**
 * File extension of an image URL's path. Memoized: a page shows the same few images (a venue's, an
 * organizer's) once per event, and parsing a URL costs more than the rest of an image's fields.
 */
const extensions = new Map<string, string>();
function urlExtension(url: string): string {
  let ext = extensions.get(url);
  if (ext === undefined) {
    ext = /\.([a-z0-9]+)(?:$|[?#])/i.exec(new URL(url, 'http://localhost').pathname)?.[1]?.toLowerCase() ?? '';
    if (extensions.size >= 10_000) extensions.clear();
    extensions.set(url, ext);
  }
  return ext;
}

const pad2 = (n: number) => (n < 10 ? `0${n}` : `${n}`);

/**
 * Sets shared by the three post kinds: wall-clock strings as the REST contract formats them
 * (`YYYY-MM-DD HH:MM:SS`, the date's UTC fields). Built from the fields: a 50-event page formats
 * ~1,000 dates, and `toISOString().slice().replace()` cost 2.5× as much. Years outside 1000–9999
 * (and invalid dates, which throw) take the ISO path, as before.
 */
export function wallClock(d: Date): string {
  const y = d.getUTCFullYear();
  if (!(y >= 1000 && y <= 9999)) return d.toISOString().slice(0, 19).replace('T', ' ');
  return `${y}-${pad2(d.getUTCMonth() + 1)}-${pad2(d.getUTCDate())} ${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}:${pad2(d.getUTCSeconds())}`;
}
