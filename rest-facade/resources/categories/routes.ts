/** The `/categories` routes: categories share their handlers with tags (terms/handlers.ts). */
import { termHandlers } from '../terms/handlers.ts';
import { termRoutes } from '../route-shapes.ts';
import { categoryArgs } from './args.ts';

export const categoryRoutes = termRoutes('/categories', categoryArgs);
export const categoryHandlers = termHandlers('category');
