import { builder } from '../builder.ts';

export const TermFilterInput = builder.inputType('TermFilter', {
  description: 'Filters of the category and tag lists (contract §5.7).',
  fields: (t) => ({
    search: t.string({ description: 'Substring of name or slug.' }),
    include: t.intList(),
    exclude: t.intList(),
    order: t.string({ description: 'asc (default) or desc.' }),
    orderby: t.string({ description: 'name (default), id, slug, count, description.' }),
    hideEmpty: t.boolean({ description: 'Hide terms no published event uses (default true).' }),
    parent: t.int({ description: 'Direct children of this category.' }),
    event: t.int({ description: 'Terms of this event.' }),
    slug: t.string(),
  }),
});

export const CreateTermInput = builder.inputType('CreateTermInput', {
  fields: (t) => ({
    name: t.string({ required: true }),
    slug: t.string(),
    description: t.string(),
    parentId: t.int({ description: 'Categories only.' }),
  }),
});

export const UpdateTermInput = builder.inputType('UpdateTermInput', {
  fields: (t) => ({
    name: t.string(),
    slug: t.string(),
    description: t.string(),
    parentId: t.int({ description: 'Categories only; 0 moves to the top level.' }),
  }),
});
