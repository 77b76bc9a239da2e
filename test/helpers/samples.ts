/**
 * The responses recorded from The Events Calendar 6.2.6 (test/fixtures/samples, see its README):
 * copied into the repo so every suite that compares with them runs everywhere.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const SAMPLES_DIR = fileURLToPath(new URL('../fixtures/samples/', import.meta.url));

/** One recorded exchange, parsed (`name` with its `.json`). */
export function readSample<T>(name: string): T {
  return JSON.parse(readFileSync(path.join(SAMPLES_DIR, name), 'utf8')) as T;
}

/** Every recorded exchange, with its file name, in directory order. */
export function readAllSamples<T>(): Array<T & { file: string }> {
  return readdirSync(SAMPLES_DIR)
    .filter((f) => f.endsWith('.json'))
    .map((file) => ({ file, ...readSample<T>(file) }));
}

/**
 * Times and cost of the samples' event 8, "Summer Jazz Night" (POST_events_201, GET_events_id), as
 * the GraphQL Event type reads them (the REST presenters turn them back into the sample's fields).
 */
export const JAZZ_NIGHT_FIELDS = {
  startDate: '2026-12-05 19:00:00',
  endDate: '2026-12-05 22:30:00',
  startDateUtc: '2026-12-06 00:00:00',
  endDateUtc: '2026-12-06 03:30:00',
  timezone: 'America/New_York',
  timezoneAbbr: 'EST',
  cost: '$15',
  costValues: ['15'],
};
