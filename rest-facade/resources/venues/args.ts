/** Argument tables of the `/venues` routes: the venue's fields, the rest shared with organizers. */
import { dateText, imageOrEmpty, nonEmptyString, postStatus, urlOrEmpty } from '../args.ts';
import { linkedPostArgs } from '../linked-posts/args.ts';

export const venueArgs = linkedPostArgs('venue', {
  author: { type: "integer", description: "desc.the_venue_author_id" },
  date: { type: "string", description: "desc.the_venue_publication_date", lenient: true, validate: dateText },
  date_utc: { type: "string", description: "desc.the_venue_publication_date_utc_time_zone", lenient: true, validate: dateText },
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
  image: { type: "string", default: null, description: "desc.the_organizer_featured_image_id_or_url", lenient: true, validate: imageOrEmpty },
}, {
  perPage: 'desc.the_number_of_venues_to_return_on_each_page',
  search: 'desc.venues_should_contain_the_specified_string_in_the_ti_e56774',
  event: 'desc.venues_should_be_related_to_this_event',
  hasEvents: 'desc.venues_should_have_events_associated_to_them',
  onlyWithUpcoming: 'desc.venues_should_have_upcoming_events_associated_to_them',
  postId: 'desc.the_venue_post_id',
  postName: 'desc.the_venue_post_name',
});
