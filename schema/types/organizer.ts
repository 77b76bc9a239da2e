import { readableWhere } from '../../src/services/visibility.ts';
import { builder } from '../builder.ts';
import { CreateOrganizerInput, UpdateOrganizerInput } from '../inputs/linked-post-input.ts';
import { ImageRef } from './common.ts';
import { defineLinkedPostOperations } from './linked-post-operations.ts';
import { LinkedPostInterface, PostInterface } from './post-fields.ts';

export const OrganizerRef = builder.prismaNode('Organizer', {
  description: 'A person or organisation running events.',
  id: { field: 'id' },
  interfaces: [PostInterface, LinkedPostInterface],
  findUnique: (id, ctx) => ({ id: Number(id), ...readableWhere(ctx) }),
  fields: (t) => ({
    email: t.exposeString('email'),
    image: t.relation('image', { nullable: true, type: ImageRef }),
  }),
});

defineLinkedPostOperations({
  kind: 'ORGANIZER',
  model: 'Organizer',
  ref: OrganizerRef,
  single: 'organizer',
  plural: 'organizers',
  createInput: CreateOrganizerInput,
  updateInput: UpdateOrganizerInput,
});
