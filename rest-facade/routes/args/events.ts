/**
 * Argument tables of the `/events` routes, transcribed from the reference namespace index
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
import { positiveInt, nonEmptyString, eachPositiveInt, urlOrEmpty, postStatus, capPerPage } from './validators.ts';
import { perPageDefault, eventsStartDateDefault, eventsEndDateDefault } from './defaults.ts';

/** `GET /events` */
export const eventsListArgs: ArgMap = {
  page: { default: 1, description: "desc.the_archive_page_to_return", type: "integer", validate: positiveInt },
  per_page: { default: perPageDefault, description: "desc.the_number_of_events_to_return_on_each_page", type: "integer", validate: positiveInt, sanitize: capPerPage },
  start_date: { default: eventsStartDateDefault, description: "desc.events_that_start_on_the_specified_date" },
  end_date: { default: eventsEndDateDefault, description: "desc.events_that_end_on_the_specified_date" },
  starts_before: { description: "desc.events_that_start_before_the_specified_date" },
  starts_after: { description: "desc.events_that_start_after_the_specified_date" },
  ends_before: { description: "desc.events_that_end_before_the_specified_date" },
  ends_after: { description: "desc.events_that_end_after_the_specified_date" },
  strict_dates: { default: "false", description: "desc.dates_set_using_the_start_date_end_date_starts_ends_83fd1a", validate: nonEmptyString },
  search: { description: "desc.events_should_contain_the_specified_string_in_the_ti_6a1f0f", type: "string", validate: nonEmptyString },
  categories: { description: "desc.events_should_be_assigned_one_of_the_specified_categ_ade2ce", items: {"type": "integer"} },
  tags: { description: "desc.events_should_be_assigned_one_of_the_specified_tags_209250", items: {"type": "integer"} },
  venue: { description: "desc.events_should_be_assigned_one_of_the_specified_venue_ids", items: {"type": "integer"} },
  organizer: { description: "desc.events_should_be_assigned_one_of_the_specified_organizer_ids", items: {"type": "integer"} },
  featured: { type: "boolean", description: "desc.events_should_be_filtered_by_their_featured_status" },
  status: { format: "string", description: "desc.the_event_post_status", accept: 'list' },
  geoloc: { type: "boolean", description: "desc.requires_events_calendar_pro_events_should_be_filter_fe27f3" },
  geoloc_lat: { format: "double", description: "desc.requires_events_calendar_pro_events_should_be_filter_e55b59" },
  geoloc_lng: { format: "double", description: "desc.requires_events_calendar_pro_events_should_be_filter_63178a" },
  include: { description: "desc.include_events_with_one_of_the_post_ids_specified_in_0922a2", items: {"type": "integer"}, validate: eachPositiveInt },
  post_parent: { type: "integer", description: "desc.events_should_be_filtered_by_their_post_parent_being_37118b" },
  ticketed: { type: "boolean", description: "desc.filter_events_with_or_without_tickets" },
  password: { type: 'string', lenient: true, hidden: true },
};

