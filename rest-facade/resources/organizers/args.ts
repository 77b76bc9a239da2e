/** Argument tables of the `/organizers` routes: the organizer's fields, the rest shared with venues. */
import { dateText, imageOrEmpty, nonEmptyString, postStatus, urlOrEmpty } from '../args.ts';
import { linkedPostArgs } from '../linked-posts/args.ts';

export const organizerArgs = linkedPostArgs('organizer', {
  author: { type: "integer", default: null, description: "desc.the_organizer_author_id" },
  date: { type: "string", default: null, description: "desc.the_organizer_publication_date", lenient: true, validate: dateText },
  date_utc: { type: "string", default: null, description: "desc.the_organizer_publication_date_utc_time_zone", lenient: true, validate: dateText },
  organizer: { type: "string", default: null, description: "desc.the_organizer_name", validate: nonEmptyString },
  description: { type: "string", default: null, description: "desc.the_organizer_description" },
  status: { type: "string", default: null, description: "desc.the_organizer_post_status", validate: postStatus },
  phone: { type: "string", default: null, description: "desc.the_organizer_phone_number" },
  website: { type: "string", default: null, description: "desc.the_organizer_website", validate: urlOrEmpty },
  email: { type: "string", default: null, description: "desc.the_organizer_e_mail_address" },
  image: { type: "string", default: null, description: "desc.the_organizer_featured_image_id_or_url", lenient: true, validate: imageOrEmpty },
}, {
  perPage: 'desc.the_number_of_organizers_to_return_on_each_page',
  search: 'desc.organizers_should_contain_the_specified_string_in_th_ada141',
  event: 'desc.organizers_should_be_related_to_this_event',
  hasEvents: 'desc.organizers_should_have_events_associated_to_them',
  onlyWithUpcoming: 'desc.organizers_should_have_upcoming_events_associated_to_them',
  postId: 'desc.the_organizer_post_id',
  postName: 'desc.the_organizer_post_name',
});
