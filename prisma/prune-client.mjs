// Run by `npm install` (postinstall): removes from node_modules/@prisma/client the query compilers the
// generated client (prisma/generated/) never loads. @prisma/client ships one WebAssembly query compiler
// per database kind (PostgreSQL, MySQL, SQLite, SQL Server, CockroachDB), each in a "fast" and a "small"
// build and in CommonJS and ESM copies: 66 MB, of which this project loads one (small, PostgreSQL,
// 4.5 MB). Only files named query_compiler_* that no generated file names are removed; everything else
// in the package stays as published. After a change of `compilerBuild` or `provider` in
// prisma/schema.prisma, reinstall the package to get the other builds back (`npm ci`).
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const here = import.meta.dirname;

function files(dir) {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    return statSync(p).isDirectory() ? files(p) : [p];
  });
}

// The compilers the generated client imports, by base name (`query_compiler_small_bg.postgresql`).
const wanted = new Set();
for (const file of files(path.join(here, 'generated'))) {
  for (const m of readFileSync(file, 'utf8').matchAll(/@prisma\/client\/runtime\/(query_compiler_[a-z]+_bg\.[a-z]+)\./g)) wanted.add(m[1]);
}
if (wanted.size === 0) {
  // Nothing to go by (no generated client yet, or a new layout): keep everything.
  process.stderr.write('prune-client: the generated client names no query compiler; @prisma/client left whole\n');
  process.exit(0);
}

const runtime = path.join(path.dirname(createRequire(import.meta.url).resolve('@prisma/client/package.json')), 'runtime');
let freed = 0;
for (const name of readdirSync(runtime)) {
  const m = /^(query_compiler_[a-z]+_bg\.[a-z]+)\./.exec(name);
  if (!m || wanted.has(m[1])) continue;
  const p = path.join(runtime, name);
  freed += statSync(p).size;
  rmSync(p);
}
if (freed) process.stderr.write(`prune-client: removed ${(freed / 2 ** 20).toFixed(0)} MB of unused query compilers from @prisma/client (kept ${[...wanted].join(', ')})\n`);
