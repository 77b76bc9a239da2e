/**
 * The links that put the calendar into a visitor's own: the "Subscribe to calendar" menu of every
 * view and the "Add to calendar" menu of an event page, in the URL forms The Events Calendar hands
 * out (src/Tribe/Views/V2/iCalendar/Links/*.php, Traits/Outlook_Methods.php), so a visitor moving
 * over finds the same services answering the same way.
 */
import { DateTime } from 'luxon';
import { htmlToText } from '../domain/text.ts';
import type { PageStrings } from './i18n.ts';

export interface CalendarLink {
  /** TEC's slug of the link (`gcal`, `ical`, `outlook-365`, `outlook-live`, `ics`). */
  key: string;
  label: string;
  url: string;
}

/** PHP's urlencode, which TEC runs these URLs through: spaces as `+`, `!'()*~` escaped. */
export const phpUrlencode = (text: string) =>
  encodeURIComponent(text)
    .replace(/[!'()*~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, '+');

/** PHP's rawurlencode: spaces as `%20`, `~` kept. */
const rawUrlencode = (text: string) => encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** A query value TEC passes unencoded (WordPress's add_query_arg; esc_url then escapes spaces): made a valid URL part. */
const plain = (text: string) => encodeURIComponent(text).replace(/%(2C|3A|2F)/gi, (m) => decodeURIComponent(m));

/** `?a=1&b=2` with the values PHP-urlencoded (add_query_arg over urlencode_deep), in the given order. */
export const phpQuery = (args: readonly (readonly [string, string])[]) => args.map(([k, v]) => `${k}=${phpUrlencode(v)}`).join('&');

const webcal = (url: string) => url.replace(/^https?:\/\//, 'webcal://');

/**
 * A view's subscription menu. `feed`: the home URL and the view's filters (TEC's
 * get_canonical_ics_feed_url: `post_type`, the date browsed, the category, …), to which the links add
 * `ical=1` and `eventDisplay=list`; `exportUrl`: the view's own events as a file (what the page
 * shows); `name`: the calendar name Outlook gives the subscription.
 */
export function subscribeLinks(feed: { home: string; args: readonly (readonly [string, string])[] }, exportUrl: string, name: string, t: PageStrings): CalendarLink[] {
  const list = ['eventDisplay', 'list'] as const;
  const withIcal = `${feed.home}/?${phpQuery([...feed.args, ['ical', '1'], list])}`;
  // Outlook's link carries the feed without `ical=1`, encoded, and `&ical=1` after it, encoded again (as TEC builds it).
  const withoutIcal = `${feed.home}/?${phpQuery([...feed.args, list])}`;
  const outlook = (host: string) =>
    `https://outlook.${host}.com/owa?path=/calendar/action/compose&rru=addsubscription&url=${phpUrlencode(`${phpUrlencode(webcal(withoutIcal))}&ical=1`)}&name=${phpUrlencode(name)}`;
  return [
    { key: 'gcal', label: t('subscribe.google'), url: `https://www.google.com/calendar/render?cid=${phpUrlencode(webcal(withIcal))}` },
    { key: 'ical', label: t('subscribe.ical'), url: webcal(withIcal) },
    { key: 'outlook-365', label: t('subscribe.outlook365'), url: outlook('office') },
    { key: 'outlook-live', label: t('subscribe.outlookLive'), url: outlook('live') },
    { key: 'ics', label: t('subscribe.ics'), url: exportUrl },
  ];
}

/** What an event page's "Add to calendar" menu needs of the event. */
export interface CalendarEntry {
  /** HTML (the core's display title). */
  title: string;
  /** HTML. */
  description: string;
  allDay: boolean;
  /** Wall clocks `YYYY-MM-DD HH:MM:SS` in `zone`. */
  start: string;
  end: string;
  zone: string;
  /** The venue's name and address in one line, or ''. */
  location: string;
  /** The event's page. */
  url: string;
  /** The site's home (Google's `sprop=website:`). */
  home: string;
}

/** TEC cuts a description a link carries (URLs stay below browsers' limits) and points to the page for the rest. */
function shortDescription(html: string, limit: number, url: string, t: PageStrings): string {
  const text = htmlToText(html.replace(/<\/p>/g, '</p> ')).replace(/\s+/g, ' ').trim();
  if (text.length <= limit) return text;
  return `${text.slice(0, limit)} ${t('subscribe.fullDescription', { url })}`;
}

/** An event page's menu: Google Calendar, iCalendar, Outlook 365, Outlook Live, the .ics file. */
export function addToCalendarLinks(e: CalendarEntry, t: PageStrings): CalendarLink[] {
  const wall = (text: string) => DateTime.fromSQL(text, { zone: 'utc' });
  const start = wall(e.start);
  const end = wall(e.end);
  const title = htmlToText(e.title);
  const ics = `${e.url}${e.url.includes('?') ? '&' : '?'}ical=1`;
  // Google Calendar (Google_Calendar::generate_single_url): local times with the zone they are in.
  const google = [
    ['action', 'TEMPLATE'],
    ['dates', `${start.toFormat("yyyyMMdd'T'HHmmss")}/${end.toFormat("yyyyMMdd'T'HHmmss")}`],
    ['text', rawUrlencode(title)],
    ['details', phpUrlencode(shortDescription(e.description, 996, e.url, t))],
    ['location', plain(e.location)],
    ['trp', 'false'],
    ['ctz', plain(e.zone)],
    ['sprop', plain(`website:${e.home}`)],
  ].filter(([, v]) => v);
  // Outlook (Outlook_Methods::generate_outlook_add_url_parameters): an all-day event ends at its start time on its last day.
  const spaced = (text: string) => phpUrlencode(text).replace(/\+/g, '%20');
  const outlookParams = [
    ['path', '/calendar/action/compose'],
    ['rrv', 'addevent'],
    ['startdt', start.toFormat("yyyy-MM-dd'T'HH:mm:ss")],
    ['enddt', e.allDay ? `${end.toFormat('yyyy-MM-dd')}T${start.toFormat('HH:mm:ss')}` : end.toFormat("yyyy-MM-dd'T'HH:mm:ss")],
    ['location', plain(e.location)],
    ['subject', spaced(title)],
    ['body', spaced(shortDescription(e.description, 900, e.url, t))],
  ].filter(([, v]) => v);
  const outlook = (host: string) => `https://outlook.${host}.com/owa/?${outlookParams.map(([k, v]) => `${k}=${v}`).join('&')}`;
  return [
    { key: 'gcal', label: t('subscribe.google'), url: `https://www.google.com/calendar/event?${google.map(([k, v]) => `${k}=${v}`).join('&')}` },
    { key: 'ical', label: t('subscribe.ical'), url: webcal(ics) },
    { key: 'outlook-365', label: t('subscribe.outlook365'), url: outlook('office') },
    { key: 'outlook-live', label: t('subscribe.outlookLive'), url: outlook('live') },
    { key: 'ics', label: t('subscribe.ics'), url: ics },
  ];
}
