import type { EventFilter } from '../../src/services/event-list.ts';
import { builder } from '../builder.ts';
import { optionalRecordId, recordIds, referenceText } from '../ids.ts';
import { PostStatusEnum } from '../types/common.ts';
import { DATE_BOUNDS, mapDateBounds } from '../../src/domain/date-window.ts';
import { OccurrenceListingEnum } from './recurrence-input.ts';

export const EventFilterInput = builder.inputType('EventFilter', {
  description:
    'Filters of the event list (contract §5.4/§5.5). Date texts accept what PHP strtotime accepts. Without any date bound the default window applies (from the start of yesterday, site time, to 24 months ahead); any relative bound (startsBefore…) drops the defaults; `include` applies no date bound.',
  fields: (t) => ({
    ...mapDateBounds((bound) => t.string({ description: DATE_BOUNDS[bound].description })),
    strictDates: t.boolean({ description: 'Compare exact instants instead of whole days.' }),
    defaultWindow: t.boolean({ description: 'Apply the default date window when no bound is given (default true).' }),
    search: t.string({ description: 'Keyword search in title, excerpt and body; "quoted phrases", -excluded words.' }),
    categories: t.stringList({ description: 'Category IDs (global or database) or slugs; an event in a descendant matches too.' }),
    tags: t.stringList({ description: 'Tag IDs (global or database) or slugs.' }),
    venues: t.idList({ description: 'Events at one of these venues.' }),
    organizers: t.idList({ description: 'Events by one of these organizers.' }),
    featured: t.boolean(),
    statuses: t.field({ type: [PostStatusEnum], description: 'Never widens what the caller may see.' }),
    include: t.idList({ description: 'Only these events (ordered by publication date).' }),
    postParent: t.id({ description: 'Events whose parent is this event.' }),
    geoloc: t.boolean({ description: 'With geolocLat/geolocLng: venues within 25 miles.' }),
    geolocLat: t.float(),
    geolocLng: t.float(),
    ticketed: t.boolean({ description: 'No ticketing module: true is refused, false filters nothing.' }),
    occurrences: t.field({ type: OccurrenceListingEnum, description: 'Recurring series: one row per occurrence (EXPAND, default) or per series (SERIES).' }),
  }),
});

/** The service's filter: record IDs as database IDs (an ID argument takes either form, schema/ids.ts). */
export function toEventFilter(input: typeof EventFilterInput.$inferInput | null | undefined): EventFilter {
  if (!input) return {};
  const terms = (refs: readonly string[] | null | undefined, type: 'EventCategory' | 'EventTag', field: string) =>
    refs?.map((ref) => referenceText(ref, [type], field));
  return {
    ...input,
    categories: terms(input.categories, 'EventCategory', 'categories'),
    tags: terms(input.tags, 'EventTag', 'tags'),
    venues: recordIds(input.venues, ['Venue'], 'venue'),
    organizers: recordIds(input.organizers, ['Organizer'], 'organizer'),
    include: recordIds(input.include, ['Event'], 'include'),
    postParent: optionalRecordId(input.postParent, ['Event'], 'postParent'),
  };
}
