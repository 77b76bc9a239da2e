/**
 * The pages' own words. English is the source (`EN` below); every other language of the REST facade
 * (rest-facade/wp/types.ts `LANGS`: the `/fr/…` prefix) gets a catalog in src/web/i18n/<lang>.json
 * with the same keys; a missing key falls back to English. Placeholders are `{name}`:
 *
 *   const s = pageStrings(lang);   s('list.page', { page: 2 })  →  "Page 2"
 *
 * Dates are formatted by luxon in the page's language (src/web/format.ts), so month and weekday
 * names need no entry here.
 */
import { existsSync, readFileSync } from 'node:fs';
import { isLang } from '../../rest-facade/wp/i18n.ts';
import { LANGS, type Lang } from '../../rest-facade/wp/types.ts';

export const EN = {
  'site.events': 'Events',
  'site.api': 'API reference',
  'site.graphiql': 'GraphiQL',
  'site.restApi': 'REST API',
  'site.mainNav': 'Main',
  'site.skip': 'Skip to content',
  'bar.label': 'Find events',
  'bar.search': 'Search',
  'bar.searchPlaceholder': 'Keyword',
  'bar.date': 'Date',
  'bar.view': 'View',
  'bar.submit': 'Find events',
  'view.list': 'List',
  'view.month': 'Month',
  'view.day': 'Day',
  'view.switch': 'Views',
  'list.upcoming': 'Upcoming events',
  'list.past': 'Past events',
  'list.heading': 'Events',
  'list.empty': 'No events found.',
  'list.emptyUpcoming': 'No upcoming events.',
  'list.page': 'Page {page} of {pages}',
  'list.next': 'Next events',
  'list.prev': 'Previous events',
  'list.pagination': 'Pagination',
  'list.showing': 'Showing {shown} of {total}',
  'list.showPast': 'Past events',
  'list.showUpcoming': 'Upcoming events',
  'list.searchFor': 'Events matching “{search}”',
  'list.from': 'Events from {date}',
  'month.heading': 'Events for {month}',
  'month.prev': 'Previous month',
  'month.next': 'Next month',
  'month.today': 'Today',
  'month.navigation': 'Month navigation',
  'month.noEvents': 'No events this month.',
  'day.heading': 'Events for {date}',
  'day.prev': 'Previous day',
  'day.next': 'Next day',
  'day.navigation': 'Day navigation',
  'event.allDay': 'All day',
  'event.featured': 'Featured',
  'event.venue': 'Venue',
  'event.organizers': 'Organizers',
  'event.cost': 'Cost',
  'event.website': 'Website',
  'event.categories': 'Categories',
  'event.tags': 'Tags',
  'event.addToCalendar': 'Add to calendar',
  'event.protected': 'Protected: {title}',
  'password.text': 'This content is password protected. To view it please enter your password below:',
  'password.label': 'Password:',
  'password.submit': 'Enter',
  'password.invalid': 'Invalid password.',
  'password.feed': 'Content is protected.',
  'password.crossSite': 'A password is accepted only from the form on this site’s own page.',
  'password.badForm': 'Send the password with the form on the event’s page.',
  'record.address': 'Address',
  'record.mapLink': 'Show on OpenStreetMap',
  'record.phone': 'Phone',
  'record.email': 'Email',
  'record.upcoming': 'Upcoming events',
  'record.noUpcoming': 'No upcoming events.',
  'record.series': 'Recurring event',
  'record.schedule': 'Schedule',
  'record.nextDates': 'Next dates',
  'record.allDates': 'All dates of this series',
  'record.laterDates': 'Later dates',
  'record.fromToday': 'From today',
  'archive.category': 'Category: {name}',
  'archive.tag': 'Tag: {name}',
  'meta.upcoming': 'Upcoming events with their dates, times and venues.',
  'meta.past': 'Past events, latest first.',
  'meta.from': 'Events from {date} on, with their times and venues.',
  'meta.month': 'Calendar of the events in {month}.',
  'meta.day': 'The events of {date}, with their times and venues.',
  'meta.category': 'Events in the category {name}.',
  'meta.tag': 'Events tagged {name}.',
  'meta.search': 'Events matching “{search}”.',
  'error.notFound': 'Not found',
  'error.notFoundText': 'There is nothing at this address.',
  'error.signIn': 'Sign-in required',
  'error.forbidden': 'Not allowed',
  'error.throttled': 'Too many attempts',
  'error.other': 'Error',
  'error.back': 'Back to the calendar',
  'home.subscribe': 'Subscribe and build',
  'home.allEvents': 'All events (iCal)',
  'home.graphql': 'the GraphQL API',
  'home.restRoot': 'REST API root',
  'nav.today': 'Today',
  'day.allDay': 'All day',
  'day.ongoing': 'Ongoing',
  'day.emptyFor': 'No events scheduled for {date}.',
  'day.jump': 'Jump to the {link}.',
  'day.jumpLink': 'next upcoming events',
  'month.events': '{count} events',
  'month.oneEvent': '1 event',
  'month.byDay': 'Events by day',
  'month.viewDay': 'This day in the day view',
  'month.noEventsDay': 'No events on this day.',
  'subscribe.menu': 'Subscribe to calendar',
  'subscribe.google': 'Google Calendar',
  'subscribe.ical': 'iCalendar',
  'subscribe.outlook365': 'Outlook 365',
  'subscribe.outlookLive': 'Outlook Live',
  'subscribe.ics': 'Export .ics file',
  'subscribe.fullDescription': '(View Full Event Description Here: {url})',
} as const;

export type PageKey = keyof typeof EN;
export type PageStrings = (key: PageKey, vars?: Readonly<Record<string, string | number>>) => string;

function loadCatalog(lang: Lang): Partial<Record<PageKey, string>> {
  const file = new URL(`./i18n/${lang}.json`, import.meta.url);
  if (lang === 'en' || !existsSync(file)) return {};
  const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
  if (typeof parsed !== 'object' || parsed === null) return {};
  return Object.fromEntries(Object.entries(parsed).filter((e): e is [PageKey, string] => e[0] in EN && typeof e[1] === 'string'));
}

const catalogs = new Map<Lang, Partial<Record<PageKey, string>>>(LANGS.map((l) => [l, loadCatalog(l)]));

/** The page language of a `/xx/…` prefix ('' or an unknown one: English). */
export function pageLang(prefix: string | undefined): Lang {
  return prefix && isLang(prefix) ? prefix : 'en';
}

const cache = new Map<Lang, PageStrings>();

/** The string function of a language: its catalog, English for what it lacks, `{name}` filled in. */
export function pageStrings(lang: Lang): PageStrings {
  let s = cache.get(lang);
  if (!s) {
    const catalog = catalogs.get(lang) ?? {};
    s = (key, vars) => {
      const text: string = catalog[key] ?? EN[key];
      return vars ? text.replace(/\{(\w+)\}/g, (m, name: string) => (name in vars ? String(vars[name]) : m)) : text;
    };
    cache.set(lang, s);
  }
  return s;
}
