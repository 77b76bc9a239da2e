/** Argument tables of the `/categories` routes (shared with tags but for `parent`, see terms/args.ts). */
import { termArgs } from '../terms/args.ts';

export const categoryArgs = termArgs('category', 'desc.the_number_of_event_categories_to_return_on_each_page');
