/**
 * Geofence of the `geoloc` filter (contract §5.4): a latitude/longitude box around a point.
 */

/** Earth radius used by the plugin, in km. */
export const EARTH_RADIUS_KM = 6371;
/** Default geofence radius: 25 miles in km. */
export const DEFAULT_GEOFENCE_KM = 40.2336;

export interface GeoBox {
  minLat: number;
  maxLat: number;
  minLng: number;
  maxLng: number;
}

const rad2deg = (r: number) => (r * 180) / Math.PI;
const deg2rad = (d: number) => (d * Math.PI) / 180;

/** lat ± rad2deg(d/R), lng ± rad2deg(d/R/cos(lat)). */
export function geofenceBox(lat: number, lng: number, distanceKm: number = DEFAULT_GEOFENCE_KM): GeoBox {
  const dLat = rad2deg(distanceKm / EARTH_RADIUS_KM);
  const dLng = rad2deg(distanceKm / EARTH_RADIUS_KM / Math.cos(deg2rad(lat)));
  return { minLat: lat - dLat, maxLat: lat + dLat, minLng: lng - dLng, maxLng: lng + dLng };
}
