import { builder } from '../builder.ts';
import { CreateOrganizerInput, UpdateOrganizerInput } from '../inputs/linked-post-input.ts';
import { ImageRef } from './common.ts';
import { defineLinkedPostOperations } from './linked-post-operations.ts';
import { linkedPostNodeOptions } from './post-fields.ts';

export const OrganizerRef = builder.prismaNode('Organizer', {
  description: 'A person or organisation running events.',
  ...linkedPostNodeOptions,
  fields: (t) => ({
    email: t.exposeString('email'),
    image: t.relation('image', { nullable: true, type: ImageRef }),
  }),
});

/** The edge of a organizer in the default list (for change payloads). */
export const organizerEdges = defineLinkedPostOperations({
  kind: 'ORGANIZER',
  model: 'Organizer',
  ref: OrganizerRef,
  single: 'organizer',
  plural: 'organizers',
  createInput: CreateOrganizerInput,
  updateInput: UpdateOrganizerInput,
});
