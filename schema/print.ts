// Prints the SDL to schema/schema.graphql (committed). With --check, compares the schema the code
// builds with the committed snapshot (or the file given as --against=<path>): prints the changes,
// breaking / dangerous / safe (GraphQL Inspector), and fails when they differ, so that any change,
// a breaking one above all, lands only by regenerating the snapshot deliberately (`npm run generate`).
// The operation types of the core's in-process clients (schema/codegen.ts: the REST facade's and the
// pages'), generated from this schema, are written and checked with it: a stale generated file fails the
// check too (`--operation-types=<path>` checks another copy of the REST facade's).
import { readFileSync, writeFileSync } from 'node:fs';
import { lexicographicSortSchema, printSchema } from 'graphql';
import { OPERATION_CLIENTS, operationTypes, outputUrl } from './codegen.ts';
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
  for (const [i, client] of OPERATION_CLIENTS.entries()) {
    const generated = await operationTypes(schema, client);
    const custom = i === 0 ? process.argv.find((a) => a.startsWith('--operation-types='))?.slice('--operation-types='.length) : undefined;
    if (readOr(custom ?? outputUrl(client), '') !== generated) {
      process.stderr.write(
        `${client.output} is out of date (the schema or ${client.documents}**/*.graphql changed):\n` +
          `run \`npm run generate\` and commit ${client.output}.\n`,
      );
      process.exit(1);
    }
    process.stdout.write(`${client.output} is up to date\n`);
  }
} else {
  writeFileSync(target, sdl);
  for (const client of OPERATION_CLIENTS) writeFileSync(outputUrl(client), await operationTypes(schema, client));
}
