import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseJsonBody } from '../../rest-facade/wp/body.ts';
import { coerceBoolean, coerceInteger, coerceString, isTruthy, parseList } from '../../rest-facade/wp/coerce.ts';
import { InvalidValue, parseQueryString } from '../../rest-facade/wp/query-string.ts';
import { filterFields, encodeJson, isValidJsonpCallback } from '../../rest-facade/wp/response.ts';
import { withArgs, expandPattern } from '../../rest-facade/wp/route.ts';
import { eventsEndDateDefault, eventsListArgs, eventsStartDateDefault } from '../../rest-facade/resources/events/args.ts';
import { DEFAULT_SETTINGS } from '../../rest-facade/wp/types.ts';

describe('query parsing (PHP parse_str)', () => {
  it('scalars, +, arrays, keyed arrays, later duplicates win', () => {
    expect(parseQueryString('a=1&b=x+y&c[]=1&c[]=2&d[k]=v&a=2&e')).toEqual({ a: '2', b: 'x y', c: ['1', '2'], d: { k: 'v' }, e: '' });
    expect(parseQueryString('x[a][]=1&x[a][]=2')).toEqual({ x: { a: ['1', '2'] } });
  });
  it('invalid UTF-8 values are marked, invalid keys dropped', () => {
    const q = parseQueryString('a=%FF&%FE=1&b=%C3%A9');
    expect(q.a).toBeInstanceOf(InvalidValue);
    expect(q.b).toBe('é');
    expect(Object.keys(q)).toEqual(['a', 'b']);
  });
});

describe('coercion (§1.4)', () => {
  it('integer', () => {
    expect(coerceInteger('12')).toEqual({ ok: true, value: 12 });
    expect(coerceInteger('12.0')).toEqual({ ok: true, value: 12 });
    expect(coerceInteger(7)).toEqual({ ok: true, value: 7 });
    for (const bad of ['12.5', 'abc', '', true, null, [1], '1e400', '99999999999999999999']) expect(coerceInteger(bad).ok, String(bad)).toBe(false);
  });
  it('boolean', () => {
    for (const v of [true, 1, '1', 'true', 'TRUE', 'True']) expect(coerceBoolean(v)).toEqual({ ok: true, value: true });
    for (const v of [false, 0, '0', 'false', 'FALSE']) expect(coerceBoolean(v)).toEqual({ ok: true, value: false });
    for (const v of ['yes', 'no', 'on', '', 2, null]) expect(coerceBoolean(v).ok, String(v)).toBe(false);
  });
  it('string (lenient accepts numbers)', () => {
    expect(coerceString(5).ok).toBe(false);
    expect(coerceString(true, true).ok).toBe(false);
    expect(coerceString(5, true)).toEqual({ ok: true, value: '5' });
  });
  it('truthy', () => {
    for (const v of [true, 1, '1', 'true', 'YES', 'y', 'on', 'Enable', 'enabled']) expect(isTruthy(v), String(v)).toBe(true);
    for (const v of [false, 0, '0', 'false', 'no', '', 'off', null, undefined, 2]) expect(isTruthy(v), String(v)).toBe(false);
  });
  it('lists', () => {
    expect(parseList('1, 2,3 ')).toEqual(['1', '2', '3']);
    expect(parseList('a%2Cb')).toEqual(['a', 'b']);
    expect(parseList('')).toEqual([]);
    expect(parseList([1, ' x '])).toEqual([1, 'x']);
    expect(parseList({ a: '1', b: '2' })).toEqual(['1', '2']);
    expect(parseList(4)).toEqual([4]);
  });
});

describe('JSON bodies', () => {
  it('PHP error codes', () => {
    expect(parseJsonBody(Buffer.from('{"a":1}'))).toEqual({ ok: true, value: { a: 1 } });
    expect(parseJsonBody(Buffer.from('{"a":"x'))).toMatchObject({ ok: false, code: 3 });
    expect(parseJsonBody(Buffer.from('{"a":"x\ny"}'))).toMatchObject({ ok: false, code: 3 });
    expect(parseJsonBody(Buffer.from('{"a":}'))).toMatchObject({ ok: false, code: 4, message: 'Syntax error' });
    expect(parseJsonBody(Buffer.from([0x22, 0xc3, 0x22]))).toMatchObject({ ok: false, code: 5 });
    expect(parseJsonBody(Buffer.from('['.repeat(600) + ']'.repeat(600)))).toMatchObject({ ok: false, code: 1 });
  });
});

