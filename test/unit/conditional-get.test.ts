import { describe, expect, it } from 'vitest';
import { notModified } from '../../src/domain/conditional-get.ts';

/** A request with these header fields (names matched case-insensitively, absent ones empty, as Koa's `ctx.get`). */
const request = (fields: Record<string, string>) => ({
  get: (field: string) => Object.entries(fields).find(([name]) => name.toLowerCase() === field.toLowerCase())?.[1] ?? '',
});

const LAST_MODIFIED = 'Sat, 21 Nov 2026 12:12:40 GMT';

describe('notModified: is the client copy current (RFC 9110 §13.1.1, §13.1.3)', () => {
  it('compares entity tags weakly, strong or weak on either side, in a list, and `*`', () => {
    for (const etag of ['"abc"', 'W/"abc"']) {
      expect(notModified(request({ 'If-None-Match': '"abc"' }), etag, null)).toBe(true);
      expect(notModified(request({ 'If-None-Match': 'W/"abc"' }), etag, null)).toBe(true);
      expect(notModified(request({ 'if-none-match': '"x", W/"abc" ,"y"' }), etag, null)).toBe(true);
      expect(notModified(request({ 'If-None-Match': ' * ' }), etag, null)).toBe(true);
      expect(notModified(request({ 'If-None-Match': '"abcd", "ab"' }), etag, null)).toBe(false);
      expect(notModified(request({ 'If-None-Match': 'abc' }), etag, null)).toBe(false);
    }
  });

  it('uses If-Modified-Since only without If-None-Match, and only against a Last-Modified', () => {
    expect(notModified(request({ 'If-Modified-Since': LAST_MODIFIED }), '"e"', LAST_MODIFIED)).toBe(true);
    expect(notModified(request({ 'If-Modified-Since': 'Sat, 21 Nov 2026 12:12:41 GMT' }), '"e"', LAST_MODIFIED)).toBe(true);
    expect(notModified(request({ 'If-Modified-Since': 'Sat, 21 Nov 2026 12:12:39 GMT' }), '"e"', LAST_MODIFIED)).toBe(false);
    expect(notModified(request({ 'If-Modified-Since': 'not a date' }), '"e"', LAST_MODIFIED)).toBe(false);
    expect(notModified(request({ 'If-Modified-Since': LAST_MODIFIED }), '"e"', null)).toBe(false);
    // An entity tag that does not match wins over a date that would.
    expect(notModified(request({ 'If-None-Match': '"other"', 'If-Modified-Since': LAST_MODIFIED }), '"e"', LAST_MODIFIED)).toBe(false);
    expect(notModified(request({}), '"e"', LAST_MODIFIED)).toBe(false);
  });
});
