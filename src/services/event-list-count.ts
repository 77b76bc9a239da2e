import { Prisma } from '../../prisma/generated/client/client.ts';
import type { Context } from './context.ts';
import { DATE_BOUNDS, type DateBound } from '../domain/date-window.ts';
import { wallClockToDate } from '../domain/wall-clock.ts';

/**
 * A public event list whose total the kept counts answer (table "EventListCount", kept by the
 * triggers of migration 20261128005757_event_list_counts): published events not hidden from listings,
 * within date bounds on the event-local start and end, in at most one category (with its descendants).
 */
export interface KeptCountPlan {
  /** 0: no category filter. */
  category: number;
  /** The list's date bounds, site-local wall clocks compared with `startLocal`/`endLocal`. */
  bounds: { bound: DateBound; wall: string }[];
}

const DAY_MS = 86_400_000;

/**
 * The list's exact total without reading every matching event. An event matching a bound on its
 * start (or end) starts (ends) on the bound's day or on the right side of it; so every event whose
 * start and end days lie strictly on the right side of every bound's day matches, whatever the
 * times: those are summed from the counts by day. The rest of the matches start or end on one of
 * the bounds' days: counted exactly, with the list's own filter, from the indexes on the start and
 * the end (a day's events, however large the calendar). Both statements read a number of rows that
 * grows with the window's days, not with the number of events.
 */
export async function keptListCount(ctx: Context, plan: KeptCountPlan, where: Prisma.EventWhereInput): Promise<number> {
  const inside = plan.bounds.map(({ bound, wall }) => {
    const { edge, op } = DATE_BOUNDS[bound];
    const column = Prisma.raw(edge === 'start' ? '"startDay"' : '"endDay"');
    return op === 'gte' || op === 'gt' ? Prisma.sql`AND ${column} > ${wall.slice(0, 10)}::date` : Prisma.sql`AND ${column} < ${wall.slice(0, 10)}::date`;
  });
  const edgeDays = plan.bounds.map(({ bound, wall }): Prisma.EventWhereInput => {
    const day = wallClockToDate(`${wall.slice(0, 10)} 00:00:00`);
    const range = { gte: day, lt: new Date(day.getTime() + DAY_MS) };
    return DATE_BOUNDS[bound].edge === 'start' ? { startLocal: range } : { endLocal: range };
  });
  const [[summed], edges] = await Promise.all([
    ctx.prisma.$queryRaw<{ n: number }[]>`
      SELECT coalesce(sum("events"), 0)::int AS n FROM "EventListCount"
      WHERE "categoryId" = ${plan.category} ${inside.length ? Prisma.join(inside, ' ') : Prisma.empty}`,
    edgeDays.length ? ctx.prisma.event.count({ where: { AND: [where, { OR: edgeDays }] } }) : 0,
  ]);
  return (summed?.n ?? 0) + edges;
}
