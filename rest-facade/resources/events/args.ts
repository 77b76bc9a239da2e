/**
 * Argument tables of the `/events` routes. Create and both updates take the same fields; a
 * create requires title and dates. Arguments with a non-null `default` (e.g. `all_day: false`)
 * always have a value: `req.sent(name)` tells whether the client sent them.
 */
import { defaultWindow } from '../../../src/domain/date-window.ts';
import type { ArgEnv, ArgMap } from '../../wp/types.ts';
import { withArgs } from '../../wp/route.ts';
import { dateText, eachPositiveInt, nonEmptyString, pageArg, passwordArg, perPageArg, postStatus, STATUS_LIST_SCHEMA, TERM_REFS_SCHEMA, urlOrEmpty } from '../args.ts';
import { WIRE_NUMBER, WIRE_POSITIVE_INTEGER } from '../../wp/schema.ts';

/** Coordinates: any text reads (what is not a number reads as 0, as PHP's float cast does). */
const LENIENT_NUMBER = { anyOf: [...(WIRE_NUMBER.anyOf as object[]), { type: 'string' }] };
import { linkedRefsSchema } from '../linked-posts/args.ts';
import { venueArgs } from '../venues/args.ts';
import { organizerArgs } from '../organizers/args.ts';
import type { PostArgTables } from '../endpoint.ts';

const siteDefaults = (env: ArgEnv) => defaultWindow({ now: env.now, siteTimezone: env.settings.siteTimezone });

/**
 * `start_date` default (§5.5): today's UTC midnight minus one minute, in site time
 * (`"2026-11-20 18:59:00"` in New York on 2026-11-21), as the core computes it.
 */
export const eventsStartDateDefault = (env: ArgEnv): string => siteDefaults(env).startDateRaw;

/** `end_date` default (§5.5): now + 24 months as a UTC wall-clock string. */
export const eventsEndDateDefault = (env: ArgEnv): string => siteDefaults(env).endDateRaw;

/** `GET /events` */
export const eventsListArgs: ArgMap = {
  page: pageArg,
  per_page: perPageArg('desc.the_number_of_events_to_return_on_each_page'),
  start_date: { default: eventsStartDateDefault, description: "desc.events_that_start_on_the_specified_date" },
  end_date: { default: eventsEndDateDefault, description: "desc.events_that_end_on_the_specified_date" },
  starts_before: { description: "desc.events_that_start_before_the_specified_date" },
  starts_after: { description: "desc.events_that_start_after_the_specified_date" },
  ends_before: { description: "desc.events_that_end_before_the_specified_date" },
  ends_after: { description: "desc.events_that_end_after_the_specified_date" },
  strict_dates: { default: "false", description: "desc.dates_set_using_the_start_date_end_date_starts_ends_83fd1a", validate: nonEmptyString },
  search: { description: "desc.events_should_contain_the_specified_string_in_the_ti_6a1f0f", type: "string", validate: nonEmptyString },
  categories: { description: "desc.events_should_be_assigned_one_of_the_specified_categ_ade2ce", items: {"type": "integer"}, schema: TERM_REFS_SCHEMA },
  tags: { description: "desc.events_should_be_assigned_one_of_the_specified_tags_209250", items: {"type": "integer"}, schema: TERM_REFS_SCHEMA },
  venue: { description: "desc.events_should_be_assigned_one_of_the_specified_venue_ids", items: {"type": "integer"}, schema: eachPositiveInt.schema },
  organizer: { description: "desc.events_should_be_assigned_one_of_the_specified_organizer_ids", items: {"type": "integer"}, schema: eachPositiveInt.schema },
  featured: { type: "boolean", description: "desc.events_should_be_filtered_by_their_featured_status" },
  status: { format: "string", description: "desc.the_event_post_status", accept: 'list', schema: STATUS_LIST_SCHEMA },
  geoloc: { type: "boolean", description: "desc.requires_events_calendar_pro_events_should_be_filter_fe27f3" },
  geoloc_lat: { format: "double", description: "desc.requires_events_calendar_pro_events_should_be_filter_e55b59", schema: LENIENT_NUMBER },
  geoloc_lng: { format: "double", description: "desc.requires_events_calendar_pro_events_should_be_filter_63178a", schema: LENIENT_NUMBER },
  include: { description: "desc.include_events_with_one_of_the_post_ids_specified_in_0922a2", items: {"type": "integer"}, validate: eachPositiveInt },
  post_parent: { type: "integer", description: "desc.events_should_be_filtered_by_their_post_parent_being_37118b", schema: WIRE_POSITIVE_INTEGER },
  ticketed: { type: "boolean", description: "desc.filter_events_with_or_without_tickets" },
  password: passwordArg,
};

