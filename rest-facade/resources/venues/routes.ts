/** The `/venues` routes: venues share their handlers with organizers (linked-posts/handlers.ts). */
import { CreateVenueDocument, DeleteVenueDocument, UpdateVenueDocument, VenueByIdDocument, VenuesArchiveDocument } from '../../generated/operations.ts';
import { linkedPostHandlers } from '../linked-posts/handlers.ts';
import { postRoutes } from '../route-shapes.ts';
import { venueArgs } from './args.ts';
import { presentVenue } from './presenter.ts';

export const venueRoutes = postRoutes('/venues', venueArgs);
export const venueHandlers = linkedPostHandlers(
  'venue',
  { list: VenuesArchiveDocument, byId: VenueByIdDocument, create: CreateVenueDocument, update: UpdateVenueDocument, remove: DeleteVenueDocument },
  presentVenue,
);
