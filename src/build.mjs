// Compiles the server to dist/ (esbuild: TypeScript → JavaScript file by file, relative `.ts` imports
// rewritten to `.js`, as tsc's rewriteRelativeImportExtensions; no type check here, that is
// `npm run typecheck`, so `npm install` and a stale `npm start` take seconds), copies the files it reads at run time
// (GraphQL operations, i18n JSON, templates, styles, schema.prisma and the migrations) and writes
// the migrated empty database new embedded databases start from (dist/prisma/empty-database.tar.gz).
//
//   node src/build.mjs            build (incremental)
//   node src/build.mjs --if-stale build only when a source is newer than the last build, or
//                                     when files were added or removed (then from scratch); `npm start`
//                                     checks the same (src/start.mjs), so a checkout or an edit never
//                                     runs old code
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { dist, inputs, isCurrent, readStamp, root, walk, writeStamp } from './build-stamp.mjs';

/**
 * Non-TypeScript files the compiled server may read (operations, i18n, page templates and styles,
 * schema.prisma, migrations), relative to the repo: copied to the same place under dist/. Every
 * file but TypeScript and this script is an asset, so a new template needs no change here.
 */
const isAsset = (file) => !/\.(ts|mts|cts|mjs)$/.test(file);
const ASSET_DIRS = ['src', 'schema', 'rest-facade', 'prisma/migrations', 'prisma/schema.prisma'];

const ifStale = process.argv.includes('--if-stale');
const now = inputs();
const stamp = readStamp();
if (ifStale && isCurrent(now, stamp)) process.exit(0);
// Loaded only to build: `--if-stale` callers (the benches, the topology run) check first, and
// loading esbuild took ~40 % of that check.
const { build } = await import('esbuild');
// A removed source would otherwise live on in dist/ (operations are read by directory listing).
if (stamp && stamp.list !== now.list) rmSync(dist, { recursive: true, force: true });

const started = Date.now();
const SERVER_BUNDLE = path.join(dist, 'src/server/main.js');
/**
 * Inside the bundle every module's `import.meta.url` would be the bundle's: each project module's
 * becomes the URL of its own compiled file beside it in dist/ (where its templates, i18n files and
 * operations are copied), relative to the bundle so that dist/ can move.
 */
const keepFileUrls = {
  name: 'keep-file-urls',
  setup(b) {
    b.onLoad({ filter: /\.ts$/ }, (args) => {
      if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
      const compiled = path.join(dist, path.relative(root, args.path)).replace(/\.ts$/, '.js');
      const rel = path.relative(path.dirname(SERVER_BUNDLE), compiled).split(path.sep).join('/');
      const source = readFileSync(args.path, 'utf8');
      const contents = source.replaceAll('import.meta.url', `new URL(${JSON.stringify(rel.startsWith('.') ? rel : `./${rel}`)}, import.meta.url).href`);
      return { contents, loader: 'ts' };
    });
  },
};
/**
 * Packages the bundle leaves in node_modules: those that read their own files (__dirname, files next
 * to their modules: PGlite's WebAssembly, Prisma's runtime, argon2's native addon, the iCal time
 * zones, pino's workers and Piscina's (the text work pool), ioredis's package.json; ioredis is also
 * loaded on demand by the throttle),
 * and those whose objects cross between the bundle and such a package
 * (pg's pool is handed to Prisma's adapter; @prisma/driver-adapter-utils is shared with the PGlite
 * adapter). Everything else (graphql, Yoga, Pothos, zod, Koa…) is bundled: one copy of each.
 */
const BUNDLE_EXTERNAL = [
  '@prisma/*',
  '@electric-sql/*',
  'pglite-prisma-adapter',
  '@node-rs/*',
  'pg',
  'pg-*',
  '@touch4it/ical-timezones',
  'pino',
  'piscina',
  'swagger-ui-dist',
  'ioredis',
  '@opentelemetry/*', // loaded as Node resolves it (build/src): prisma/prune-telemetry.mjs removes the ESNext build
];
/**
 * Prisma's query compiler is published as a module holding the WebAssembly as a 2.3 MB base64
 * string literal, which V8 keeps twice for the life of the process (the module's source and the
 * literal: ~4.5 MB of heap). The bundle reads the same bytes from a file the build writes instead.
 */
const QUERY_COMPILER_WASM = path.join(dist, 'prisma/query-compiler.wasm');
const queryCompilerFromFile = {
  name: 'query-compiler-from-file',
  setup(b) {
    b.onResolve({ filter: /^@prisma\/client\/runtime\/query_compiler_[a-z]+_bg\.[a-z]+\.wasm-base64\.mjs$/ }, async (args) => {
      const { wasm } = await import(args.path);
      mkdirSync(path.dirname(QUERY_COMPILER_WASM), { recursive: true });
      writeFileSync(QUERY_COMPILER_WASM, Buffer.from(wasm, 'base64'));
      return { path: args.path, namespace: 'query-compiler' };
    });
    b.onLoad({ filter: /.*/, namespace: 'query-compiler' }, () => {
      const rel = path.relative(path.dirname(SERVER_BUNDLE), QUERY_COMPILER_WASM).split(path.sep).join('/');
      return {
        contents: `import { readFileSync } from 'node:fs';\nexport const wasm = readFileSync(new URL(${JSON.stringify(rel)}, import.meta.url)).toString('base64');\n`,
        loader: 'js',
      };
    });
  },
};
/**
 * graphql 16 ships CommonJS (`main`) and ES modules (`module`, `.mjs`) without an `exports` map, and
 * esbuild on the node platform picks `main`: the bundle then reached every graphql export through
 * the getter esbuild's CommonJS interop defines per export, one closure per name that V8 cannot
 * inline. The executor calls `isObjectType`, `isListType`, `locatedError`… that way for every field
 * of every record (7.7 % of the CPU of an uncached 50-event page). Every `graphql` and `graphql/…`
 * import and require resolves to the `.mjs` files instead: one copy, plain ES module bindings.
 * That single copy is also why its `instanceOf` takes its production form (a plain `instanceof`)
 * whatever NODE_ENV says: the other form guards against a second graphql in node_modules by comparing
 * class names each time a check fails (`isObjectType` on a scalar…), 4.5 % of the same page's CPU.
 */
