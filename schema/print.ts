// Prints the SDL to schema/schema.graphql (committed). With --check, compares the schema the code
// builds with the committed snapshot (or the file given as --against=<path>): prints the changes,
// breaking / dangerous / safe (GraphQL Inspector), and fails when they differ, so that any change,
// a breaking one above all, lands only by regenerating the snapshot deliberately (`npm run generate`).
// The REST facade's operation types (schema/codegen.ts), generated from this schema, are written and
// checked with it: a stale generated file fails the check too (`--operation-types=<path>` checks another copy).
import { readFileSync, writeFileSync } from 'node:fs';
import { lexicographicSortSchema, printSchema } from 'graphql';
import { OPERATION_TYPES_FILE, operationTypesTarget, restOperationTypes } from './codegen.ts';
import { compareSchemas } from './diff.ts';
import { schema } from './index.ts';

const readOr = (file: string | URL, fallback: string) => {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return fallback;
  }
};

const target = new URL('./schema.graphql', import.meta.url);
const sdl = printSchema(lexicographicSortSchema(schema)) + '\n';
if (process.argv.includes('--check')) {
  const against = process.argv.find((a) => a.startsWith('--against='))?.slice('--against='.length) ?? target;
  let committed = '';
  try {
    committed = readFileSync(against, 'utf8');
  } catch {
    process.stderr.write(`${String(against)} is missing: run \`npm run generate\`\n`);
    process.exit(1);
  }
  if (committed !== sdl) {
    const { report, breaking } = await compareSchemas(committed, sdl);
    process.stderr.write(
      `schema/schema.graphql is out of date${breaking ? ` (${breaking} breaking change${breaking > 1 ? 's' : ''})` : ''}:\n` +
        `${report || '  (text only: descriptions order or formatting)'}\n` +
        'If the change is intended, run `npm run generate` and commit schema/schema.graphql.\n',
    );
    process.exit(1);
  }
  process.stdout.write('schema/schema.graphql is up to date\n');
  const operationTypes = await restOperationTypes(schema);
  const typesAgainst = process.argv.find((a) => a.startsWith('--operation-types='))?.slice('--operation-types='.length) ?? operationTypesTarget;
  if (readOr(typesAgainst, '') !== operationTypes) {
    process.stderr.write(
      `${OPERATION_TYPES_FILE} is out of date (the schema or rest-facade/resources/**/*.graphql changed):\n` +
        `run \`npm run generate\` and commit ${OPERATION_TYPES_FILE}.\n`,
    );
    process.exit(1);
  }
  process.stdout.write(`${OPERATION_TYPES_FILE} is up to date\n`);
} else {
  writeFileSync(target, sdl);
  writeFileSync(operationTypesTarget, await restOperationTypes(schema));
}
