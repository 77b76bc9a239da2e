import { builder } from './builder.ts';
import { tagSurrogateKeys } from './surrogate-keys.ts';
import { shareResponsePaths } from './shared-paths.ts';
import './errors.ts';
import './types/common.ts';
import './types/user.ts';
import './types/event-category.ts';
import './types/event-tag.ts';
import './types/venue.ts';
import './types/organizer.ts';
import './types/event.ts';
import './types/calendar.ts';
import './types/changes.ts';
import './types/recurrence.ts';
import './types/webhooks.ts';
import './types/node.ts';

/**
 * Resolvers name the records they return (surrogate keys of cacheable responses: schema/surrogate-keys.ts),
 * and find their parent's plan under compiled execution too (schema/shared-paths.ts).
 */
export const schema = shareResponsePaths(tagSurrogateKeys(builder.toSchema({ sortSchema: false })));