const GRAPHQL_DIR = path.dirname(createRequire(import.meta.url).resolve('graphql/package.json'));
const graphqlAsEsm = {
  name: 'graphql-as-esm',
  setup(b) {
    b.onResolve({ filter: /^graphql(\/.*)?$/ }, (args) => {
      const sub = args.path.slice('graphql'.length).replace(/^\//, '').replace(/\.m?js$/, '');
      for (const file of [sub ? `${sub}.mjs` : 'index.mjs', path.join(sub, 'index.mjs')]) {
        if (existsSync(path.join(GRAPHQL_DIR, file))) return { path: path.join(GRAPHQL_DIR, file) };
      }
      return undefined;
    });
    b.onLoad({ filter: /[\\/]graphql[\\/]jsutils[\\/]instanceOf\.mjs$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      const contents = source.replace(/const isProduction =[^;]*;/, 'const isProduction = true;');
      if (contents === source) throw new Error(`graphql-as-esm: ${args.path} changed; look again at its isProduction`);
      return { contents, loader: 'js' };
    });
  },
};
// Every TypeScript file of tsconfig.build.json's `include` (its `exclude` only keeps scripts out of
// tsc's root files; tsc compiled them anyway when imported, and compiling one more costs nothing).
const entryPoints = ['src', 'schema', 'rest-facade', 'prisma/generated']
  .flatMap((dir) => walk(dir, []))
  .map(([rel]) => rel)
  .filter((rel) => /\.[cm]?ts$/.test(rel) && !rel.endsWith('.d.ts'))
  .map((rel) => path.join(root, rel));
try {
  await build({
    entryPoints,
    outdir: dist,
    outbase: root,
    // Bundling only so that every import goes through the plugin below, which keeps each one as an
    // import of its own file: one output file per source file, as tsc writes them.
    bundle: true,
    plugins: [
      {
        name: 'imports-stay',
        setup(b) {
          b.onResolve({ filter: /.*/ }, (args) =>
            args.kind === 'entry-point' ? undefined : { path: args.path.replace(/^(\.{1,2}\/.*)\.([cm]?)ts$/, '$1.$2js'), external: true },
          );
        },
      },
    ],
    platform: 'node',
    format: 'esm',
    target: 'node20.19',
    outExtension: { '.js': '.js' },
    sourcemap: true,
    tsconfig: path.join(root, 'tsconfig.build.json'),
    logLevel: 'warning',
  });
  // The server's entry point as one file: the project's modules and the packages they import (but
  // BUNDLE_EXTERNAL) in one bundle. Replaces the per-file main.js written above, so `npm start`
  // resolves, reads and compiles one file instead of ~1,200 (module resolution, file reads and the
  // CommonJS export scans were half of the start's CPU). Every other compiled file stays for the CLI,
  // the build and the tests.
  await build({
    entryPoints: [path.join(root, 'src/server/main.ts')],
    outfile: SERVER_BUNDLE,
    bundle: true,
    external: BUNDLE_EXTERNAL,
    // CommonJS packages inside an ES module bundle call `require` for Node's built-in modules.
    banner: { js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);" },
    // Whitespace and syntax only (names stay, for profiles and stack traces): 4.6 → 3.2 MB for V8 to
    // parse at every start, ~5 % of a start's CPU.
    minifyWhitespace: true,
    minifySyntax: true,
    plugins: [keepFileUrls, queryCompilerFromFile, graphqlAsEsm],
    platform: 'node',
    format: 'esm',
    target: 'node20.19',
    sourcemap: true,
    tsconfig: path.join(root, 'tsconfig.build.json'),
    logLevel: 'warning',
  });
} catch {
  process.stderr.write('build: compilation failed; dist/ is not up to date\n');
  process.exit(1);
}
for (const rel of ASSET_DIRS) {
  cpSync(path.join(root, rel), path.join(dist, rel), {
    recursive: true,
    filter: (src) => statSync(src).isDirectory() || isAsset(src),
  });
}
mkdirSync(dist, { recursive: true });
// The migrated empty database new embedded databases start from (src/db/empty-database.ts).
const { writeEmptyDatabaseImage } = await import(pathToFileURL(path.join(dist, 'src/db/migrate.js')).href);
await writeEmptyDatabaseImage();
writeStamp(now.list);
process.stderr.write(`build: dist/ compiled in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
