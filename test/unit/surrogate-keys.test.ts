import { describe, expect, it } from 'vitest';
import { changeKeys, SurrogateKeys } from '../../src/domain/surrogate-keys.ts';

describe('surrogate keys (src/domain/surrogate-keys.ts)', () => {
  it('names records and list families, each once', () => {
    const request = new SurrogateKeys();
    expect(request.empty).toBe(true);
    request.record('Event', 12);
    request.record('Venue', 7);
    request.family('Event');
    request.record('EventTag', 5);
    request.record('Event', 12);
    expect(request.empty).toBe(false);
    expect(request.header().split(' ').sort()).toEqual(['event-12', 'events-list', 'tag-5', 'venue-7']);
  });

  it('stays under the size bound: the kind with the most records gives way to its family', () => {
    const keys = new SurrogateKeys();
    for (let id = 1; id <= 500; id++) keys.record('Event', 100_000 + id);
    keys.record('Venue', 7);
    const header = keys.header(1_000);
    expect(header.length).toBeLessThanOrEqual(1_000);
    expect(header.split(' ').sort()).toEqual(['events-list', 'venue-7']);
  });

  it('a change affects its record and its family; accounts affect none', () => {
    expect(changeKeys({ kind: 'VENUE', id: 7 })).toEqual(['venue-7', 'venues-list']);
    expect(changeKeys({ kind: 'EVENT_CATEGORY', id: 4 })).toEqual(['category-4', 'categories-list']);
    expect(changeKeys({ kind: 'USER', id: 1 })).toEqual([]);
  });
});
