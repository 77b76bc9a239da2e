import { describe, expect, it } from 'vitest';

/** A row of a table: the arguments, then what the function returns for them. */
type Row<A extends unknown[], R> = readonly [...args: A, expected: R];

/**
 * Table-driven checks of one pure function, passed by name (`{ slugify }`): under each group's name
 * (what its rows show), one test a row, named after the call, in which `fn(...args)` must be
 * `expected` (`toBe`: the same string, number, boolean or null).
 */
export function describeCases<A extends unknown[], R>(named: Record<string, (...args: A) => R>, groups: Record<string, ReadonlyArray<Row<A, NoInfer<R>>>>): void {
  const [[name, fn], ...more] = Object.entries(named);
  if (more.length) throw new Error('describeCases checks one function');
  for (const [group, rows] of Object.entries(groups)) {
    describe(group, () => {
      for (const row of rows) {
        const args = row.slice(0, -1) as unknown as A;
        const expected = row[row.length - 1] as R;
        it(`${name}(${args.map((a) => JSON.stringify(a)).join(', ')}) → ${JSON.stringify(expected)}`, () => {
          expect(fn(...args)).toBe(expected);
        });
      }
    });
  }
}
