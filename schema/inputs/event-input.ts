import type { EventInput } from '../../src/services/event-input.ts';
import { builder } from '../builder.ts';
import { PostStatusEnum } from '../types/common.ts';
import { CreateOrganizerInput, CreateVenueInput } from './linked-post-input.ts';
import { RecurrenceInputRef } from './recurrence-input.ts';

export const VenueRefInput = builder.inputType('VenueRefInput', {
  description: 'An existing venue (`id`) or one to create — or reuse when one of the same name exists (`create`).',
  fields: (t) => ({ id: t.int(), create: t.field({ type: CreateVenueInput }) }),
});
export const OrganizerRefInput = builder.inputType('OrganizerRefInput', {
  description: 'An existing organizer (`id`) or one to create or reuse (`create`).',
  fields: (t) => ({ id: t.int(), create: t.field({ type: CreateOrganizerInput }) }),
});

type Fields = Parameters<Parameters<typeof builder.inputType>[1]['fields']>[0];
const eventFields = (t: Fields) => ({
  description: t.string(),
  excerpt: t.string(),
  slug: t.string(),
  status: t.field({ type: PostStatusEnum, description: 'Forced to pending/draft for callers who may not publish.' }),
  authorId: t.int(),
  date: t.string({ description: 'Publication date, read in the event time zone.' }),
  dateUtc: t.string(),
  timezone: t.string({ description: 'IANA zone or UTC±h; site zone when absent.' }),
  allDay: t.boolean(),
  image: t.string({ description: 'Image attachment ID or URL; "" or "0" clears.' }),
  cost: t.stringList({ description: 'One or more cost texts ("$15", "15-25", "Free").' }),
  website: t.string(),
  showMap: t.boolean(),
  showMapLink: t.boolean(),
  hideFromListings: t.boolean(),
  sticky: t.boolean(),
  featured: t.boolean(),
  categories: t.stringList({ description: 'IDs, slugs or names; unknown names are created, unknown IDs dropped. [] removes all.' }),
  tags: t.stringList({ description: 'As categories.' }),
  venues: t.field({ type: [VenueRefInput], description: '[] unlinks every venue.' }),
  organizers: t.field({ type: [OrganizerRefInput], description: 'Exactly this list, in order. [] removes all.' }),
  parentId: t.int({ description: 'Parent event (recurrence series); 0 clears.' }),
  // Recurring series (issue 13): on create, or on update with scope ALL / THIS_AND_FOLLOWING.
  recurrence: t.field({ type: RecurrenceInputRef, description: 'Makes the event a recurring series (see RecurrenceInput).' }),
});

export const CreateEventInput = builder.inputType('CreateEventInput', {
  fields: (t) => ({
    title: t.string({ required: true }),
    startDate: t.string({ required: true, description: 'Start text (strtotime formats), read in the event time zone.' }),
    endDate: t.string({ required: true }),
    ...eventFields(t),
  }),
});

export const UpdateEventInput = builder.inputType('UpdateEventInput', {
  fields: (t) => ({
    title: t.string(),
    startDate: t.string({ description: 'One date alone keeps the other; end before start is clamped.' }),
    endDate: t.string(),
    ...eventFields(t),
  }),
});

export const toEventInput = (input: Record<string, unknown>): EventInput => input as EventInput;
