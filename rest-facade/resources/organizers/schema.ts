/** The JSON Schema of presenter.ts's organizer. */
import { linkedPostSchema } from '../linked-posts/schema.ts';

const text = { type: 'string' };

export const ORGANIZER_SCHEMA = linkedPostSchema('organizer', { phone: text, website: text, email: text });
