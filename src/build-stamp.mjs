// What src/build.mjs compiles from, and whether dist/ was built from the sources as they are now:
// shared by the build and by `npm start` (src/start.mjs), which checks it before every start.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const root = path.resolve(import.meta.dirname, '..');
export const dist = path.join(root, 'dist');
const stampFile = path.join(dist, '.build-stamp.json');
const SOURCES = ['src', 'schema', 'rest-facade', 'prisma/generated', 'prisma/migrations', 'prisma/schema.prisma', 'tsconfig.json', 'tsconfig.build.json', 'package-lock.json'];

/** Every file under `rel` (a file or a directory, relative to the repo) with its mtime. */
export function walk(rel, out) {
  const abs = path.join(root, rel);
  if (!existsSync(abs)) return out;
  const st = statSync(abs);
  if (!st.isDirectory()) {
    out.push([rel, st.mtimeMs]);
    return out;
  }
  for (const name of readdirSync(abs)) walk(path.join(rel, name), out);
  return out;
}

/** The newest source's mtime, and a hash of the list of sources (a file added or removed changes it). */
export function inputs() {
  const files = SOURCES.flatMap((s) => walk(s, []));
  const newest = Math.max(...files.map(([, m]) => m));
  const list = createHash('sha256').update(files.map(([f]) => f).sort().join('\n')).digest('hex');
  return { newest, list };
}

/** The last build's stamp (its list of sources, and when it was written), or null. */
export function readStamp() {
  try {
    return { ...JSON.parse(readFileSync(stampFile, 'utf8')), mtime: statSync(stampFile).mtimeMs };
  } catch {
    return null;
  }
}

export function writeStamp(list) {
  writeFileSync(stampFile, JSON.stringify({ list }));
}

/** Whether dist/ was built from the same list of sources, none of them changed since. */
export const isCurrent = (now, stamp) => Boolean(stamp && stamp.list === now.list && now.newest <= stamp.mtime);
