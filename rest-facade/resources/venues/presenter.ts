/** Venue representation (§4.3). */
import { venueJsonLd } from '../../presenters/json-ld.ts';
import type { RestVenueFragment } from '../../generated/operations.ts';
import { siteRoot, type JsonObject, type RestUrls } from '../../presenters/util.ts';
import { presentLinkedPost, type LinkedPostPresentOptions, type LinkedPostShape } from '../linked-posts/presenter.ts';

/** The members only a venue has; the map flags are kept even when false. */
const VENUE: LinkedPostShape<RestVenueFragment> = {
  type: 'cal_venue',
  members: (put, node, urls, withJsonLd) => {
    put('address', node.address);
    put('city', node.city);
    put('country', node.country);
    put('province', node.province);
    put('state', node.state);
    put('zip', node.zip);
    put('phone', node.phone);
    put('website', node.website);
    put('stateprovince', node.stateprovince);
    put('geo_lat', node.latitude ?? null);
    put('geo_lng', node.longitude ?? null);
    put('json_ld', withJsonLd ? venueJsonLd(node, siteRoot(urls)) : null);
    put('show_map', node.showMap, true);
    put('show_map_link', node.showMapLink, true);
  },
};

/**
 * §4.3 venue: the map flags are always present, `geo_lat`/`geo_lng` only with coordinates,
 * `json_ld` when asked and not locked.
 */
export function presentVenue(node: RestVenueFragment, urls: RestUrls, opts: LinkedPostPresentOptions = {}): JsonObject {
  return presentLinkedPost(node, urls, opts, VENUE);
}
