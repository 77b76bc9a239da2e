import type { Context } from '../../src/context.ts';
import { renderContent, renderExcerpt, renderTitle } from '../../src/domain/text.ts';
import { isLocked, lockedContent } from '../../src/services/visibility.ts';
import { PostStatusEnum, wallClock } from './common.ts';

interface PostShape {
  id: number;
  authorId: number | null;
  name: string;
  content: string;
  excerpt: string;
  password: string;
  dateUtc: Date | null;
  dateLocal: Date;
  modifiedUtc: Date;
  modifiedLocal: Date;
}

/** Fields venues and organizers share (both are WordPress posts with a name as title). */
export function linkedPostFields(t: any) {
  return {
    databaseId: t.exposeInt('id', { description: 'Numeric post ID (shared ID space with events).' }),
    authorId: t.exposeInt('authorId', { nullable: true }),
    status: t.expose('status', { type: PostStatusEnum }),
    slug: t.exposeString('slug', { nullable: true }),
    name: t.string({ description: 'Display name.', resolve: (p: PostShape) => renderTitle(p.name) }),
    nameRaw: t.exposeString('name'),
    description: t.string({
      description: 'Body rendered as HTML; empty while `locked`.',
      resolve: (p: PostShape & { status: string }, _a: unknown, ctx: Context) => renderContent(lockedContent(ctx, p, p.content)),
    }),
    descriptionRaw: t.string({
      description: 'Body as stored; empty while `locked`.',
      resolve: (p: PostShape & { status: string }, _a: unknown, ctx: Context) => lockedContent(ctx, p, p.content),
    }),
    excerpt: t.string({
      description: 'Excerpt rendered as HTML; empty when none or while `locked`.',
      resolve: (p: PostShape & { status: string }, _a: unknown, ctx: Context) => renderExcerpt(lockedContent(ctx, p, p.excerpt)),
    }),
    hasPassword: t.boolean({ resolve: (p: PostShape) => p.password !== '' }),
    locked: t.boolean({
      description: 'Password-protected and not unlocked by this request.',
      resolve: (p: PostShape & { status: string }, _a: unknown, ctx: Context) => isLocked(ctx, p),
    }),
    date: t.string({ resolve: (p: PostShape) => wallClock(p.dateLocal) }),
    dateUtc: t.string({ nullable: true, resolve: (p: PostShape) => (p.dateUtc ? wallClock(p.dateUtc) : null) }),
    modified: t.string({ resolve: (p: PostShape) => wallClock(p.modifiedLocal) }),
    modifiedUtc: t.string({ resolve: (p: PostShape) => wallClock(p.modifiedUtc) }),
    phone: t.exposeString('phone'),
    website: t.exposeString('website'),
  };
}
