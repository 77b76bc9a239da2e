/** Argument tables of the `/tags` routes (shared with categories, see terms/args.ts). */
import { termArgs } from '../terms/args.ts';

export const tagArgs = termArgs('tag', 'desc.the_number_of_event_tags_to_return_on_each_page');
