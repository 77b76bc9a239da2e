import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { afterAll, describe, expect, it } from 'vitest';
import { runScript } from '../helpers/process.ts';

// The CI checks of the schema conventions (docs/graphql.md → Schema conventions): `npm run lint:schema`
// (graphql-eslint, eslint.config.mjs) and `npm run schema:breaking` (schema/breaking.ts), fed our
// committed schema (they pass) and bad ones (they fail).
const root = new URL('../../', import.meta.url).pathname;
const committed = readFileSync(join(root, 'schema/schema.graphql'), 'utf8');
const work = mkdtempSync(join(tmpdir(), 'schema-conventions-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

async function lint(sdl: string) {
  const eslint = new ESLint({ cwd: root });
  const [result] = await eslint.lintText(sdl, { filePath: join(root, 'schema/schema.graphql') });
  return result.messages.map((m) => `${m.ruleId}: ${m.message}`);
}

function write(name: string, text: string) {
  const file = join(work, `${Math.random().toString(36).slice(2)}-${name}`);
  writeFileSync(file, text);
  return file;
}

function breakingCheck(current: string, declared: unknown[] = []) {
  return runScript(['schema/breaking.ts', `--current=${write('current.graphql', current)}`, `--declared=${write('declared.json', JSON.stringify(declared))}`]);
}

const venueField = '  stateprovince: String! @deprecated(reason: "Use stateProvince.")\n';

describe('npm run lint:schema', () => {
  it('passes on the committed schema', async () => {
    expect(await lint(committed)).toEqual([]);
  }, 120_000);

  it('fails on a lowercase type, a snake_case field and a deprecation without reason', async () => {
    expect(committed).toContain('type Venue implements');
    expect(committed).toContain(venueField);
    const bad = committed
      .replace('type Venue implements', 'type venue implements')
      .replace(/(\W)Venue([!\]\s])/g, '$1venue$2')
      .replace(venueField, '  state_province: String!\n  stateprovince: String! @deprecated\n');
    const messages = await lint(bad);
    expect(messages).toContainEqual(expect.stringMatching(/^@graphql-eslint\/naming-convention: Type "venue" should be in PascalCase/));
    expect(messages).toContainEqual(expect.stringMatching(/^@graphql-eslint\/naming-convention: Field "state_province" should be in camelCase/));
    expect(messages).toContainEqual(expect.stringMatching(/^@graphql-eslint\/require-deprecation-reason:/));
  }, 120_000);
});

describe('npm run schema:breaking', () => {
  it('passes on the committed schema against the baseline', async () => {
    const result = await breakingCheck(committed);
    expect(result.out).toContain('no undeclared breaking change against schema/schema.baseline.graphql');
    expect(result.code).toBe(0);
  }, 120_000);

  it('fails on a removed field unless the break is declared', async () => {
    const removed = committed.replace(venueField, '');
    expect(removed).not.toBe(committed);
    const failed = await breakingCheck(removed);
    expect(failed.code).toBe(1);
    expect(failed.out).toContain('undeclared breaking change FIELD_REMOVED Venue.stateprovince');

    const declared = await breakingCheck(removed, [{ type: 'FIELD_REMOVED', path: 'Venue.stateprovince', reason: 'Deprecated since 0.1.' }]);
    expect(declared.out).toContain('declared break FIELD_REMOVED Venue.stateprovince: Deprecated since 0.1.');
    expect(declared.code).toBe(0);

    // A declaration of a break that does not happen is stale: it fails too.
    const stale = await breakingCheck(committed, [{ type: 'FIELD_REMOVED', path: 'Venue.stateprovince', reason: 'Deprecated since 0.1.' }]);
    expect(stale.code).toBe(1);
    expect(stale.out).toContain('declared break FIELD_REMOVED Venue.stateprovince does not happen');
  }, 120_000);

  it('fails on a deprecation that does not name a live replacement', async () => {
    const result = await breakingCheck(committed.replace(venueField, '  stateprovince: String! @deprecated(reason: "Use stateOrProvince.")\n'));
    expect(result.code).toBe(1);
    expect(result.out).toContain('Venue.stateprovince: replacement stateOrProvince is not a field of Venue');
  }, 120_000);
});
