/** The `/tags` endpoints: those categories and tags share (terms/endpoints.ts), with the tag's operations and arguments. */
import { CreateEventTagDocument, DeleteEventTagDocument, EventTagByIdDocument, EventTagListDocument, UpdateEventTagDocument } from '../../generated/operations.ts';
import { termEndpoints } from '../terms/endpoints.ts';
import { tagArgs } from './args.ts';

export const tagEndpoints = termEndpoints({
  taxonomy: 'tag',
  path: '/tags',
  args: tagArgs,
  operations: { list: EventTagListDocument, byId: EventTagByIdDocument, create: CreateEventTagDocument, update: UpdateEventTagDocument, remove: DeleteEventTagDocument },
});
