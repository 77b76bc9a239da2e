/**
 * What the topology load sends, in one place: the GraphQL documents (their result shapes are read
 * here only, so a change of the schema's surface is adapted here) and the REST bodies.
 */

export const NS = '/wp-json/cal/events/v1';

/**
 * Every change of an event, with its title (the load's records are told apart by title), after the
 * cursor the subscriber got last (null: from now on).
 */
export const SUBSCRIPTION = 'subscription TopologyChanges($after: String) { eventChanged(after: $after) { cursor action event { title } } }';

/** The cursor a change payload carries (where a subscriber resumes). */
export function changeCursor(payload: unknown): string | null {
  return (payload as { data?: { eventChanged?: { cursor?: string } | null } } | null)?.data?.eventChanged?.cursor ?? null;
}

/** The title a change payload carries; null when it carries none (a deletion) or is no change. */
export function changedTitle(payload: unknown): string | null {
  const data = (payload as { data?: { eventChanged?: { event?: { title?: string } | null } } } | null)?.data;
  return data?.eventChanged?.event?.title ?? null;
}

const CREATE_RESULT = '__typename ... on CreateEventSuccess { event { databaseId title } } ... on Error { message }';
const UPDATE_RESULT = '__typename ... on UpdateEventSuccess { event { databaseId title } } ... on Error { message }';

export const CREATE_EVENT = `mutation TopologyCreate($input: CreateEventInput!) { createEvent(input: $input) { ${CREATE_RESULT} } }`;
export const UPDATE_EVENT = `mutation TopologyUpdate($id: ID, $input: UpdateEventInput!) { updateEvent(id: $id, input: $input) { ${UPDATE_RESULT} } }`;

/** Variables of UPDATE_EVENT for the event `id` (the database ID the REST API and `databaseId` give). */
export const updateVariables = (id: number, title: string) => ({ id, input: { title } });

export const createVariables = (title: string, day: string) => ({
  input: { title, startDate: `${day} 19:00:00`, endDate: `${day} 21:00:00`, status: 'PUBLISH' },
});

/** The event a CREATE_EVENT / UPDATE_EVENT answer carries, or why there is none. */
export function mutatedEvent(body: unknown, field: 'createEvent' | 'updateEvent'): { id: number; title: string } | { error: string } {
  const json = body as { data?: Record<string, { __typename: string; event?: { databaseId: number; title: string }; message?: string }>; errors?: { message: string }[] };
  const result = json.data?.[field];
  if (result?.event) return { id: result.event.databaseId, title: result.event.title };
  return { error: result?.message ?? json.errors?.map((e) => e.message).join('; ') ?? 'no result' };
}

/** A GraphQL GET read anonymous readers share through the edge: the hot events' month. */
export const HOT_QUERY = 'query TopologyHot { events(first: 20, filter: { startDate: "2031-06-01", endDate: "2031-06-30" }) { nodes { title } } }';

/** REST body of a new published event on `day` (YYYY-MM-DD). */
export const restEvent = (title: string, day: string) => ({ title, start_date: `${day} 19:00:00`, end_date: `${day} 21:00:00`, status: 'publish' });
