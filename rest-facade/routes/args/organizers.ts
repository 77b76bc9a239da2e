/**
 * Argument tables of the `/organizers` routes, transcribed from the reference namespace index
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

/** `GET /organizers` */
export const organizersListArgs: ArgMap = {
  page: { default: 1, description: "desc.the_archive_page_to_return", type: "integer", validate: positiveInt },
  per_page: { default: perPageDefault, description: "desc.the_number_of_organizers_to_return_on_each_page", type: "integer", validate: positiveInt, sanitize: capPerPage },
  search: { description: "desc.organizers_should_contain_the_specified_string_in_th_ada141", type: "string", validate: nonEmptyString },
  event: { description: "desc.organizers_should_be_related_to_this_event", type: "integer" },
  has_events: { description: "desc.organizers_should_have_events_associated_to_them" },
  only_with_upcoming: { description: "desc.organizers_should_have_upcoming_events_associated_to_them", default: false },
  status: { format: "string", description: "desc.the_organizer_post_status", accept: 'list' },
  password: { type: 'string', lenient: true, hidden: true },
};

/** `POST /organizers` */
export const organizersCreateArgs: ArgMap = {
  author: { type: "integer", default: null, description: "desc.the_organizer_author_id" },
  date: { type: "string", default: null, description: "desc.the_organizer_publication_date", lenient: true },
  date_utc: { type: "string", default: null, description: "desc.the_organizer_publication_date_utc_time_zone", lenient: true },
  organizer: { type: "string", default: null, description: "desc.the_organizer_name", required: true, validate: nonEmptyString },
  description: { type: "string", default: null, description: "desc.the_organizer_description" },
  status: { type: "string", default: null, description: "desc.the_organizer_post_status", validate: postStatus },
  phone: { type: "string", default: null, description: "desc.the_organizer_phone_number" },
  website: { type: "string", default: null, description: "desc.the_organizer_website", validate: urlOrEmpty },
  email: { type: "string", default: null, description: "desc.the_organizer_e_mail_address" },
  image: { type: "string", default: null, description: "desc.the_organizer_featured_image_id_or_url", lenient: true },
};

/** `GET /organizers/(?P<id>\d+)` */
export const organizerGetArgs: ArgMap = {
  id: { type: "integer", description: "desc.the_organizer_post_id", required: true },
  password: { type: 'string', lenient: true, hidden: true },
};

/** `DELETE /organizers/(?P<id>\d+)` */
export const organizerDeleteArgs: ArgMap = {
  id: { type: "integer", description: "desc.the_organizer_post_id", required: true },
};

/** `POST, PUT, PATCH /organizers/(?P<id>\d+)` */
export const organizerUpdateArgs: ArgMap = {
  id: { type: "integer", description: "desc.the_organizer_post_id", required: true },
  author: { type: "integer", default: null, description: "desc.the_organizer_author_id" },
  date: { type: "string", default: null, description: "desc.the_organizer_publication_date", lenient: true },
  date_utc: { type: "string", default: null, description: "desc.the_organizer_publication_date_utc_time_zone", lenient: true },
  organizer: { type: "string", default: null, description: "desc.the_organizer_name", validate: nonEmptyString },
  description: { type: "string", default: null, description: "desc.the_organizer_description" },
  status: { type: "string", default: null, description: "desc.the_organizer_post_status", validate: postStatus },
  phone: { type: "string", default: null, description: "desc.the_organizer_phone_number" },
  website: { type: "string", default: null, description: "desc.the_organizer_website", validate: urlOrEmpty },
  email: { type: "string", default: null, description: "desc.the_organizer_e_mail_address" },
  image: { type: "string", default: null, description: "desc.the_organizer_featured_image_id_or_url", lenient: true },
};

/** `GET /organizers/by-slug/(?P<slug>[^/]+)` */
export const organizerBySlugGetArgs: ArgMap = {
  slug: { type: "string", description: "desc.the_organizer_post_name", required: true },
  password: { type: 'string', lenient: true, hidden: true },
};

/** `DELETE /organizers/by-slug/(?P<slug>[^/]+)` */
export const organizerBySlugDeleteArgs: ArgMap = {
  slug: { type: "string", description: "desc.the_organizer_post_name", required: true },
};

/** `POST, PUT, PATCH /organizers/by-slug/(?P<slug>[^/]+)` */
export const organizerBySlugUpdateArgs: ArgMap = {
  slug: { type: "string", description: "desc.the_organizer_post_name", required: true },
  author: { type: "integer", default: null, description: "desc.the_organizer_author_id" },
  date: { type: "string", default: null, description: "desc.the_organizer_publication_date", lenient: true },
  date_utc: { type: "string", default: null, description: "desc.the_organizer_publication_date_utc_time_zone", lenient: true },
  organizer: { type: "string", default: null, description: "desc.the_organizer_name", validate: nonEmptyString },
  description: { type: "string", default: null, description: "desc.the_organizer_description" },
  status: { type: "string", default: null, description: "desc.the_organizer_post_status", validate: postStatus },
  phone: { type: "string", default: null, description: "desc.the_organizer_phone_number" },
  website: { type: "string", default: null, description: "desc.the_organizer_website", validate: urlOrEmpty },
  email: { type: "string", default: null, description: "desc.the_organizer_e_mail_address" },
  image: { type: "string", default: null, description: "desc.the_organizer_featured_image_id_or_url", lenient: true },
};