/** `POST /events` */
export const eventsCreateArgs: ArgMap = {
  author: { type: "integer", description: "desc.the_event_author_id" },
  date: { type: "string", description: "desc.the_event_publication_date", lenient: true },
  date_utc: { type: "string", description: "desc.the_event_publication_date_utc_time_zone", lenient: true },
  title: { type: "string", description: "desc.the_event_title", required: true, validate: nonEmptyString },
  description: { type: "string", description: "desc.the_event_description", validate: nonEmptyString },
  slug: { type: "string", description: "desc.the_event_slug", validate: nonEmptyString },
  excerpt: { type: "string", description: "desc.the_event_excerpt", validate: nonEmptyString },
  status: { type: "string", description: "desc.the_event_post_status", validate: postStatus },
  timezone: { type: "string", description: "desc.the_event_time_zone" },
  all_day: { default: false, type: "boolean", description: "desc.whether_the_event_lasts_the_whole_day_or_not" },
  start_date: { type: "string", description: "desc.the_event_start_date_and_time", required: true, lenient: true },
  end_date: { type: "string", description: "desc.the_event_end_date_and_time", required: true, lenient: true },
  image: { type: "string", description: "desc.the_event_featured_image_id_or_url", lenient: true },
  cost: { description: "desc.the_event_cost", accept: 'any' },
  website: { default: null, description: "desc.the_event_website_url", validate: urlOrEmpty },
  show_map: { type: "boolean", description: "desc.whether_the_event_should_show_a_map_or_not" },
  show_map_link: { type: "boolean", description: "desc.whether_the_event_should_show_a_map_link_or_not" },
  hide_from_listings: { type: "boolean", description: "desc.whether_events_should_be_hidden_in_the_calendar_view_or_not" },
  sticky: { type: "boolean", description: "desc.whether_the_event_should_be_sticky_in_the_calendar_v_5b2f49" },
  featured: { type: "boolean", description: "desc.whether_the_event_should_be_featured_on_the_site_or_not" },
  categories: { default: null, items: {"type": "integer"}, description: "desc.the_event_category_id_or_name" },
  tags: { default: null, items: {"type": "integer"}, description: "desc.the_event_tag_id_or_name" },
  venue: { default: null, items: {"type": "integer"}, description: "desc.the_event_venue_ids_or_data", accept: 'any' },
  organizer: { default: null, items: {"type": "integer"}, description: "desc.the_event_organizer_ids_or_data", accept: 'any' },
};

/** `GET /events/(?P<id>\d+)` */
export const eventGetArgs: ArgMap = {
  id: { type: "integer", description: "desc.the_event_post_id", required: true },
  password: { type: 'string', lenient: true, hidden: true },
};

/** `DELETE /events/(?P<id>\d+)` */
export const eventDeleteArgs: ArgMap = {
  id: { type: "integer", description: "desc.the_event_post_id", required: true },
  password: { type: 'string', lenient: true, hidden: true },
};

/** `POST, PUT, PATCH /events/(?P<id>\d+)` */
export const eventUpdateArgs: ArgMap = {
  id: { type: "integer", description: "desc.the_event_post_id", required: true },
  author: { type: "integer", description: "desc.the_event_author_id" },
  date: { type: "string", description: "desc.the_event_publication_date", lenient: true },
  date_utc: { type: "string", description: "desc.the_event_publication_date_utc_time_zone", lenient: true },
  title: { type: "string", description: "desc.the_event_title", validate: nonEmptyString },
  description: { type: "string", description: "desc.the_event_description", validate: nonEmptyString },
  slug: { type: "string", description: "desc.the_event_slug", validate: nonEmptyString },
  excerpt: { type: "string", description: "desc.the_event_excerpt", validate: nonEmptyString },
  status: { type: "string", description: "desc.the_event_post_status", validate: postStatus },
  timezone: { type: "string", description: "desc.the_event_time_zone" },
  all_day: { default: false, type: "boolean", description: "desc.whether_the_event_lasts_the_whole_day_or_not" },
  start_date: { type: "string", description: "desc.the_event_start_date_and_time", lenient: true },
  end_date: { type: "string", description: "desc.the_event_end_date_and_time", lenient: true },
  image: { type: "string", description: "desc.the_event_featured_image_id_or_url", lenient: true },
  cost: { description: "desc.the_event_cost", accept: 'any' },
  website: { default: null, description: "desc.the_event_website_url", validate: urlOrEmpty },
  show_map: { type: "boolean", description: "desc.whether_the_event_should_show_a_map_or_not" },
  show_map_link: { type: "boolean", description: "desc.whether_the_event_should_show_a_map_link_or_not" },
  hide_from_listings: { type: "boolean", description: "desc.whether_events_should_be_hidden_in_the_calendar_view_or_not" },
  sticky: { type: "boolean", description: "desc.whether_the_event_should_be_sticky_in_the_calendar_v_5b2f49" },
  featured: { type: "boolean", description: "desc.whether_the_event_should_be_featured_on_the_site_or_not" },
  categories: { default: null, items: {"type": "integer"}, description: "desc.the_event_category_id_or_name" },
  tags: { default: null, items: {"type": "integer"}, description: "desc.the_event_tag_id_or_name" },
  venue: { default: null, items: {"type": "integer"}, description: "desc.the_event_venue_ids_or_data", accept: 'any' },
  organizer: { default: null, items: {"type": "integer"}, description: "desc.the_event_organizer_ids_or_data", accept: 'any' },
  password: { type: 'string', lenient: true, hidden: true },
};

