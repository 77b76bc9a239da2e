import type { LinkedPostInput } from '../../src/services/linked-posts.ts';
import { builder } from '../builder.ts';
import { optionalRecordId, referenceText } from '../ids.ts';
import { PostStatusEnum } from '../types/common.ts';

type Fields = Parameters<Parameters<typeof builder.inputType>[1]['fields']>[0];

const common = (t: Fields) => ({
  description: t.string(),
  status: t.field({ type: PostStatusEnum }),
  authorId: t.id({ description: 'The author (a user): global ID, or database ID.' }),
  date: t.string({ description: 'Publication date, site time.' }),
  dateUtc: t.string(),
  image: t.string({ description: 'Image attachment ID (global or database) or URL; "" clears.' }),
  phone: t.string(),
  website: t.string(),
});

const venueFields = (t: Fields) => ({
  ...common(t),
  address: t.string(),
  city: t.string(),
  country: t.string(),
  province: t.string(),
  state: t.string(),
  stateProvince: t.string({ description: 'State for US addresses, else province; derived from state/province/country when not given.' }),
  stateprovince: t.string({ description: 'Derived from state/province/country when not given.', deprecationReason: 'Use stateProvince.' }),
  zip: t.string(),
  latitude: t.float(),
  longitude: t.float(),
  showMap: t.boolean(),
  showMapLink: t.boolean(),
});

export const CreateVenueInput = builder.inputType('CreateVenueInput', {
  fields: (t) => ({ name: t.string({ required: true }), ...venueFields(t) }),
});
export const UpdateVenueInput = builder.inputType('UpdateVenueInput', {
  fields: (t) => ({ name: t.string(), ...venueFields(t) }),
});
export const CreateOrganizerInput = builder.inputType('CreateOrganizerInput', {
  fields: (t) => ({ name: t.string({ required: true }), ...common(t), email: t.string() }),
});
export const UpdateOrganizerInput = builder.inputType('UpdateOrganizerInput', {
  fields: (t) => ({ name: t.string(), ...common(t), email: t.string() }),
});

/**
 * The services' input: `stateProvince` under its column's name, `stateprovince` (the new name wins
 * when both are sent); the author and the image as database IDs.
 */
export function toLinkedPostInput({ stateProvince, authorId, image, ...rest }: LinkedPostFields): LinkedPostInput {
  return {
    ...rest,
    ...(stateProvince == null ? {} : { stateprovince: stateProvince }),
    ...(authorId === undefined ? {} : { authorId: optionalRecordId(authorId, ['User'], 'authorId') }),
    ...(image == null ? { image } : { image: referenceText(image, ['Image'], 'image') }),
  };
}

/** A venue's or organizer's fields as GraphQL takes them. */
type LinkedPostFields = Omit<LinkedPostInput, 'authorId'> & { authorId?: string | number | null; stateProvince?: string | null };
