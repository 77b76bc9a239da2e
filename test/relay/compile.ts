/**
 * Runs relay-compiler on test/relay (documents.ts, against the committed schema/schema.graphql,
 * with the options of relay.config.json) into test/relay/__generated__/ (not committed). The
 * compiler is not a dependency (118 MB with every platform's binary): `npm exec` fetches this exact
 * version into npm's cache the first time, as prisma/generate.mjs does for the Prisma CLI; later
 * runs work offline from there.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Keep in step with relay-runtime (package.json): the artifacts and the runtime go together. */
export const RELAY_COMPILER = 'relay-compiler@21.0.1';

const here = fileURLToPath(new URL('.', import.meta.url));
export const ARTIFACTS = fileURLToPath(new URL('./__generated__/', import.meta.url));
/** Operation ID (SHA-256 of its text) → text: relay-compiler's persist output (`persistConfig.file`). */
export const PERSISTED = fileURLToPath(new URL('./__generated__/persisted-documents.json', import.meta.url));

/** Compiles the documents; throws with the compiler's report when it refuses them (or a warning: all are fatal). */
export function compileRelay(): void {
  // A fresh directory; the compiler wants its persist file (the manifest it writes) to exist.
  rmSync(ARTIFACTS, { recursive: true, force: true });
  mkdirSync(ARTIFACTS, { recursive: true });
  writeFileSync(PERSISTED, '{}\n');
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(
    npm,
    ['exec', '--yes', '--loglevel=error', `--package=${RELAY_COMPILER}`, '--', 'relay-compiler', '--repersist', 'relay.config.json'],
    { cwd: here, encoding: 'utf8', shell: process.platform === 'win32', env: { ...process.env, NO_COLOR: '1' } },
  );
  const report = `${result.stdout ?? ''}${result.stderr ?? ''}`;
  if (result.status !== 0 || /\[(WARN|ERROR)\]|warning/i.test(report)) throw new Error(`relay-compiler (${RELAY_COMPILER}) failed:\n${report}`);
}
