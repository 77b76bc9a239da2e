// `prisma generate` works offline, but the CLI first checks that its schema-engine binary exists
// (it cannot download it here). Generation never runs that binary, so any existing file satisfies
// the check.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const here = path.dirname(fileURLToPath(import.meta.url));
const env = { ...process.env };
env.PRISMA_SCHEMA_ENGINE_BINARY ??= fileURLToPath(import.meta.url);
env.PRISMA_HIDE_UPDATE_MESSAGE = '1';
env.PATH = `${path.join(here, '..', 'node_modules', '.bin')}${path.delimiter}${env.PATH ?? ''}`;
const prismaBin = path.join(here, '..', 'node_modules', 'prisma', 'build', 'index.js');
const result = spawnSync(
  process.execPath,
  [prismaBin, 'generate', '--config', path.join(here, 'prisma.config.ts')],
  { env, stdio: 'inherit' },
);
process.exit(result.status ?? 1);