describe('response helpers', () => {
  it('_fields masks', () => {
    expect(filterFields({ a: 1, b: { c: 2, d: 3 }, e: 4 }, 'a,b.c')).toEqual({ a: 1, b: { c: 2 } });
    expect(filterFields({ a: 1, b: { c: 2 } }, 'b,b.c')).toEqual({ b: { c: 2 } });
    expect(filterFields([{ a: 1, b: 2 }], 'b')).toEqual([{ b: 2 }]);
  });
  it('JSONP callbacks', () => {
    expect(isValidJsonpCallback('a.b_c1')).toBe(true);
    for (const bad of ['', 'a(b)', 'a-b', 'a b', ['x']]) expect(isValidJsonpCallback(bad)).toBe(false);
  });
  it('WordPress-style JSON', () => {
    expect(encodeJson({ u: 'http://x/y', s: '€\u2028' })).toBe('{"u":"http:\\/\\/x\\/y","s":"\\u20ac\\u2028"}');
    expect(encodeJson({ plain: 'abc', emoji: '😀' })).toBe('{"plain":"abc","emoji":"\\ud83d\\ude00"}');
    expect(encodeJson({ n: 12n, big: 2n ** 64n }, true)).toBe('{\n    "n": 12,\n    "big": "18446744073709551616"\n}');
    expect(encodeJson(undefined)).toBe('null');
    // Every width of UTF-8 sequence, DEL, and escapes next to each other and to `/`.
    expect(encodeJson(['é/\u007f😀€/', '\u00ff\u0100\uffff', 'x'])).toBe('["\\u00e9\\/\\u007f\\ud83d\\ude00\\u20ac\\/","\\u00ff\\u0100\\uffff","x"]');
    // A lone surrogate (JSON.stringify escapes it itself) stays as it is.
    expect(encodeJson('a\ud800b')).toBe('"a\\ud800b"');
  });
  it('WordPress-style JSON of any text is the plain escape of every `/` and every unit above U+007E', () => {
    const plain = (v: unknown) =>
      JSON.stringify(v).replace(/[/\u007f-\uffff]/g, (c) => (c === '/' ? '\\/' : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`));
    const unit = fc.constantFrom('a', ' ', '/', '"', '\\', '<', '\u007f', '\u0080', 'é', '\u0301', '\u2019', '\uffff', '\ud83d\ude00', '\ud800');
    fc.assert(
      fc.property(fc.array(fc.string({ unit, maxLength: 80 }), { maxLength: 6 }), (texts) => {
        expect(encodeJson(texts)).toBe(plain(texts));
      }),
      { numRuns: 300 },
    );
    // Past a few thousand runs of non-ASCII text, or of slashes, another path writes the bytes: same text.
    for (const text of ['é/'.repeat(5000), `${'/'.repeat(40_000)}é`, `a${'\u0301'.repeat(20_000)}/`, '/'.repeat(40_000)]) {
      expect(encodeJson({ text })).toBe(plain({ text }));
    }
  });
});

describe('route definitions', () => {
  it('pattern shorthands', () => {
    expect(expandPattern('/events/{id}')).toBe('/events/(?P<id>\\d+)');
    expect(expandPattern('/events/by-slug/{slug}')).toBe('/events/by-slug/(?P<slug>[^/]+)');
  });
  it('withArgs keeps the order', () => {
    const v = () => true;
    const merged = withArgs(eventsListArgs, { categories: { validate: v }, extra: { type: 'string' }, ticketed: null });
    expect(Object.keys(merged)).toEqual([...Object.keys(eventsListArgs).filter((k) => k !== 'ticketed'), 'extra']);
    expect(merged.categories?.validate).toBe(v);
    expect(merged.categories?.description).toBe(eventsListArgs.categories?.description);
  });
  it('event date defaults (§5.5)', () => {
    const env = { settings: DEFAULT_SETTINGS, now: new Date('2026-11-21T11:55:56Z') };
    expect(eventsStartDateDefault(env)).toBe('2026-11-20 18:59:00');
    expect(eventsEndDateDefault(env)).toBe('2028-11-21 11:55:56');
    const paris = { settings: { ...DEFAULT_SETTINGS, siteTimezone: 'Europe/Paris' }, now: new Date('2026-07-01T05:00:00Z') };
    expect(eventsStartDateDefault(paris)).toBe('2026-07-01 01:59:00');
  });
});
