/**
 * The image a new embedded database starts from: an empty PGlite with every migration applied,
 * dumped once by the build (`src/build.mjs`) next to the compiled migrations. A fresh data directory
 * (or `memory:`) loads it instead of running initdb and every migration, which costs seconds of CPU
 * on a small machine and leaves PGlite's WebAssembly heap grown (RSS that never shrinks). A kill
 * while the image is unpacked is handled by database.ts (`cal-events.creating`). The build makes a
 * new image whenever a migration,
 * the code or the lock file changes, so it always matches the migrations beside it; without one
 * (running from source) databases are migrated as before.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Where the build writes the image (`writeEmptyDatabaseImage` in migrate.ts). */
export const EMPTY_DATABASE_IMAGE = fileURLToPath(new URL('../../prisma/empty-database.tar.gz', import.meta.url));

/** The prebuilt empty database, when this build has one. */
export function emptyDatabaseImage(): Blob | undefined {
  return existsSync(EMPTY_DATABASE_IMAGE) ? new Blob([readFileSync(EMPTY_DATABASE_IMAGE)]) : undefined;
}
