import type { LinkedPostInput } from './linked-posts.ts';

/**
 * What an event write takes (createEvent, updateEvent; GraphQL's CreateEventInput/UpdateEventInput
 * and the imports map to it). Its own module: events.ts and the series code of recurrence.ts
 * (which events.ts calls) both read it.
 */

/** A venue or organizer given on an event write: an existing ID, or the fields of one to create/reuse. */
export interface LinkedRef {
  id?: number | null;
  create?: LinkedPostInput | null;
}

export interface EventInput {
  title?: string | null;
  description?: string | null;
  excerpt?: string | null;
  slug?: string | null;
  status?: string | null;
  authorId?: number | null;
  date?: string | null;
  dateUtc?: string | null;
  timezone?: string | null;
  allDay?: boolean | null;
  startDate?: string | null;
  endDate?: string | null;
  image?: string | null;
  cost?: string[] | null;
  website?: string | null;
  showMap?: boolean | null;
  showMapLink?: boolean | null;
  hideFromListings?: boolean | null;
  sticky?: boolean | null;
  featured?: boolean | null;
  categories?: string[] | null;
  tags?: string[] | null;
  venues?: LinkedRef[] | null;
  organizers?: LinkedRef[] | null;
  parentId?: number | null;
  /** Makes the event a recurring series (src/services/recurrence.ts). */
  recurrence?: RecurrenceInput | null;
}

/**
 * A recurrence: its RRULE (or several: their union; none for a series of RDATEs only) with its
 * exception and extra dates (src/services/recurrence.ts).
 */
export interface RecurrenceInput {
  rule?: string | null;
  rules?: string[] | null;
  exdates?: string[] | null;
  rdates?: string[] | null;
}