/** `GET /events/by-slug/(?P<slug>[^/]+)` */
export const eventBySlugGetArgs: ArgMap = {
  slug: { type: "string", description: "desc.the_event_post_name", required: true },
  password: { type: 'string', lenient: true, hidden: true },
};

/** `DELETE /events/by-slug/(?P<slug>[^/]+)` */
export const eventBySlugDeleteArgs: ArgMap = {
  slug: { type: "string", description: "desc.the_event_post_name", required: true },
  password: { type: 'string', lenient: true, hidden: true },
};

/** `POST, PUT, PATCH /events/by-slug/(?P<slug>[^/]+)` */
export const eventBySlugUpdateArgs: ArgMap = {
  slug: { type: "string", description: "desc.the_event_slug", validate: nonEmptyString },
  author: { type: "integer", description: "desc.the_event_author_id" },
  date: { type: "string", description: "desc.the_event_publication_date", lenient: true },
  date_utc: { type: "string", description: "desc.the_event_publication_date_utc_time_zone", lenient: true },
  title: { type: "string", description: "desc.the_event_title", validate: nonEmptyString },
  description: { type: "string", description: "desc.the_event_description", validate: nonEmptyString },
  excerpt: { type: "string", description: "desc.the_event_excerpt", validate: nonEmptyString },
  status: { type: "string", description: "desc.the_event_post_status", validate: postStatus },
  timezone: { type: "string", description: "desc.the_event_time_zone" },
  all_day: { default: false, type: "boolean", description: "desc.whether_the_event_lasts_the_whole_day_or_not" },
  start_date: { type: "string", description: "desc.the_event_start_date_and_time", lenient: true },
  end_date: { type: "string", description: "desc.the_event_end_date_and_time", lenient: true },
  image: { type: "string", description: "desc.the_event_featured_image_id_or_url", lenient: true },
  cost: { description: "desc.the_event_cost", accept: 'any' },
  website: { default: null, description: "desc.the_event_website_url", validate: urlOrEmpty },
  show_map: { type: "boolean", description: "desc.whether_the_event_should_show_a_map_or_not" },
  show_map_link: { type: "boolean", description: "desc.whether_the_event_should_show_a_map_link_or_not" },
  hide_from_listings: { type: "boolean", description: "desc.whether_events_should_be_hidden_in_the_calendar_view_or_not" },
  sticky: { type: "boolean", description: "desc.whether_the_event_should_be_sticky_in_the_calendar_v_5b2f49" },
  featured: { type: "boolean", description: "desc.whether_the_event_should_be_featured_on_the_site_or_not" },
  categories: { default: null, items: {"type": "integer"}, description: "desc.the_event_category_id_or_name" },
  tags: { default: null, items: {"type": "integer"}, description: "desc.the_event_tag_id_or_name" },
  venue: { default: null, items: {"type": "integer"}, description: "desc.the_event_venue_ids_or_data", accept: 'any' },
  organizer: { default: null, items: {"type": "integer"}, description: "desc.the_event_organizer_ids_or_data", accept: 'any' },
  password: { type: 'string', lenient: true, hidden: true },
};
