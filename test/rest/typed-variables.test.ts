// The REST facade builds each operation's variables as the generated `…Variables` type
// (rest-facade/generated/operations.ts), so a field the schema renames fails the type check, not a
// request. Shown here the way a rename would arrive: the generated module with members renamed (as
// `npm run generate` would write it after the schema change), and the facade's real sources type-checked
// against it in memory (nothing on disk changes).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const at = (path: string) => ts.sys.resolvePath(`${root}${path}`);
const GENERATED = at('rest-facade/generated/operations.ts');

/** A member of a generated type renamed: `type` is the generated type, `file` the facade source that sets `from`. */
interface Rename {
  type: string;
  from: string;
  to: string;
  file: string;
}

const RENAMES: Rename[] = [
  { type: 'EventFilter', from: 'categories', to: 'categoryIds', file: 'rest-facade/resources/events/endpoints.ts' },
  { type: 'UpdateEventInput', from: 'allDay', to: 'isAllDay', file: 'rest-facade/resources/events/endpoints.ts' },
  { type: 'EventsArchiveQueryVariables', from: 'perPage', to: 'first', file: 'rest-facade/resources/events/endpoints.ts' },
  { type: 'LinkedPostFilter', from: 'hasEvents', to: 'withEvents', file: 'rest-facade/resources/linked-posts/endpoints.ts' },
  { type: 'UpdateVenueInput', from: 'city', to: 'town', file: 'rest-facade/resources/linked-posts/input.ts' },
  { type: 'TermFilter', from: 'hideEmpty', to: 'hideUnused', file: 'rest-facade/resources/terms/endpoints.ts' },
];

/** The generated module with `rename` applied inside the declaration of its type. */
function renamed(source: string, { type, from, to }: Rename): string {
  const start = source.indexOf(`export type ${type} = `);
  const end = source.indexOf('\n};', start);
  expect(start, type).toBeGreaterThanOrEqual(0);
  const body = source.slice(start, end);
  const member = new RegExp(`^(\\s+(?:readonly )?)${from}(\\??:)`, 'm');
  expect(body, `${type}.${from}`).toMatch(member);
  return source.slice(0, start) + body.replace(member, `$1${to}$2`) + source.slice(end);
}

describe('facade variables are typed by the generated operation types', () => {
  it('a renamed input field or variable fails the type check where the facade sets it', { timeout: 120_000 }, () => {
    const config = ts.getParsedCommandLineOfConfigFile(at('tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
    if (!config) throw new Error('tsconfig.json not read');
    const generated = RENAMES.reduce(renamed, readFileSync(GENERATED, 'utf8'));
    const host = ts.createCompilerHost(config.options);
    const readFile = host.readFile.bind(host);
    host.readFile = (file) => (ts.sys.resolvePath(file) === GENERATED ? generated : readFile(file));
    const files = [...new Set(RENAMES.map((r) => at(r.file)))];
    const program = ts.createProgram(files, { ...config.options, noEmit: true }, host);

    const errors = files.flatMap((file) =>
      program.getSemanticDiagnostics(program.getSourceFile(file)).map((d) => ({ file, text: ts.flattenDiagnosticMessageText(d.messageText, '\n') })),
    );
    for (const { from, file, type } of RENAMES) {
      const hit = errors.filter((e) => e.file === at(file) && new RegExp(`['"]${from}['"]`).test(e.text));
      expect(hit.length, `${type}.${from} renamed: no error in ${file}`).toBeGreaterThan(0);
    }
    // Nothing else fails: every error is one of the renames..
    for (const e of errors) expect(RENAMES.some((r) => new RegExp(`['"]${r.from}['"]`).test(e.text) || e.text.includes(r.to)), e.text).toBe(true);
  });
});
