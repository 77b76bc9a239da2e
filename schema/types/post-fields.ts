import type { Event, Organizer, Venue } from '../../prisma/generated/client/client.ts';
import type { Context } from '../../src/services/context.ts';
import { renderText } from '../../src/services/text-work.ts';
import { isLocked, lockedContent, readableWhere } from '../../src/services/visibility.ts';
import { dateToWallClock, localToUtc, wallClockToDate } from '../../src/domain/wall-clock.ts';
import { builder } from '../builder.ts';
import { PostStatusEnum, wallClock } from './common.ts';
import { UserRef } from './user.ts';

/** The columns every post table has (the Event, Venue and Organizer models share them). */
type PostShape = Pick<Event | Venue | Organizer, 'id' | 'authorId' | 'status' | 'slug' | 'content' | 'excerpt' | 'password' | 'dateUtc' | 'dateLocal' | 'modifiedUtc' | 'modifiedLocal'>;

/** The last modification instant; a draft never edited since it was created has its site-local one only. */
const modifiedInstant = (p: PostShape, ctx: Context) => p.modifiedUtc ?? wallClockToDate(localToUtc(dateToWallClock(p.modifiedLocal), ctx.settings.timezone));

/** Events, venues and organizers as Relay nodes: found by database ID, and only when the caller may read them. */
export const postNodeOptions = {
  id: { field: 'id' },
  findUnique: (id: string, ctx: Context) => ({ id: Number(id), ...readableWhere(ctx) }),
} as const;

/** Fields events, venues and organizers share (all three are WordPress posts). */
export const PostInterface = builder.interfaceRef<PostShape>('Post').implement({
  description: 'What events, venues and organizers share: they are WordPress posts.',
  fields: (t) => ({
    databaseId: t.exposeInt('id', { description: 'Numeric post ID (shared ID space of events, venues, organizers and images).' }),
    authorId: t.exposeInt('authorId', { nullable: true, deprecationReason: 'Use author.' }),
    author: t.field({
      type: UserRef,
      nullable: true,
      description: 'Who wrote it; null when the account was deleted. Public fields only, as for any user read.',
      // Prisma batches the findUnique calls of one tick into one query, so a list does not query once per post.
      resolve: (p, _a, ctx: Context) => (p.authorId === null ? null : ctx.prisma.user.findUnique({ where: { id: p.authorId } })),
    }),
    status: t.expose('status', { type: PostStatusEnum }),
    slug: t.exposeString('slug', { nullable: true, description: 'Null for drafts never given one; trashed posts end in `__trashed`.' }),
    description: t.string({
      description: 'Body rendered as HTML (auto-paragraphs); empty while `locked`.',
      resolve: (p, _a, ctx: Context) => renderText('content', lockedContent(ctx, p, p.content)),
    }),
    descriptionRaw: t.string({
      description: 'Body as stored; empty while `locked`.',
      resolve: (p, _a, ctx: Context) => lockedContent(ctx, p, p.content),
    }),
    excerpt: t.string({
      description: 'Manual excerpt rendered as HTML; empty when none or while `locked`.',
      resolve: (p, _a, ctx: Context) => renderText('excerpt', lockedContent(ctx, p, p.excerpt)),
    }),
    hasPassword: t.boolean({ resolve: (p) => p.password !== '' }),
    locked: t.boolean({
      description:
        'Password-protected and not unlocked by this request (REST `?password=`; over GraphQL, callers who may edit the record see it unlocked; on the public pages, WordPress\'s post-password cookie made from its password): description and excerpt read as empty.',
      resolve: (p, _a, ctx: Context) => isLocked(ctx, p),
    }),
    publishedAt: t.expose('dateUtc', { type: 'DateTime', nullable: true, description: 'Publication instant; null for drafts never published.' }),
    modifiedAt: t.field({ type: 'DateTime', description: 'Last modification instant.', resolve: (p, _a, ctx: Context) => modifiedInstant(p, ctx) }),
    publishedDate: t.string({ description: 'Publication date, site-local `YYYY-MM-DD HH:MM:SS`.', resolve: (p) => wallClock(p.dateLocal) }),
    publishedDateUtc: t.string({
      nullable: true,
      description: 'Publication date, UTC `YYYY-MM-DD HH:MM:SS`; null for drafts never published.',
      resolve: (p) => (p.dateUtc ? wallClock(p.dateUtc) : null),
    }),
    modifiedDate: t.string({ description: 'Last modification, site-local `YYYY-MM-DD HH:MM:SS`.', resolve: (p) => wallClock(p.modifiedLocal) }),
    modifiedDateUtc: t.string({ description: 'Last modification, UTC `YYYY-MM-DD HH:MM:SS`.', resolve: (p, _a, ctx: Context) => wallClock(modifiedInstant(p, ctx)) }),
    editedDateUtc: t.string({
      nullable: true,
      description:
        'Last modification, UTC `YYYY-MM-DD HH:MM:SS`; null for a draft never edited since it was created (WordPress shows `0000-00-00 00:00:00`; `modifiedDateUtc` then gives its site-local modification in UTC).',
      resolve: (p) => (p.modifiedUtc ? wallClock(p.modifiedUtc) : null),
    }),
    date: t.string({
      description: 'Publication date, site-local `YYYY-MM-DD HH:MM:SS`.',
      deprecationReason: 'Use publishedDate.',
      resolve: (p) => wallClock(p.dateLocal),
    }),
    dateUtc: t.string({
      nullable: true,
      description: 'Publication date in UTC; null for drafts never published.',
      deprecationReason: 'Use publishedDateUtc.',
      resolve: (p) => (p.dateUtc ? wallClock(p.dateUtc) : null),
    }),
    modified: t.string({ deprecationReason: 'Use modifiedDate.', resolve: (p) => wallClock(p.modifiedLocal) }),
    modifiedUtc: t.string({ deprecationReason: 'Use modifiedDateUtc.', resolve: (p, _a, ctx: Context) => wallClock(modifiedInstant(p, ctx)) }),
  }),
});

/** Fields venues and organizers add to a post's (both have a name as title). */
export const LinkedPostInterface = builder.interfaceRef<PostShape & Pick<Venue | Organizer, 'name' | 'phone' | 'website'>>('LinkedPost').implement({
  description: 'What venues and organizers share: WordPress posts with a name as title.',
  interfaces: [PostInterface],
  fields: (t) => ({
    name: t.string({ description: 'Display name.', resolve: (p) => renderText('title', p.name) }),
    nameRaw: t.exposeString('name'),
    phone: t.exposeString('phone'),
    website: t.exposeString('website'),
  }),
});

/** Venues and organizers as Relay nodes: posts with a name, phone and website. */
export const linkedPostNodeOptions = { ...postNodeOptions, interfaces: [PostInterface, LinkedPostInterface] };
