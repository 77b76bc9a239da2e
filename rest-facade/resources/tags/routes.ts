/** The `/tags` routes: tags share their handlers with categories (terms/handlers.ts). */
import { termHandlers } from '../terms/handlers.ts';
import { termRoutes } from '../route-shapes.ts';
import { tagArgs } from './args.ts';

export const tagRoutes = termRoutes('/tags', tagArgs);
export const tagHandlers = termHandlers('tag');
