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
