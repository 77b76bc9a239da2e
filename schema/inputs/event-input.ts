import type { EventInput, LinkedRef } from '../../src/services/event-input.ts';
import { builder } from '../builder.ts';
import { optionalRecordId, referenceText, type NodeTypeName } from '../ids.ts';
import { PostStatusEnum } from '../types/common.ts';
import { CreateOrganizerInput, CreateVenueInput, toLinkedPostInput } from './linked-post-input.ts';
import { RecurrenceInputRef } from './recurrence-input.ts';

export const VenueRefInput = builder.inputType('VenueRefInput', {
  description: 'An existing venue (`id`) or one to create — or reuse when one of the same name exists (`create`).',
  fields: (t) => ({ id: t.id({ description: 'Global ID, or database ID.' }), create: t.field({ type: CreateVenueInput }) }),
});
export const OrganizerRefInput = builder.inputType('OrganizerRefInput', {
  description: 'An existing organizer (`id`) or one to create or reuse (`create`).',
  fields: (t) => ({ id: t.id({ description: 'Global ID, or database ID.' }), create: t.field({ type: CreateOrganizerInput }) }),
});

type Fields = Parameters<Parameters<typeof builder.inputType>[1]['fields']>[0];
const eventFields = (t: Fields) => ({
  description: t.string(),
  excerpt: t.string(),
  slug: t.string(),
  status: t.field({ type: PostStatusEnum, description: 'Forced to pending/draft for callers who may not publish.' }),
  authorId: t.id({ description: 'The author (a user): global ID, or database ID.' }),
  date: t.string({ description: 'Publication date, read in the event time zone.' }),
  dateUtc: t.string(),
  timezone: t.string({ description: 'IANA zone or UTC±h; site zone when absent.' }),
  allDay: t.boolean(),
  image: t.string({ description: 'Image attachment ID (global or database) or URL; "" or "0" clears.' }),
  cost: t.stringList({ description: 'One or more cost texts ("$15", "15-25", "Free").' }),
  website: t.string(),
  showMap: t.boolean(),
  showMapLink: t.boolean(),
  hideFromListings: t.boolean(),
  sticky: t.boolean(),
  featured: t.boolean(),
  categories: t.stringList({ description: 'IDs (global or database), slugs or names; unknown names are created, unknown IDs dropped. [] removes all.' }),
  tags: t.stringList({ description: 'As categories.' }),
  venues: t.field({ type: [VenueRefInput], description: '[] unlinks every venue.' }),
  organizers: t.field({ type: [OrganizerRefInput], description: 'Exactly this list, in order. [] removes all.' }),
  parentId: t.id({ description: 'Parent event (recurrence series): global ID, or database ID; 0 clears.' }),
  // Recurring series: on create, or on update with scope ALL / THIS_AND_FOLLOWING.
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

type EventInputFields = typeof CreateEventInput.$inferInput | typeof UpdateEventInput.$inferInput;
type LinkedRefFields = typeof VenueRefInput.$inferInput | typeof OrganizerRefInput.$inferInput;

/** The service's input: every record it names as a database ID (an ID argument takes either form, schema/ids.ts). */
export function toEventInput({ authorId, parentId, image, categories, tags, venues, organizers, ...rest }: EventInputFields): EventInput {
  const refs = (list: readonly string[] | null | undefined, type: NodeTypeName, field: string) => list?.map((r) => referenceText(r, [type], field));
  const linked = (list: readonly LinkedRefFields[] | null | undefined, type: 'Venue' | 'Organizer', field: string): LinkedRef[] | null | undefined =>
    list?.map((ref) => ({ id: optionalRecordId(ref.id, [type], field), create: ref.create && toLinkedPostInput(ref.create) }));
  return {
    ...rest,
    authorId: optionalRecordId(authorId, ['User'], 'authorId'),
    parentId: optionalRecordId(parentId, ['Event'], 'parentId', { zero: true }),
    image: image == null ? image : referenceText(image, ['Image'], 'image'),
    categories: refs(categories, 'EventCategory', 'categories'),
    tags: refs(tags, 'EventTag', 'tags'),
    venues: linked(venues, 'Venue', 'venue'),
    organizers: linked(organizers, 'Organizer', 'organizer'),
  };
}
