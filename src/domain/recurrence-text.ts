/**
 * `Recurrence.text` in the REST languages: rrule's own `toText` with a word list per
 * language (rrule ships English only) and day and month names and dates from `Intl`. rrule builds
 * the sentence word by word in English order, so the result reads like a terse schedule line
 * ("chaque semaine le mardi jusqu'au 30 juin 2027") rather than polished prose.
 */
import type { Options } from 'rrule';
import { rrule } from './recurrence.ts';

/** The REST facade's languages (rest-facade/wp/types.ts LANGS); English is the default. */
export const RULE_TEXT_LANGS = ['en', 'fr', 'de', 'es', 'it', 'nl', 'pt', 'pl'] as const;
export type RuleTextLang = (typeof RULE_TEXT_LANGS)[number];

/**
 * rrule's words in each language, a column per language in `RULE_TEXT_LANGS` order: the English
 * column holds the words `toText` asks `gettext` for.
 */
const WORDS: readonly (readonly [en: string, fr: string, de: string, es: string, it: string, nl: string, pt: string, pl: string])[] = [
  // en                fr                  de              es                 it                    nl              pt                pl
  ['every',           'chaque',           'jede',         'cada',            'ogni',               'elke',         'cada',           'co'],
  ['until',           "jusqu'au",         'bis',          'hasta el',        'fino al',            'tot',          'até',            'do'],
  ['for',             'pendant',          'für',          'durante',         'per',                'voor',         'durante',        'przez'],
  ['time',            'fois',             'Mal',          'vez',             'volta',              'keer',         'vez',            'raz'],
  ['times',           'fois',             'Mal',          'veces',           'volte',              'keer',         'vezes',          'razy'],
  ['on',              'le',               'am',           'el',              'il',                 'op',           'na',             'w'],
  ['on the',          'le',               'am',           'el',              'il',                 'op de',        'no',             'w'],
  ['the',             'le',               'der',          'el',              'il',                 'de',           'o',              ''],
  ['and',             'et',               'und',          'y',               'e',                  'en',           'e',              'i'],
  ['or',              'ou',               'oder',         'o',               'o',                  'of',           'ou',             'lub'],
  ['in',              'en',               'im',           'en',              'in',                 'in',           'em',             'w'],
  ['at',              'à',                'um',           'a las',           'alle',               'om',           'às',             'o'],
  ['last',            'dernier',          'letzten',      'último',          'ultimo',             'laatste',      'último',         'ostatni'],
  ['day',             'jour',             'Tag',          'día',             'giorno',             'dag',          'dia',            'dzień'],
  ['days',            'jours',            'Tage',         'días',            'giorni',             'dagen',        'dias',           'dni'],
  ['week',            'semaine',          'Woche',        'semana',          'settimana',          'week',         'semana',         'tydzień'],
  ['weeks',           'semaines',         'Wochen',       'semanas',         'settimane',          'weken',        'semanas',        'tygodnie'],
  ['month',           'mois',             'Monat',        'mes',             'mese',               'maand',        'mês',            'miesiąc'],
  ['months',          'mois',             'Monate',       'meses',           'mesi',               'maanden',      'meses',          'miesiące'],
  ['year',            'an',               'Jahr',         'año',             'anno',               'jaar',         'ano',            'rok'],
  ['years',           'ans',              'Jahre',        'años',            'anni',               'jaar',         'anos',           'lata'],
  ['weekday',         'jour de semaine',  'Werktag',      'día laborable',   'giorno feriale',     'werkdag',      'dia útil',       'dzień roboczy'],
  ['weekdays',        'jours de semaine', 'Werktage',     'días laborables', 'giorni feriali',     'werkdagen',    'dias úteis',     'dni robocze'],
  ['st',              'er',               '.',            'º',               'º',                  'e',            'º',              '.'],
  ['nd',              'e',                '.',            'º',               'º',                  'e',            'º',              '.'],
  ['rd',              'e',                '.',            'º',               'º',                  'e',            'º',              '.'],
  ['th',              'e',                '.',            'º',               'º',                  'e',            'º',              '.'],
  ['(~ approximate)', '(~ approximatif)', '(~ ungefähr)', '(~ aproximado)',  '(~ approssimativo)', '(~ ongeveer)', '(~ aproximado)', '(~ w przybliżeniu)'],
];
const WORD_ROWS = new Map(WORDS.map((row) => [row[0], row]));

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
  const column = RULE_TEXT_LANGS.indexOf(lang as RuleTextLang);
  if (column < 1) return rule.toText(); // English (column 0) or not a REST language
  // 2023-01-01 was a Sunday (rrule lists day names from Sunday).
  const dayNames = names(lang!, 7, { weekday: 'long' }, (i) => Date.UTC(2023, 0, 1 + i));
  const monthNames = names(lang!, 12, { month: 'long' }, (i) => Date.UTC(2023, i, 1));
  const dates = new Intl.DateTimeFormat(lang!, { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
  return rule.toText(
    (id) => WORD_ROWS.get(String(id))?.[column] ?? String(id),
    { dayNames, monthNames, tokens: {} },
    (year, month, day) => dates.format(Date.UTC(year, monthNames.indexOf(month), day)),
  );
}
