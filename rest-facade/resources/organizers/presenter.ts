/** Organizer representation (§4.4). */
import { organizerJsonLd } from '../../presenters/json-ld.ts';
import type { RestOrganizerFragment } from '../../generated/operations.ts';
import { siteRoot, type JsonObject, type RestUrls } from '../../presenters/util.ts';
import { presentLinkedPost, type LinkedPostPresentOptions } from '../linked-posts/presenter.ts';

/** §4.4 organizer: the venue's omission rule, no map flags. */
export function presentOrganizer(node: RestOrganizerFragment, urls: RestUrls, opts: LinkedPostPresentOptions = {}): JsonObject {
  return presentLinkedPost(node, urls, opts, {
    type: 'cal_organizer',
    members: (withJsonLd) => [
      ['phone', node.phone],
      ['website', node.website],
      ['email', node.email],
      ['json_ld', withJsonLd ? organizerJsonLd(node, siteRoot(urls)) : null],
    ],
  });
}
