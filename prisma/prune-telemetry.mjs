// Run by `npm install` (postinstall), after prune-client.mjs: removes from node_modules the parts of
// the telemetry packages (OpenTelemetry, prom-client's bintrees) that this project never loads.
// Each @opentelemetry/* package ships its code three times (build/src CommonJS, build/esm and
// build/esnext) with source maps; semantic-conventions adds its "incubating" (experimental) names.
// Node loads build/src (the server keeps @opentelemetry/* outside its bundle, src/build.mjs), which
// holds the types too; vite (the tests) resolves the `module` entry, build/esm. build/esnext (no
// tool here reads the `esnext` field), the source maps and the experimental names go: ~30 MB become
// ~14 MB. Reinstall (`npm ci`) to get the removed files back.
import { existsSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const modules = path.join(import.meta.dirname, '..', 'node_modules');
let freed = 0;
function remove(p) {
  if (!existsSync(p)) return;
  freed += size(p);
  rmSync(p, { recursive: true, force: true });
}
function size(p) {
  const s = statSync(p);
  return s.isDirectory() ? readdirSync(p).reduce((n, name) => n + size(path.join(p, name)), 0) : s.size;
}
function walk(dir, visit) {
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) walk(p, visit);
    else visit(p, name);
  }
}

const MAP_COMMENT = /\n\/\/# sourceMappingURL=\S+\.map\s*$/;
function unlinkMap(p) {
  const code = readFileSync(p, 'utf8');
  if (MAP_COMMENT.test(code)) writeFileSync(p, code.replace(MAP_COMMENT, '\n'));
}

const otel = path.join(modules, '@opentelemetry');
if (existsSync(otel)) {
  for (const pkg of readdirSync(otel)) {
    const dir = path.join(otel, pkg);
    remove(path.join(dir, 'build', 'esnext'));
    walk(dir, (p, name) => {
      if (name.endsWith('.map')) remove(p);
      // The code's pointer to its removed map goes too: vite (the tests) would log each one missing.
      else if (name.endsWith('.js')) unlinkMap(p);
      // semantic-conventions: its experimental names; its stable entry point never loads them.
      else if (pkg === 'semantic-conventions' && /^(experimental_|index-incubating)/.test(name)) remove(p);
    });
  }
}
remove(path.join(modules, 'bintrees', 'test'));
if (freed) process.stderr.write(`prune-telemetry: removed ${(freed / 2 ** 20).toFixed(0)} MB of unused builds from the telemetry packages\n`);
