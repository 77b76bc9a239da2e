/** The `/organizers` endpoints: those venues and organizers share (linked-posts/endpoints.ts), with the organizer's operations, arguments and presenter. */
import { CreateOrganizerDocument, DeleteOrganizerDocument, UpdateOrganizerDocument, OrganizerByIdDocument, OrganizersArchiveDocument } from '../../generated/operations.ts';
import { linkedPostEndpoints } from '../linked-posts/endpoints.ts';
import { organizerArgs } from './args.ts';
import { presentOrganizer } from './presenter.ts';

export const organizerEndpoints = linkedPostEndpoints({
  kind: 'organizer',
  path: '/organizers',
  args: organizerArgs,
  operations: { list: OrganizersArchiveDocument, byId: OrganizerByIdDocument, create: CreateOrganizerDocument, update: UpdateOrganizerDocument, remove: DeleteOrganizerDocument },
  present: presentOrganizer,
});
