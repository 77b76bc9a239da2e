// `npm run schema:breaking` (CI): compares the committed schema (schema/schema.graphql) with the
// baseline clients were promised (schema/schema.baseline.graphql, updated deliberately, e.g. at a
// release) and fails on a breaking change (GraphQL Inspector) that schema/declared-breaks.json does
// not declare. It also checks the deprecation convention: every reason reads `Use <field>.` and names
// a field of the same type that is not itself deprecated. `--current=`, `--baseline=` and
// `--declared=` point at other files (the tests feed it bad schemas).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildSchema, isInputObjectType, isInterfaceType, isObjectType, type GraphQLSchema } from 'graphql';
import { z } from 'zod';
import { CriticalityLevel } from '@graphql-inspector/core';
import { compareSchemas } from './diff.ts';

const DeclaredBreaks = z.array(
  z.object({
    /** Inspector's change type, e.g. FIELD_REMOVED. */
    type: z.string().min(1),
    /** Inspector's path, e.g. Venue.stateprovince. */
    path: z.string().min(1),
    /** Why clients may accept it (shown in the report). */
    reason: z.string().min(1),
  }),
);

const option = (name: string, fallback: string) =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fileURLToPath(new URL(fallback, import.meta.url));

/** Deprecations that do not follow `Use <field>.` with a live replacement on the same type. */
function deprecationProblems(schema: GraphQLSchema): string[] {
  const problems: string[] = [];
  for (const type of Object.values(schema.getTypeMap())) {
    if (type.name.startsWith('__') || !(isObjectType(type) || isInterfaceType(type) || isInputObjectType(type))) continue;
    const fields = type.getFields();
    for (const field of Object.values(fields)) {
      const reason = field.deprecationReason;
      if (reason == null) continue;
      const replacement = /^Use (\w+)\.$/.exec(reason)?.[1];
      if (!replacement) problems.push(`${type.name}.${field.name}: deprecation reason ${JSON.stringify(reason)} does not read "Use <field>."`);
      else if (!fields[replacement]) problems.push(`${type.name}.${field.name}: replacement ${replacement} is not a field of ${type.name}`);
      else if (fields[replacement].deprecationReason != null) problems.push(`${type.name}.${field.name}: replacement ${replacement} is itself deprecated`);
    }
  }
  return problems;
}

const currentFile = option('current', './schema.graphql');
const baselineFile = option('baseline', './schema.baseline.graphql');
const declaredFile = option('declared', './declared-breaks.json');
const current = readFileSync(currentFile, 'utf8');
const declared = DeclaredBreaks.parse(JSON.parse(readFileSync(declaredFile, 'utf8')));
const { changes, report } = await compareSchemas(readFileSync(baselineFile, 'utf8'), current);

const key = (c: { type: string; path?: string }) => `${c.type} ${c.path ?? ''}`;
const breaking = changes.filter((c) => c.criticality.level === CriticalityLevel.Breaking);
const declaredKeys = new Set(declared.map(key));
const undeclared = breaking.filter((c) => !declaredKeys.has(key(c)));
const stale = declared.filter((d) => !breaking.some((c) => key(c) === key(d)));
const problems = deprecationProblems(buildSchema(current));

if (report) process.stdout.write(`Changes since the baseline:\n${report}\n`);
for (const d of declared) if (!stale.includes(d)) process.stdout.write(`declared break ${key(d)}: ${d.reason}\n`);
const failures = [
  ...undeclared.map((c) => `undeclared breaking change ${key(c)}: ${c.message}`),
  ...stale.map((d) => `declared break ${key(d)} does not happen: remove it from ${declaredFile}`),
  ...problems,
];
if (failures.length) {
  process.stderr.write(
    `${failures.map((f) => `  - ${f}`).join('\n')}\n` +
      'Make the change additive (add the new field, deprecate the old one with "Use <field>."), or declare the break in ' +
      'schema/declared-breaks.json ({ "type", "path", "reason" }).\n',
  );
  process.exit(1);
}
process.stdout.write(`no undeclared breaking change against ${baselineFile.split('/').slice(-2).join('/')}\n`);
