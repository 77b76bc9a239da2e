/** Venue representation (§4.3). */
import { venueJsonLd } from '../../presenters/json-ld.ts';
import type { RestVenueFragment } from '../../generated/operations.ts';
import { siteRoot, type JsonObject, type RestUrls } from '../../presenters/util.ts';
import { presentLinkedPost, type LinkedPostPresentOptions } from '../linked-posts/presenter.ts';

/**
 * §4.3 venue: the map flags are always present, `geo_lat`/`geo_lng` only with coordinates,
 * `json_ld` when asked and not locked.
 */
export function presentVenue(node: RestVenueFragment, urls: RestUrls, opts: LinkedPostPresentOptions = {}): JsonObject {
  return presentLinkedPost(node, urls, opts, {
    type: 'cal_venue',
    keep: ['show_map', 'show_map_link'],
    members: (withJsonLd) => [
      ['address', node.address],
      ['city', node.city],
      ['country', node.country],
      ['province', node.province],
      ['state', node.state],
      ['zip', node.zip],
      ['phone', node.phone],
      ['website', node.website],
      ['stateprovince', node.stateprovince],
      ['geo_lat', node.latitude ?? null],
      ['geo_lng', node.longitude ?? null],
      ['json_ld', withJsonLd ? venueJsonLd(node, siteRoot(urls)) : null],
      ['show_map', node.showMap],
      ['show_map_link', node.showMapLink],
    ],
  });
}
