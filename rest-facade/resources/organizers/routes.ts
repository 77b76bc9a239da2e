/** The `/organizers` routes: organizers share their handlers with venues (linked-posts/handlers.ts). */
import { CreateOrganizerDocument, DeleteOrganizerDocument, UpdateOrganizerDocument, OrganizerByIdDocument, OrganizersArchiveDocument } from '../../generated/operations.ts';
import { linkedPostHandlers } from '../linked-posts/handlers.ts';
import { postRoutes } from '../route-shapes.ts';
import { organizerArgs } from './args.ts';
import { presentOrganizer } from './presenter.ts';

export const organizerRoutes = postRoutes('/organizers', organizerArgs);
export const organizerHandlers = linkedPostHandlers(
  'organizer',
  { list: OrganizersArchiveDocument, byId: OrganizerByIdDocument, create: CreateOrganizerDocument, update: UpdateOrganizerDocument, remove: DeleteOrganizerDocument },
  presentOrganizer,
);
