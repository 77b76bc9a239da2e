/**
 * `Recurrence.text` in the REST languages (issue 13): rrule's own `toText` with a word list per
 * language (rrule ships English only) and day and month names and dates from `Intl`. rrule builds
 * the sentence word by word in English order, so the result reads like a terse schedule line
 * ("chaque semaine le mardi jusqu'au 30 juin 2027") rather than polished prose.
 */
import type { Options } from 'rrule';
import { rrule } from './recurrence.ts';

/** The REST facade's languages (rest-facade/wp/types.ts LANGS); English is the default. */
export const RULE_TEXT_LANGS = ['en', 'fr', 'de', 'es', 'it', 'nl', 'pt', 'pl'] as const;
export type RuleTextLang = (typeof RULE_TEXT_LANGS)[number];

type Words = Record<string, string>;
/** rrule's English words → each language (the words `toText` asks `gettext` for). */
const WORDS: Record<Exclude<RuleTextLang, 'en'>, Words> = {
  fr: {
    every: 'chaque', until: "jusqu'au", for: 'pendant', time: 'fois', times: 'fois', on: 'le', 'on the': 'le', the: 'le', and: 'et', or: 'ou',
    in: 'en', at: 'à', last: 'dernier', day: 'jour', days: 'jours', week: 'semaine', weeks: 'semaines', month: 'mois', months: 'mois',
    year: 'an', years: 'ans', weekday: 'jour de semaine', weekdays: 'jours de semaine', st: 'er', nd: 'e', rd: 'e', th: 'e', '(~ approximate)': '(~ approximatif)',
  },
  de: {
    every: 'jede', until: 'bis', for: 'für', time: 'Mal', times: 'Mal', on: 'am', 'on the': 'am', the: 'der', and: 'und', or: 'oder',
    in: 'im', at: 'um', last: 'letzten', day: 'Tag', days: 'Tage', week: 'Woche', weeks: 'Wochen', month: 'Monat', months: 'Monate',
    year: 'Jahr', years: 'Jahre', weekday: 'Werktag', weekdays: 'Werktage', st: '.', nd: '.', rd: '.', th: '.', '(~ approximate)': '(~ ungefähr)',
  },
  es: {
    every: 'cada', until: 'hasta el', for: 'durante', time: 'vez', times: 'veces', on: 'el', 'on the': 'el', the: 'el', and: 'y', or: 'o',
    in: 'en', at: 'a las', last: 'último', day: 'día', days: 'días', week: 'semana', weeks: 'semanas', month: 'mes', months: 'meses',
    year: 'año', years: 'años', weekday: 'día laborable', weekdays: 'días laborables', st: 'º', nd: 'º', rd: 'º', th: 'º', '(~ approximate)': '(~ aproximado)',
  },
  it: {
    every: 'ogni', until: 'fino al', for: 'per', time: 'volta', times: 'volte', on: 'il', 'on the': 'il', the: 'il', and: 'e', or: 'o',
    in: 'in', at: 'alle', last: 'ultimo', day: 'giorno', days: 'giorni', week: 'settimana', weeks: 'settimane', month: 'mese', months: 'mesi',
    year: 'anno', years: 'anni', weekday: 'giorno feriale', weekdays: 'giorni feriali', st: 'º', nd: 'º', rd: 'º', th: 'º', '(~ approximate)': '(~ approssimativo)',
  },
  nl: {
    every: 'elke', until: 'tot', for: 'voor', time: 'keer', times: 'keer', on: 'op', 'on the': 'op de', the: 'de', and: 'en', or: 'of',
    in: 'in', at: 'om', last: 'laatste', day: 'dag', days: 'dagen', week: 'week', weeks: 'weken', month: 'maand', months: 'maanden',
    year: 'jaar', years: 'jaar', weekday: 'werkdag', weekdays: 'werkdagen', st: 'e', nd: 'e', rd: 'e', th: 'e', '(~ approximate)': '(~ ongeveer)',
  },
  pt: {
    every: 'cada', until: 'até', for: 'durante', time: 'vez', times: 'vezes', on: 'na', 'on the': 'no', the: 'o', and: 'e', or: 'ou',
    in: 'em', at: 'às', last: 'último', day: 'dia', days: 'dias', week: 'semana', weeks: 'semanas', month: 'mês', months: 'meses',
    year: 'ano', years: 'anos', weekday: 'dia útil', weekdays: 'dias úteis', st: 'º', nd: 'º', rd: 'º', th: 'º', '(~ approximate)': '(~ aproximado)',
  },
  pl: {
    every: 'co', until: 'do', for: 'przez', time: 'raz', times: 'razy', on: 'w', 'on the': 'w', the: '', and: 'i', or: 'lub',
    in: 'w', at: 'o', last: 'ostatni', day: 'dzień', days: 'dni', week: 'tydzień', weeks: 'tygodnie', month: 'miesiąc', months: 'miesiące',
    year: 'rok', years: 'lata', weekday: 'dzień roboczy', weekdays: 'dni robocze', st: '.', nd: '.', rd: '.', th: '.', '(~ approximate)': '(~ w przybliżeniu)',
  },
};

const names = (lang: string, count: number, option: Intl.DateTimeFormatOptions, day: (i: number) => number) => {
  const format = new Intl.DateTimeFormat(lang, { ...option, timeZone: 'UTC' });
  return Array.from({ length: count }, (_, i) => format.format(day(i)));
};

/**
 * The rule in words, in `lang` (a REST language; anything else is English). `options` are rrule
 * options without dtstart, `anchor` the floating DTSTART.
 */
export function ruleTextIn(options: Partial<Options>, anchor: Date, lang: string | null | undefined): string {
  const rule = new (rrule())({ ...options, dtstart: anchor });
  const words = lang && lang !== 'en' ? WORDS[lang as keyof typeof WORDS] : undefined;
  if (!words) return rule.toText();
  // 2023-01-01 was a Sunday (rrule lists day names from Sunday).
  const dayNames = names(lang!, 7, { weekday: 'long' }, (i) => Date.UTC(2023, 0, 1 + i));
  const monthNames = names(lang!, 12, { month: 'long' }, (i) => Date.UTC(2023, i, 1));
  const dates = new Intl.DateTimeFormat(lang!, { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
  return rule.toText(
    (id) => words[String(id)] ?? String(id),
    { dayNames, monthNames, tokens: {} },
    (year, month, day) => dates.format(Date.UTC(year, monthNames.indexOf(month), day)),
  );
}
