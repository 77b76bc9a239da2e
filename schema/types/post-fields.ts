import type { PostStatus } from '../../prisma/generated/client/client.ts';
import type { Context } from '../../src/context.ts';
import { renderContent, renderExcerpt, renderTitle } from '../../src/domain/text.ts';
import { isLocked, lockedContent } from '../../src/services/visibility.ts';
import { builder } from '../builder.ts';
import { PostStatusEnum, wallClock } from './common.ts';

interface LinkedPostShape {
  id: number;
  authorId: number | null;
  status: PostStatus;
  slug: string | null;
  name: string;
  content: string;
  excerpt: string;
  password: string;
  dateUtc: Date | null;
  dateLocal: Date;
  modifiedUtc: Date;
  modifiedLocal: Date;
  phone: string;
  website: string;
}

/** Fields venues and organizers share (both are WordPress posts with a name as title). */
export const LinkedPostInterface = builder.interfaceRef<LinkedPostShape>('LinkedPost').implement({
  description: 'What venues and organizers share: WordPress posts with a name as title.',
  fields: (t) => ({
    databaseId: t.exposeInt('id', { description: 'Numeric post ID (shared ID space with events).' }),
    authorId: t.exposeInt('authorId', { nullable: true }),
    status: t.expose('status', { type: PostStatusEnum }),
    slug: t.exposeString('slug', { nullable: true }),
    name: t.string({ description: 'Display name.', resolve: (p) => renderTitle(p.name) }),
    nameRaw: t.exposeString('name'),
    description: t.string({
      description: 'Body rendered as HTML; empty while `locked`.',
      resolve: (p, _a, ctx: Context) => renderContent(lockedContent(ctx, p, p.content)),
    }),
    descriptionRaw: t.string({
      description: 'Body as stored; empty while `locked`.',
      resolve: (p, _a, ctx: Context) => lockedContent(ctx, p, p.content),
    }),
    excerpt: t.string({
      description: 'Excerpt rendered as HTML; empty when none or while `locked`.',
      resolve: (p, _a, ctx: Context) => renderExcerpt(lockedContent(ctx, p, p.excerpt)),
    }),
    hasPassword: t.boolean({ resolve: (p) => p.password !== '' }),
    locked: t.boolean({
      description: 'Password-protected and not unlocked by this request.',
      resolve: (p, _a, ctx: Context) => isLocked(ctx, p),
    }),
    date: t.string({ resolve: (p) => wallClock(p.dateLocal) }),
    dateUtc: t.string({ nullable: true, resolve: (p) => (p.dateUtc ? wallClock(p.dateUtc) : null) }),
    modified: t.string({ resolve: (p) => wallClock(p.modifiedLocal) }),
    modifiedUtc: t.string({ resolve: (p) => wallClock(p.modifiedUtc) }),
    phone: t.exposeString('phone'),
    website: t.exposeString('website'),
  }),
});