/** The fields of `POST /events` and of both updates, in the index's order. */
const eventFields: ArgMap = {
  author: { type: "integer", description: "desc.the_event_author_id", schema: WIRE_POSITIVE_INTEGER },
  date: { type: "string", description: "desc.the_event_publication_date", lenient: true, validate: dateText },
  date_utc: { type: "string", description: "desc.the_event_publication_date_utc_time_zone", lenient: true, validate: dateText },
  title: { type: "string", description: "desc.the_event_title", validate: nonEmptyString },
  description: { type: "string", description: "desc.the_event_description", validate: nonEmptyString },
  slug: { type: "string", description: "desc.the_event_slug", validate: nonEmptyString },
  excerpt: { type: "string", description: "desc.the_event_excerpt", validate: nonEmptyString },
  status: { type: "string", description: "desc.the_event_post_status", validate: postStatus },
  timezone: { type: "string", description: "desc.the_event_time_zone" },
  all_day: { default: false, type: "boolean", description: "desc.whether_the_event_lasts_the_whole_day_or_not" },
  start_date: { type: "string", description: "desc.the_event_start_date_and_time", lenient: true, validate: dateText },
  end_date: { type: "string", description: "desc.the_event_end_date_and_time", lenient: true, validate: dateText },
  image: { type: "string", description: "desc.the_event_featured_image_id_or_url", lenient: true },
  cost: { description: "desc.the_event_cost", accept: 'any', schema: { anyOf: [{ type: ['string', 'number', 'boolean'] }, { type: 'array', items: { type: ['string', 'number', 'boolean', 'null'] } }] } },
  website: { default: null, description: "desc.the_event_website_url", validate: urlOrEmpty },
  show_map: { type: "boolean", description: "desc.whether_the_event_should_show_a_map_or_not" },
  show_map_link: { type: "boolean", description: "desc.whether_the_event_should_show_a_map_link_or_not" },
  hide_from_listings: { type: "boolean", description: "desc.whether_events_should_be_hidden_in_the_calendar_view_or_not" },
  sticky: { type: "boolean", description: "desc.whether_the_event_should_be_sticky_in_the_calendar_v_5b2f49" },
  featured: { type: "boolean", description: "desc.whether_the_event_should_be_featured_on_the_site_or_not" },
  categories: { default: null, items: {"type": "integer"}, description: "desc.the_event_category_id_or_name", schema: TERM_REFS_SCHEMA },
  tags: { default: null, items: {"type": "integer"}, description: "desc.the_event_tag_id_or_name", schema: TERM_REFS_SCHEMA },
  venue: { default: null, items: {"type": "integer"}, description: "desc.the_event_venue_ids_or_data", accept: 'any', schema: linkedRefsSchema(venueArgs.create) },
  organizer: { default: null, items: {"type": "integer"}, description: "desc.the_event_organizer_ids_or_data", accept: 'any', schema: linkedRefsSchema(organizerArgs.create) },
};

const byId: ArgMap = { id: { type: 'integer', description: 'desc.the_event_post_id', required: true }, password: passwordArg };
const bySlug: ArgMap = { slug: { type: 'string', description: 'desc.the_event_post_name', required: true }, password: passwordArg };

export const eventArgs: PostArgTables = {
  list: eventsListArgs,
  create: withArgs(eventFields, { title: { required: true }, start_date: { required: true }, end_date: { required: true } }),
  get: byId,
  delete: byId,
  update: { id: byId.id!, ...eventFields, password: passwordArg },
  getBySlug: bySlug,
  deleteBySlug: bySlug,
  // The path's slug names the event: the by-slug update lists `slug` first (a body `slug` renames).
  updateBySlug: { slug: eventFields.slug!, ...eventFields, password: passwordArg },
};
