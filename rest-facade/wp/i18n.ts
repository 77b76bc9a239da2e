/**
 * Message catalogs (`rest-facade/i18n/<lang>.json`, flat keys, i18next `{{var}}` interpolation).
 * Keys are flat (`error.rest_no_route`, `desc.the_archive_page_to_return`); an unknown key is
 * returned unchanged, so literal text can be passed wherever a key is expected.
 */
import { readFileSync } from 'node:fs';
import i18next, { type i18n as I18n } from 'i18next';
import { LANGS, type Lang, type TFunction } from './types.ts';

export type Catalog = Record<string, string>;

function loadCatalog(lang: Lang): Catalog {
  const url = new URL(`../i18n/${lang}.json`, import.meta.url);
  return JSON.parse(readFileSync(url, 'utf8')) as Catalog;
}

export const catalogs: Readonly<Record<Lang, Catalog>> = Object.fromEntries(
  LANGS.map((l) => [l, loadCatalog(l)]),
) as Record<Lang, Catalog>;

const instance: I18n = i18next.createInstance();
void instance.init({
  resources: Object.fromEntries(LANGS.map((l) => [l, { translation: catalogs[l] }])),
  lng: 'en',
  fallbackLng: 'en',
  supportedLngs: [...LANGS],
  initAsync: false,
  keySeparator: false,
  nsSeparator: false,
  returnNull: false,
  returnEmptyString: false,
  interpolation: { escapeValue: false },
});

const fixed = new Map<Lang, TFunction>();

export function isLang(x: string): x is Lang {
  return (LANGS as readonly string[]).includes(x);
}

/** The message function of a language. */
export function getT(lang: Lang = 'en'): TFunction {
  let t = fixed.get(lang);
  if (!t) {
    const ft = instance.getFixedT(lang);
    t = (key: string, vars?: Record<string, unknown>): string => {
      if (!key) return '';
      const out = ft(key, { ...(vars ?? {}), defaultValue: key }) as unknown;
      return typeof out === 'string' ? out : String(out);
    };
    fixed.set(lang, t);
  }
  return t;
}

/** Interpolation placeholders (`{{name}}`) of a message, sorted — used by the catalog tests. */
export function placeholders(message: string): string[] {
  return [...message.matchAll(/\{\{\s*([\w.-]+)\s*\}\}/g)].map((m) => m[1] ?? '').sort();
}
