/** The JSON Schema of presenter.ts's venue. */
import { orNull } from '../../presenters/schema.ts';
import { linkedPostSchema } from '../linked-posts/schema.ts';

const text = { type: 'string' };

/** The map flags are always there (`null` on a locked venue), the coordinates only when set (`0` when locked). */
export const VENUE_SCHEMA = linkedPostSchema(
  'venue',
  {
    address: text,
    city: text,
    country: text,
    province: text,
    state: text,
    zip: text,
    phone: text,
    website: text,
    stateprovince: text,
    geo_lat: { type: 'number', minimum: -90, maximum: 90 },
    geo_lng: { type: 'number', minimum: -180, maximum: 180 },
    show_map: orNull('boolean'),
    show_map_link: orNull('boolean'),
  },
  ['show_map', 'show_map_link'],
);
