/** Organizer representation (§4.4). */
import { organizerJsonLd } from '../../presenters/json-ld.ts';
import type { RestOrganizerFragment } from '../../generated/operations.ts';
import { siteRoot, type JsonObject, type RestUrls } from '../../presenters/util.ts';
import { presentLinkedPost, type LinkedPostPresentOptions, type LinkedPostShape } from '../linked-posts/presenter.ts';

/** The members only an organizer has. */
const ORGANIZER: LinkedPostShape<RestOrganizerFragment> = {
  type: 'cal_organizer',
  members: (put, node, urls, withJsonLd) => {
    put('phone', node.phone);
    put('website', node.website);
    put('email', node.email);
    put('json_ld', withJsonLd ? organizerJsonLd(node, siteRoot(urls)) : null);
  },
};

/** §4.4 organizer: the venue's omission rule, no map flags. */
export function presentOrganizer(node: RestOrganizerFragment, urls: RestUrls, opts: LinkedPostPresentOptions = {}): JsonObject {
  return presentLinkedPost(node, urls, opts, ORGANIZER);
}
