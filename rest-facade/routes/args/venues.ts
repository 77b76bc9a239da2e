/**
 * Argument tables of the `/venues` routes, transcribed from the reference namespace index
 * (samples/GET_index.json): names, order, schema keys (in the order the index shows them),
 * defaults and `required`. Descriptions are i18n keys (`rest-facade/i18n/*.json`).
 *
 * Generic validators (no database) are attached here; database-backed checks (existing IDs,
 * date parsing, statuses by role, …) are added by the handlers with `withArgs()`:
 *   withArgs(eventsListArgs, { categories: { validate: isKnownCategoryList } })
 * which keeps the parameter order. Note that args with a non-null `default` (e.g. `all_day:
 * false` on updates) always have a value: use `req.sent(name)` to know whether the client sent it.
 * `password` args are `hidden` (newer TEC, REC §3.2): processed but not listed in the index.
 */
import type { ArgMap } from '../../wp/types.ts';
import { positiveInt, nonEmptyString, urlOrEmpty, postStatus, capPerPage } from './validators.ts';
import { perPageDefault } from './defaults.ts';

/** `GET /venues` */
export const venuesListArgs: ArgMap = {
  page: { default: 1, description: "desc.the_archive_page_to_return", type: "integer", validate: positiveInt },
  per_page: { default: perPageDefault, description: "desc.the_number_of_venues_to_return_on_each_page", type: "integer", validate: positiveInt, sanitize: capPerPage },
  search: { description: "desc.venues_should_contain_the_specified_string_in_the_ti_e56774", type: "string", validate: nonEmptyString },
  event: { description: "desc.venues_should_be_related_to_this_event", type: "integer" },
  has_events: { description: "desc.venues_should_have_events_associated_to_them" },
  only_with_upcoming: { description: "desc.venues_should_have_upcoming_events_associated_to_them", default: false },
  status: { format: "string", description: "desc.the_organizer_post_status", accept: 'list' },
  password: { type: 'string', lenient: true, hidden: true },
};

/** `POST /venues` */
export const venuesCreateArgs: ArgMap = {
  author: { type: "integer", description: "desc.the_venue_author_id" },
  date: { type: "string", description: "desc.the_venue_publication_date", lenient: true },
  date_utc: { type: "string", description: "desc.the_venue_publication_date_utc_time_zone", lenient: true },
  venue: { type: "string", description: "desc.the_venue_name", required: true, validate: nonEmptyString },
  description: { type: "string", default: null, description: "desc.the_venue_description" },
  status: { type: "string", description: "desc.the_venue_post_status", validate: postStatus },
  show_map: { type: "string", default: null, description: "desc.whether_events_linked_to_the_venue_should_show_a_map_or_not" },
  show_map_link: { type: "string", default: null, description: "desc.whether_events_linked_to_the_venue_should_show_a_map_1381ff" },
  address: { type: "string", default: null, description: "desc.the_venue_address" },
  city: { type: "string", default: null, description: "desc.the_venue_city" },
  country: { type: "string", default: null, description: "desc.the_venue_country" },
  province: { type: "string", default: null, description: "desc.the_venue_province" },
  state: { type: "string", default: null, description: "desc.the_venue_state" },
  zip: { type: "string", default: null, description: "desc.the_venue_zip_code" },
  phone: { type: "string", default: null, description: "desc.the_venue_phone_number" },
  stateprovince: { type: "string", default: null, description: "desc.the_venue_state_and_province" },
  website: { type: "string", default: null, description: "desc.the_venue_website_url", validate: urlOrEmpty },
  image: { type: "string", default: null, description: "desc.the_organizer_featured_image_id_or_url", lenient: true },
};

/** `GET /venues/(?P<id>\d+)` */
export const venueGetArgs: ArgMap = {
  id: { type: "integer", description: "desc.the_venue_post_id", required: true },
  password: { type: 'string', lenient: true, hidden: true },
};

/** `DELETE /venues/(?P<id>\d+)` */
export const venueDeleteArgs: ArgMap = {
  id: { type: "integer", description: "desc.the_venue_post_id", required: true },
};

