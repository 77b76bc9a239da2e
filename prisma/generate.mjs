// Regenerates the Prisma client and its Pothos types (prisma/generated/, committed) from
// prisma/schema.prisma; with --check, generates them into a scratch directory and fails when the
// committed files differ (`npm run schema:check`).
//
// The Prisma CLI is not a dependency of this project: with Studio, `prisma dev` and their engines it
// was about 190 MB of node_modules for a step that runs only after a schema change. `npm exec` fetches
// this exact version into npm's cache the first time (from the npm registry, like any dependency).
// `prisma generate` works offline, but the CLI first checks that its schema-engine binary exists
// (it cannot download it here). Generation never runs that binary, so any existing file satisfies
// the check.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Keep in step with @prisma/client (package.json): the generated code and the runtime go together. */
const PRISMA_CLI = 'prisma@7.10.1';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.join(here, '..');
const check = process.argv.includes('--check');

function generate(schema) {
  const env = { ...process.env };
  env.PRISMA_SCHEMA_ENGINE_BINARY ??= fileURLToPath(import.meta.url);
  env.PRISMA_HIDE_UPDATE_MESSAGE = '1';
  // The Pothos generator (prisma-pothos-types) is a bin of @pothos/plugin-prisma.
  env.PATH = `${path.join(root, 'node_modules', '.bin')}${path.delimiter}${env.PATH ?? ''}`;
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(
    npm,
    ['exec', '--yes', '--loglevel=error', `--package=${PRISMA_CLI}`, '--', 'prisma', 'generate', '--schema', schema],
    { cwd: root, env, stdio: check ? ['ignore', 'ignore', 'inherit'] : 'inherit', shell: process.platform === 'win32' },
  );
  if (result.status !== 0) process.exit(result.status ?? 1);
}

function files(dir, rel = '') {
  return readdirSync(path.join(dir, rel)).flatMap((name) => {
    const r = path.join(rel, name);
    return statSync(path.join(dir, r)).isDirectory() ? files(dir, r) : [r];
  });
}

if (!check) {
  generate(path.join(here, 'schema.prisma'));
} else {
  // The generators' outputs are relative to the schema: a copy of it writes a copy of generated/.
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'cal-prisma-check-'));
  try {
    copyFileSync(path.join(here, 'schema.prisma'), path.join(scratch, 'schema.prisma'));
    generate(path.join(scratch, 'schema.prisma'));
    const committed = path.join(here, 'generated');
    const fresh = path.join(scratch, 'generated');
    const a = files(committed).sort();
    const b = files(fresh).sort();
    const stale = [...new Set([...a, ...b])].filter(
      (f) => !a.includes(f) || !b.includes(f) || !readFileSync(path.join(committed, f)).equals(readFileSync(path.join(fresh, f))),
    );
    if (stale.length) {
      console.error(`prisma/generated/ is not what prisma/schema.prisma generates (${stale.join(', ')}): run \`npm run generate\` and commit it`);
      process.exit(1);
    }
    console.log('prisma/generated/ is current');
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
