/** The `/categories` endpoints: those categories and tags share (terms/endpoints.ts), with the category's operations and arguments. */
import {
  CreateEventCategoryDocument,
  DeleteEventCategoryDocument,
  EventCategoryByIdDocument,
  EventCategoryListDocument,
  UpdateEventCategoryDocument,
} from '../../generated/operations.ts';
import { termEndpoints } from '../terms/endpoints.ts';
import { categoryArgs } from './args.ts';

export const categoryEndpoints = termEndpoints({
  taxonomy: 'category',
  path: '/categories',
  args: categoryArgs,
  operations: {
    list: EventCategoryListDocument,
    byId: EventCategoryByIdDocument,
    create: CreateEventCategoryDocument,
    update: UpdateEventCategoryDocument,
    remove: DeleteEventCategoryDocument,
  },
});
