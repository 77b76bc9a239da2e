import { describe, expect, it } from 'vitest';
import { geofenceBox } from '../../src/domain/geo.ts';

describe('geofenceBox', () => {
  it('spans ±25 miles around the point', () => {
    const box = geofenceBox(40.7128, -74.006);
    const dLat = (40.2336 / 6371) * (180 / Math.PI);
    expect(box.minLat).toBeCloseTo(40.7128 - dLat, 10);
    expect(box.maxLat).toBeCloseTo(40.7128 + dLat, 10);
    expect(dLat).toBeCloseTo(0.36183, 4);
    const dLng = dLat / Math.cos((40.7128 * Math.PI) / 180);
    expect(box.minLng).toBeCloseTo(-74.006 - dLng, 10);
    expect(box.maxLng).toBeCloseTo(-74.006 + dLng, 10);
  });

  it('accepts another distance', () => {
    const box = geofenceBox(0, 0, 111.19492664455873);
    expect(box.maxLat).toBeCloseTo(1, 6);
    expect(box.maxLng).toBeCloseTo(1, 6);
  });
});
