import { builder } from '../builder.ts';
import { describedEnum } from '../types/common.ts';

export const RecurrenceInputRef = builder.inputType('RecurrenceInput', {
  description:
    'Makes an event a recurring series in its own time zone (wall clock: 19:00 stays 19:00 across DST). ' +
    'Supported: FREQ=DAILY|WEEKLY|MONTHLY|YEARLY, INTERVAL, COUNT or UNTIL, BYDAY (also 2TU/-1FR), BYMONTHDAY (also -1), BYMONTH, BYSETPOS, WKST. ' +
    'Give `rule`, `rules` (several: their union) or only `rdates` (the event start and these dates).',
  fields: (t) => ({
    rule: t.string({ description: 'RFC 5545 RRULE text, e.g. `FREQ=WEEKLY;BYDAY=TU;COUNT=10` (no DTSTART: the event start is).' }),
    rules: t.stringList({ description: 'Further RRULEs: the series is the union of all of them.' }),
    exdates: t.stringList({ description: 'Excluded occurrences: event-local `YYYY-MM-DD` (at the series start time) or `YYYY-MM-DD HH:MM:SS`.' }),
    rdates: t.stringList({ description: 'Extra occurrences, same formats.' }),
  }),
});

export const RecurrenceScopeEnum = describedEnum('RecurrenceScope', 'Which occurrences of a series an update applies to.', {
  THIS: ['THIS', 'Only the addressed occurrence (it becomes an override and keeps its ID).'],
  THIS_AND_FOLLOWING: ['THIS_AND_FOLLOWING', 'The addressed occurrence and those after it: the series is split there.'],
  ALL: ['ALL', 'Every occurrence of the series.'],
});

export const OccurrenceListingEnum = describedEnum('OccurrenceListing', 'How an event list shows recurring series.', {
  EXPAND: ['EXPAND', 'One row per occurrence, as the REST API lists them (the default).'],
  SERIES: [
    'SERIES',
    "One row per series: the series event (with its first occurrence's dates), listed when any of its occurrences matches every other filter; single events as usual.",
  ],
});
