import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runScript } from '../helpers/process.ts';

const committed = readFileSync(new URL('../../schema/schema.graphql', import.meta.url), 'utf8');
const work = mkdtempSync(join(tmpdir(), 'schema-check-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** `npm run schema:check` as CI runs it (tsx schema/print.ts --check), optionally against another snapshot. */
async function schemaCheck(snapshot?: string, operationTypes?: string) {
  const args = ['schema/print.ts', '--check'];
  if (snapshot !== undefined) {
    const file = join(work, `snapshot-${Math.random().toString(36).slice(2)}.graphql`);
    writeFileSync(file, snapshot);
    args.push(`--against=${file}`);
  }
  if (operationTypes !== undefined) {
    const file = join(work, `operations-${Math.random().toString(36).slice(2)}.ts`);
    writeFileSync(file, operationTypes);
    args.push(`--operation-types=${file}`);
  }
  return runScript(args);
}

describe('npm run schema:check', () => {
  it('passes when the committed snapshot is the schema the code builds', async () => {
    expect(await schemaCheck()).toEqual({
      code: 0,
      out: 'schema/schema.graphql is up to date\nrest-facade/generated/operations.ts is up to date\nsrc/web/generated/operations.ts is up to date\n',
    });
  }, 60_000);

  it('fails when the REST facade\'s generated operation types are stale', async () => {
    const generated = readFileSync(new URL('../../rest-facade/generated/operations.ts', import.meta.url), 'utf8');
    // As if a field had been added to a fragment without regenerating.
    const stale = generated.replace('readonly databaseId: number', 'readonly databaseId: number, readonly retired: string');
    expect(stale).not.toBe(generated);
    const result = await schemaCheck(undefined, stale);
    expect(result.code).toBe(1);
    expect(result.out).toContain('rest-facade/generated/operations.ts is out of date');
    expect(result.out).toContain('run `npm run generate`');
  }, 60_000);

  it('fails on any difference and prints the changes classified', async () => {
    // The snapshot had a field the code no longer has: for the code, a field was removed (breaking).
    const withExtra = committed.replace('type Query {\n', 'type Query {\n  retired: String\n');
    const removed = await schemaCheck(withExtra);
    expect(removed.code).toBe(1);
    expect(removed.out).toContain('(1 breaking change)');
    expect(removed.out).toMatch(/breaking \(1\):\n {2}- Field 'retired' (was )?removed from object type 'Query'/);
    expect(removed.out).toContain('run `npm run generate`');

    // The snapshot lacks an argument the code has: an added optional argument (dangerous, not breaking).
    const lacking = committed.replace(/\n\s*"""\n\s*true: a record that does not exist[^\n]*\n\s*"""\n\s*strict: Boolean\n(?=\s*\): Event\n)/, '\n');
    expect(lacking).not.toBe(committed);
    const added = await schemaCheck(lacking);
    expect(added.code).toBe(1);
    expect(added.out).not.toContain('breaking change');
    expect(added.out).toContain("dangerous (1):\n  - Argument 'strict: Boolean' added to field 'Query.event'");

    // Only a description differs: safe, and still a difference the snapshot must record.
    const reworded = committed.replace('"""The signed-in user, or null for anonymous callers."""', '"""The caller."""');
    expect(reworded).not.toBe(committed);
    const safe = await schemaCheck(reworded);
    expect(safe.code).toBe(1);
    expect(safe.out).toMatch(/^schema\/schema.graphql is out of date:\nsafe \(1\):\n {2}- Field 'Query.me' description changed/);
  }, 120_000);
});