/** `POST, PUT, PATCH /venues/(?P<id>\d+)` */
export const venueUpdateArgs: ArgMap = {
  id: { type: "integer", description: "desc.the_venue_post_id", required: true },
  author: { type: "integer", description: "desc.the_venue_author_id" },
  date: { type: "string", description: "desc.the_venue_publication_date", lenient: true },
  date_utc: { type: "string", description: "desc.the_venue_publication_date_utc_time_zone", lenient: true },
  venue: { type: "string", description: "desc.the_venue_name", validate: nonEmptyString },
  description: { type: "string", default: null, description: "desc.the_venue_description" },
  status: { type: "string", description: "desc.the_venue_post_status", validate: postStatus },
  show_map: { type: "string", default: null, description: "desc.whether_events_linked_to_the_venue_should_show_a_map_or_not" },
  show_map_link: { type: "string", default: null, description: "desc.whether_events_linked_to_the_venue_should_show_a_map_1381ff" },
  address: { type: "string", default: null, description: "desc.the_venue_address" },
  city: { type: "string", default: null, description: "desc.the_venue_city" },
  country: { type: "string", default: null, description: "desc.the_venue_country" },
  province: { type: "string", default: null, description: "desc.the_venue_province" },
  state: { type: "string", default: null, description: "desc.the_venue_state" },
  zip: { type: "string", default: null, description: "desc.the_venue_zip_code" },
  phone: { type: "string", default: null, description: "desc.the_venue_phone_number" },
  stateprovince: { type: "string", default: null, description: "desc.the_venue_state_and_province" },
  website: { type: "string", default: null, description: "desc.the_venue_website_url", validate: urlOrEmpty },
  image: { type: "string", default: null, description: "desc.the_organizer_featured_image_id_or_url", lenient: true },
};

/** `GET /venues/by-slug/(?P<slug>[^/]+)` */
export const venueBySlugGetArgs: ArgMap = {
  slug: { type: "string", description: "desc.the_venue_post_name", required: true },
  password: { type: 'string', lenient: true, hidden: true },
};

/** `DELETE /venues/by-slug/(?P<slug>[^/]+)` */
export const venueBySlugDeleteArgs: ArgMap = {
  slug: { type: "string", description: "desc.the_venue_post_name", required: true },
};

/** `POST, PUT, PATCH /venues/by-slug/(?P<slug>[^/]+)` */
export const venueBySlugUpdateArgs: ArgMap = {
  slug: { type: "string", description: "desc.the_venue_post_name", required: true },
  author: { type: "integer", description: "desc.the_venue_author_id" },
  date: { type: "string", description: "desc.the_venue_publication_date", lenient: true },
  date_utc: { type: "string", description: "desc.the_venue_publication_date_utc_time_zone", lenient: true },
  venue: { type: "string", description: "desc.the_venue_name", validate: nonEmptyString },
  description: { type: "string", default: null, description: "desc.the_venue_description" },
  status: { type: "string", description: "desc.the_venue_post_status", validate: postStatus },
  show_map: { type: "string", default: null, description: "desc.whether_events_linked_to_the_venue_should_show_a_map_or_not" },
  show_map_link: { type: "string", default: null, description: "desc.whether_events_linked_to_the_venue_should_show_a_map_1381ff" },
  address: { type: "string", default: null, description: "desc.the_venue_address" },
  city: { type: "string", default: null, description: "desc.the_venue_city" },
  country: { type: "string", default: null, description: "desc.the_venue_country" },
  province: { type: "string", default: null, description: "desc.the_venue_province" },
  state: { type: "string", default: null, description: "desc.the_venue_state" },
  zip: { type: "string", default: null, description: "desc.the_venue_zip_code" },
  phone: { type: "string", default: null, description: "desc.the_venue_phone_number" },
  stateprovince: { type: "string", default: null, description: "desc.the_venue_state_and_province" },
  website: { type: "string", default: null, description: "desc.the_venue_website_url", validate: urlOrEmpty },
  image: { type: "string", default: null, description: "desc.the_organizer_featured_image_id_or_url", lenient: true },
};
