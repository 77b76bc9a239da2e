import { builder } from '../builder.ts';
import { CreateVenueInput, UpdateVenueInput } from '../inputs/linked-post-input.ts';
import { ImageRef } from './common.ts';
import { defineLinkedPostOperations } from './linked-post-operations.ts';
import { linkedPostNodeOptions } from './post-fields.ts';

export const VenueRef = builder.prismaNode('Venue', {
  description: 'A place where events happen.',
  ...linkedPostNodeOptions,
  fields: (t) => ({
    address: t.exposeString('address'),
    city: t.exposeString('city'),
    country: t.exposeString('country'),
    province: t.exposeString('province'),
    state: t.exposeString('state'),
    stateProvince: t.exposeString('stateprovince', { description: 'State for US addresses, else province (derived from state/province/country when not given).' }),
    stateprovince: t.exposeString('stateprovince', { deprecationReason: 'Use stateProvince.' }),
    zip: t.exposeString('zip'),
    latitude: t.exposeFloat('latitude', { nullable: true }),
    longitude: t.exposeFloat('longitude', { nullable: true }),
    showMap: t.boolean({ resolve: (v) => v.showMap ?? true }),
    showMapLink: t.boolean({ resolve: (v) => v.showMapLink ?? true }),
    image: t.relation('image', { nullable: true, type: ImageRef }),
  }),
});

/** The edge of a venue in the default list (for change payloads). */
export const venueEdges = defineLinkedPostOperations({
  kind: 'VENUE',
  model: 'Venue',
  ref: VenueRef,
  single: 'venue',
  plural: 'venues',
  createInput: CreateVenueInput,
  updateInput: UpdateVenueInput,
});
