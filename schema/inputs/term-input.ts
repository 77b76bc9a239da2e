import type { TermFilter, TermInput } from '../../src/services/terms.ts';
import { builder } from '../builder.ts';
import { optionalRecordId, recordIds, type NodeTypeName } from '../ids.ts';

export const TermFilterInput = builder.inputType('TermFilter', {
  description: 'Filters of the category and tag lists (contract §5.7).',
  fields: (t) => ({
    search: t.string({ description: 'Substring of name or slug.' }),
    include: t.idList({ description: 'Only these terms.' }),
    exclude: t.idList({ description: 'Not these terms.' }),
    order: t.string({ description: 'asc (default) or desc.' }),
    orderby: t.string({ description: 'name (default), id, slug, count, description.' }),
    hideEmpty: t.boolean({ description: 'Hide terms no published event uses (default true).' }),
    parent: t.id({ description: 'Direct children of this category.' }),
    event: t.id({ description: 'Terms of this event.' }),
    slug: t.string(),
  }),
});

export const CreateTermInput = builder.inputType('CreateTermInput', {
  fields: (t) => ({
    name: t.string({ required: true }),
    slug: t.string(),
    description: t.string(),
    parentId: t.id({ description: 'Categories only: the parent category (global ID, or database ID).' }),
  }),
});

export const UpdateTermInput = builder.inputType('UpdateTermInput', {
  fields: (t) => ({
    name: t.string(),
    slug: t.string(),
    description: t.string(),
    parentId: t.id({ description: 'Categories only: the parent category (global ID, or database ID); 0 moves to the top level.' }),
  }),
});

/** The service's filter: every term and event it names as a database ID. */
export function toTermFilter(input: typeof TermFilterInput.$inferInput | null | undefined, type: NodeTypeName): TermFilter {
  if (!input) return {};
  return {
    ...input,
    include: recordIds(input.include, [type], 'include'),
    exclude: recordIds(input.exclude, [type], 'exclude'),
    parent: optionalRecordId(input.parent, ['EventCategory'], 'parent'),
    event: optionalRecordId(input.event, ['Event'], 'event'),
  };
}

/** The service's input: the parent as a database ID (0: none). */
export function toTermInput(input: typeof CreateTermInput.$inferInput | typeof UpdateTermInput.$inferInput): TermInput {
  return { ...input, parentId: optionalRecordId(input.parentId, ['EventCategory'], 'parentId', { zero: true }) };
}
