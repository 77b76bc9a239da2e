import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LANGS } from '../../rest-facade/wp/types.ts';
import { EN, pageStrings } from '../../src/web/i18n.ts';

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('page strings', () => {
  it('every REST language has every key of the pages, with the same placeholders', () => {
    for (const lang of LANGS.filter((l) => l !== 'en')) {
      const catalog = JSON.parse(readFileSync(new URL(`../../src/web/i18n/${lang}.json`, import.meta.url), 'utf8')) as Record<string, string>;
      expect(Object.keys(catalog).sort(), lang).toEqual(Object.keys(EN).sort());
      for (const [key, text] of Object.entries(EN)) {
        expect(placeholders(catalog[key]!), `${lang} ${key}`).toEqual(placeholders(text));
        expect(catalog[key]!.trim(), `${lang} ${key}`).not.toBe('');
      }
    }
  });

  it('pageStrings fills placeholders in the page language', () => {
    expect(pageStrings('fr')('list.page', { page: 2, pages: 5 })).toBe('Page 2 sur 5');
    expect(pageStrings('de')('record.upcoming')).toBe('Kommende Veranstaltungen');
  });
});
