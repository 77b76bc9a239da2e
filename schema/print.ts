// Prints the SDL to schema/schema.graphql (committed; CI checks it is current).
import { writeFileSync } from 'node:fs';
import { lexicographicSortSchema, printSchema } from 'graphql';
import { schema } from './index.ts';

const target = new URL('./schema.graphql', import.meta.url);
const sdl = printSchema(lexicographicSortSchema(schema)) + '\n';
if (process.argv.includes('--check')) {
  const { readFileSync } = await import('node:fs');
  const current = (() => {
    try {
      return readFileSync(target, 'utf8');
    } catch {
      return '';
    }
  })();
  if (current !== sdl) {
    process.stderr.write('schema/schema.graphql is out of date: run `npm run generate`\n');
    process.exit(1);
  }
} else {
  writeFileSync(target, sdl);
}
