/** The `/venues` routes: venues share their handlers with organizers (linked-posts/handlers.ts). */
import { linkedPostHandlers } from '../linked-posts/handlers.ts';
import { postRoutes } from '../route-shapes.ts';
import { venueArgs } from './args.ts';
import { presentVenue } from './presenter.ts';

export const venueRoutes = postRoutes('/venues', venueArgs);
export const venueHandlers = linkedPostHandlers('venue', presentVenue);
