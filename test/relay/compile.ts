/**
 * Runs relay-compiler on test/relay (documents.ts, against the committed schema/schema.graphql,
 * with the options of relay.config.json) into test/relay/__generated__/<name>/ (not committed; one
 * directory per caller, so that the suite's PGlite and PostgreSQL runs may compile at once). The
 * compiler is not a dependency (118 MB with every platform's binary): `npm exec` fetches this exact
 * version into npm's cache the first time, as prisma/generate.mjs does for the Prisma CLI; later
 * runs work offline from there.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Keep in step with relay-runtime (package.json): the artifacts and the runtime go together. */
export const RELAY_COMPILER = 'relay-compiler@21.0.1';

const here = fileURLToPath(new URL('.', import.meta.url));

export interface RelayArtifacts {
  /** Where the artifacts (`<Operation>.graphql.ts`) are. */
  dir: string;
  /** Operation ID (SHA-256 of its text) → text: relay-compiler's persist output (`persistConfig.file`). */
  persisted: string;
}

/**
 * Compiles the documents into `__generated__/<name>/`; throws with the compiler's report when it
 * refuses them (a warning included: all are fatal here).
 */
export function compileRelay(name: string): RelayArtifacts {
  const dir = path.join(here, '__generated__', name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  // relay.config.json with its paths from this directory; the compiler wants the persist file to exist.
  const config = JSON.parse(readFileSync(path.join(here, 'relay.config.json'), 'utf8')) as Record<string, unknown>;
  const from = (p: string) => path.relative(dir, path.join(here, p)) || '.';
  const persisted = path.join(dir, 'persisted-documents.json');
  writeFileSync(persisted, '{}\n');
  const local = { ...config, src: from('.'), schema: from(config.schema as string), artifactDirectory: '.', persistConfig: { ...(config.persistConfig as object), file: './persisted-documents.json' } };
  writeFileSync(path.join(dir, 'relay.config.json'), JSON.stringify(local, null, 2));
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(npm, ['exec', '--yes', '--loglevel=error', `--package=${RELAY_COMPILER}`, '--', 'relay-compiler', '--repersist', 'relay.config.json'], {
    cwd: dir,
    encoding: 'utf8',
    shell: process.platform === 'win32',
    env: { ...process.env, NO_COLOR: '1' },
  });
  const report = `${result.stdout ?? ''}${result.stderr ?? ''}`;
  if (result.status !== 0 || /\[(WARN|ERROR)\]|warning/i.test(report)) throw new Error(`relay-compiler (${RELAY_COMPILER}) failed:\n${report}`);
  return { dir, persisted };
}
