import type { Prisma } from '../../prisma/generated/client/client.ts';
import type { Context } from './context.ts';
import type { LinkedKind } from '../db/tables.ts';
import { wallClockToDate } from '../domain/wall-clock.ts';
import { ValidationError } from '../domain/errors.ts';
import { searchPhraseFault, splitLinkedSearchWords } from '../domain/search.ts';
import { listStatusWhere } from './visibility.ts';

export interface LinkedPostFilter {
  search?: string | null;
  event?: number | null;
  hasEvents?: boolean | null;
  onlyWithUpcoming?: boolean | null;
  statuses?: string[] | null;
}

const venueSearchFields = ['name', 'content', 'excerpt', 'address', 'city', 'province', 'state', 'stateprovince', 'zip', 'phone'] as const;
const organizerSearchFields = ['name', 'content', 'excerpt', 'phone', 'email', 'website'] as const;

/** Venue and organizer list semantics (contract §5.6); both kinds share them. */
export async function buildLinkedPostListQuery(ctx: Context, kind: LinkedKind, filter: LinkedPostFilter) {
  const statusWhere = listStatusWhere<Prisma.VenueWhereInput>(ctx, filter.statuses);
  const and: Prisma.VenueWhereInput[] = [statusWhere];
  if (filter.search !== undefined && filter.search !== null) {
    const fault = searchPhraseFault(filter.search);
    if (fault) throw new ValidationError(fault.message, 'search', fault.code);
    const fields = kind === 'VENUE' ? venueSearchFields : organizerSearchFields;
    // Each word must occur in one field; a record matches when any field matches all its words.
    const words = splitLinkedSearchWords(filter.search);
    if (words.length) {
      and.push({
        OR: fields.map((f) => ({ AND: words.map((w) => ({ [f]: { contains: w, mode: 'insensitive' } })) })),
      });
    }
  }
  const link = (where: Prisma.EventWhereInput) => ({ events: { some: { event: where } } });
  if (filter.event !== undefined && filter.event !== null) {
    const post = await ctx.prisma.post.findUnique({ where: { id: filter.event }, select: { type: true } });
    if (post?.type !== 'EVENT') throw new ValidationError(`No event has the ID ${filter.event}.`, 'event', 'NOT_AN_EVENT');
    and.push(link({ id: filter.event }));
  }
  if (filter.hasEvents !== undefined && filter.hasEvents !== null) {
    const counted = link({ status: { notIn: ['draft', 'pending'] } });
    and.push(filter.hasEvents ? counted : { NOT: counted });
  }
  if (filter.onlyWithUpcoming) {
    const nowUtc = wallClockToDate(ctx.now.toISOString().slice(0, 19).replace('T', ' '));
    and.push(link({ AND: [listStatusWhere<Prisma.EventWhereInput>(ctx, filter.statuses), { startUtc: { gte: nowUtc } }] }));
  }
  return { where: { AND: and } as Prisma.VenueWhereInput & Prisma.OrganizerWhereInput, orderBy: LINKED_POST_ORDER };
}

/** Newest first (drafts never published last), ties by ID: the order of both lists. */
export const LINKED_POST_ORDER: Prisma.VenueOrderByWithRelationInput[] = [{ dateUtc: { sort: 'desc', nulls: 'last' } }, { id: 'desc' }];
