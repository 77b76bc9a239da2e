import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { catalogs, getT, placeholders } from '../../rest-facade/wp/i18n.ts';
import { ERROR_CODES } from '../../rest-facade/wp/errors.ts';
import { LANGS } from '../../rest-facade/wp/types.ts';
import { RESOURCE_ENDPOINTS } from '../../rest-facade/router.ts';

const en = catalogs.en;

describe('i18n catalogs', () => {
  it('there is one catalog file per served language', () => {
    const files = readdirSync(new URL('../../rest-facade/i18n/', import.meta.url)).filter((f) => f.endsWith('.json'));
    expect(files.sort()).toEqual(LANGS.map((l) => `${l}.json`).sort());
  });

  for (const lang of LANGS) {
    it(`${lang}: every key of en, the same placeholders, non-empty`, () => {
      const cat = catalogs[lang];
      expect(Object.keys(cat).sort()).toEqual(Object.keys(en).sort());
      for (const [k, v] of Object.entries(en)) {
        expect(typeof cat[k], `${lang} ${k}`).toBe('string');
        expect((cat[k] as string).trim(), `${lang} ${k}`).not.toBe('');
        expect(placeholders(cat[k] as string), `${lang} ${k}`).toEqual(placeholders(v));
      }
    });
  }

  it('non-English catalogs are actual translations', () => {
    for (const lang of LANGS.filter((l) => l !== 'en')) {
      const same = Object.keys(en).filter((k) => catalogs[lang][k] === en[k]);
      expect(same.length / Object.keys(en).length, lang).toBeLessThan(0.05);
    }
  });

  it('every §8.2 code has an English message', () => {
    for (const code of Object.keys(ERROR_CODES)) expect(en[`error.${code}`], code).toBeTypeOf('string');
    expect(en['error.rest_no_route']).toBe('No route was found matching the URL and request method.');
    expect(en['error.rest_forbidden']).toBe('Sorry, you are not allowed to do that.');
  });

  it('every description key used by the argument tables exists', () => {
    for (const e of RESOURCE_ENDPOINTS) {
      for (const route of e.routes) {
        for (const [arg, spec] of Object.entries(route.args)) {
          if (spec.description) expect(en[spec.description], `${e.methods[0]} ${route.path} ${arg}`).toBeTypeOf('string');
        }
      }
    }
  });

  it('t() interpolates and falls back to the key / English', () => {
    expect(getT('de')('error.rest-event-not-found', { id: 42 })).toBe('Die Veranstaltung mit der ID 42 existiert nicht.');
    expect(getT('en')('error.duplicate_term_slug', { slug: 'a<b' })).toBe('The slug “a<b” is already in use by another term.');
    expect(getT('pl')('Some literal text: not a key.')).toBe('Some literal text: not a key.');
  });
});
