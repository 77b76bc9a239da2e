/**
 * What a feed needs to know beyond the REST records: the raw texts of each listed event (a feed
 * writes titles and names as stored, as the plugin's iCal export does, not WordPress's typographic
 * rendering), which events are occurrences (their series, RECURRENCE-ID, override or not) and each
 * series' rules and overrides. One GraphQL operation per page of listed IDs, run in-process with
 * the caller's context.
 */
import { parse } from 'graphql';

import type { Context } from '../services/context.ts';
import type { Executor } from '../../schema/executor.ts';

const SOURCE = `query FeedSeries($ids: [ID!]!, $perPage: Int) {
  events(filter: { include: $ids }, perPage: $perPage) {
    edges { node {
      databaseId titleRaw descriptionRaw locked recurrenceId occurrenceOverridden
      venues { nameRaw address city stateProvince zip country } organizers { nameRaw email } categories { name }
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

/** An event's texts as stored (HTML for the description; the feed makes text of it). */
export interface FeedTexts {
  title: string;
  description: string;
  venue: string | null;
  organizer: string | null;
  /**
   * Password-protected and not opened by this visitor (the core's `locked`): its REST record came
   * redacted, and the feed describes it as TEC's does, from what follows (`protected`).
   */
  locked: boolean;
  protected: { address: string; organizerEmail: string | null; categories: string[] };
}

export interface FeedRecurrence {
  members: Map<number, FeedMember>;
  series: Map<number, FeedSeries>;
  texts: Map<number, FeedTexts>;
}

interface Node {
  databaseId: number;
  titleRaw: string;
  descriptionRaw: string;
  locked: boolean;
  venues: { nameRaw: string; address: string; city: string; stateProvince: string; zip: string; country: string }[];
  organizers: { nameRaw: string; email: string }[];
  categories: { name: string }[];
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

/** What TEC's feed keeps of a protected event besides its time and title: where, who (an e-mail address), its categories. */
function protectedFields(node: Node): FeedTexts['protected'] {
  const venue = node.venues[0];
  const organizer = node.organizers.find((o) => o.email);
  return {
    address: venue ? [venue.address, venue.city, venue.stateProvince, venue.zip, venue.country].filter((x) => x.trim()).join(', ') : '',
    organizerEmail: organizer?.email ?? null,
    categories: node.categories.map((c) => c.name),
  };
}

export function createFeedSeriesLoader(executor: Executor, pageSize: number) {
  const operation = executor.prepare(parse(SOURCE));
  return async function feedSeries(cal: Context, ids: readonly number[]): Promise<FeedRecurrence> {
    const found: FeedRecurrence = { members: new Map(), series: new Map(), texts: new Map() };
    for (let i = 0; i < ids.length; i += pageSize) {
      const chunk = ids.slice(i, i + pageSize);
      const result = await executor.execute(operation, { ids: chunk, perPage: chunk.length }, cal);
      const edges = (result.data?.events as { edges?: { node: Node }[] } | undefined)?.edges;
      if (result.errors?.length || !edges) throw new Error(`FeedSeries: ${JSON.stringify(result.errors ?? result.data)}`);
      for (const { node } of edges) {
        found.texts.set(node.databaseId, {
          title: node.titleRaw,
          description: node.descriptionRaw,
          venue: node.venues[0]?.nameRaw ?? null,
          organizer: node.organizers[0]?.nameRaw ?? null,
          locked: node.locked,
          protected: protectedFields(node),
        });
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
