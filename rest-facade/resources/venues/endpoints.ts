/** The `/venues` endpoints: those venues and organizers share (linked-posts/endpoints.ts), with the venue's operations, arguments and presenter. */
import { CreateVenueDocument, DeleteVenueDocument, UpdateVenueDocument, VenueByIdDocument, VenuesArchiveDocument } from '../../generated/operations.ts';
import { linkedPostEndpoints } from '../linked-posts/endpoints.ts';
import { venueArgs } from './args.ts';
import { presentVenue } from './presenter.ts';

export const venueEndpoints = linkedPostEndpoints({
  kind: 'venue',
  path: '/venues',
  args: venueArgs,
  operations: { list: VenuesArchiveDocument, byId: VenueByIdDocument, create: CreateVenueDocument, update: UpdateVenueDocument, remove: DeleteVenueDocument },
  present: presentVenue,
});
