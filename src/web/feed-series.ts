/**
 * What a feed needs to know about recurring series (issue 13) beyond the REST records: which listed
 * events are occurrences (their series, RECURRENCE-ID, override or not) and each series' rule and
 * overrides. One GraphQL operation per page of listed IDs, run in-process with the caller's context.
 */
import { parse } from 'graphql';

import type { Context } from '../services/context.ts';
import type { Executor } from '../../schema/executor.ts';

const SOURCE = `query FeedSeries($ids: [Int!]!, $perPage: Int) {
  events(filter: { include: $ids }, perPage: $perPage) {
    edges { node {
      databaseId recurrenceId occurrenceOverridden
      series { databaseId startDate endDate allDay timezone recurrence { rules start exdates rdates } overrides { databaseId } }
    } }
  }
}`;

export interface FeedSeries {
  id: number;
  /** The series row's own dates (their difference is every occurrence's length). */
  startDate: string;
  endDate: string;
  allDay: boolean;
  timezone: string;
  /** RRULE texts (none: RDATEs only). */
  rules: string[];
  /** DTSTART, event-local. */
  start: string;
  exdates: string[];
  rdates: string[];
  /** IDs of the occurrences edited on their own. */
  overrides: number[];
}

export interface FeedMember {
  seriesId: number;
  recurrenceId: string;
  overridden: boolean;
}

export interface FeedRecurrence {
  members: Map<number, FeedMember>;
  series: Map<number, FeedSeries>;
}

interface Node {
  databaseId: number;
  recurrenceId: string | null;
  occurrenceOverridden: boolean;
  series: {
    databaseId: number;
    startDate: string;
    endDate: string;
    allDay: boolean;
    timezone: string;
    recurrence: { rules: string[]; start: string; exdates: string[]; rdates: string[] } | null;
    overrides: { databaseId: number }[];
  } | null;
}

export function createFeedSeriesLoader(executor: Executor, pageSize: number) {
  const operation = executor.prepare(parse(SOURCE));
  return async function feedSeries(cal: Context, ids: readonly number[]): Promise<FeedRecurrence> {
    const found: FeedRecurrence = { members: new Map(), series: new Map() };
    for (let i = 0; i < ids.length; i += pageSize) {
      const chunk = ids.slice(i, i + pageSize);
      const result = await executor.execute(operation, { ids: chunk, perPage: chunk.length }, cal);
      const edges = (result.data?.events as { edges?: { node: Node }[] } | undefined)?.edges;
      if (result.errors?.length || !edges) throw new Error(`FeedSeries: ${JSON.stringify(result.errors ?? result.data)}`);
      for (const { node } of edges) {
        const s = node.series;
        if (!s?.recurrence || !node.recurrenceId) continue;
        found.members.set(node.databaseId, { seriesId: s.databaseId, recurrenceId: node.recurrenceId, overridden: node.occurrenceOverridden });
        found.series.set(s.databaseId, {
          id: s.databaseId,
          startDate: s.startDate,
          endDate: s.endDate,
          allDay: s.allDay,
          timezone: s.timezone,
          ...s.recurrence,
          overrides: s.overrides.map((o) => o.databaseId),
        });
      }
    }
    return found;
  };
}
