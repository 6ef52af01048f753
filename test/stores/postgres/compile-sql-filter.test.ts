import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CompareOperator, Filter } from '../../../src/filter/ast.js';
import { compileSqlFilter } from '../../../src/stores/postgres/index.js';

const compare = (
  attribute: string,
  op: CompareOperator,
  value: string,
  subAttribute?: string,
): Filter => ({
  kind: 'compare',
  path: subAttribute ? { attribute, subAttribute } : { attribute },
  op,
  value,
});

describe('compileSqlFilter', () => {
  it('compiles userName eq to the key column its unique index covers, the literal folded', () => {
    expect(compileSqlFilter(compare('userName', 'eq', 'E\u0301MILE@B.c'), 4)).toEqual({
      sql: 'user_name_key = $4',
      params: ['émile@b.c'],
    });
    expect(compileSqlFilter(compare('userName', 'sw', 'ΣΑ_'), 1)).toEqual({
      sql: 'user_name_key LIKE $1',
      params: ['σα\\_%'],
    });
  });

  it('escapes LIKE wildcards in the parameter, not in the SQL', () => {
    const { sql, params } = compileSqlFilter(compare('externalId', 'co', '50%_\\'));
    expect(sql).toBe('(external_id LIKE $1 AND external_id IS NOT NULL)');
    expect(params).toEqual(['%50\\%\\_\\\\%']);
  });

  it('rejects attributes no schema defines, and comparisons on complex attributes', () => {
    expect(() => compileSqlFilter(compare('shoeSize', 'eq', '9'))).toThrow(/Unknown attribute/);
    expect(() => compileSqlFilter(compare('name', 'eq', 'x'))).toThrow(/complex/);
  });

  it('never puts a value in the SQL text: the text depends only on the filter shape', () => {
    const op = fc.constantFrom<CompareOperator>(
      'eq',
      'ne',
      'co',
      'sw',
      'ew',
      'gt',
      'lt',
      'ge',
      'le',
    );
    const path = fc.constantFrom(
      ['userName'],
      ['externalId'],
      ['id'],
      ['displayName'],
      ['name', 'givenName'],
      ['emails', 'value'],
      ['emails'],
    );
    const value = fc.string({
      unit: fc.constantFrom("'", '"', '\\', '%', '_', '$', ';', '-', 'x', ')', 'Ω'),
    });
    fc.assert(
      fc.property(path, op, value, value, ([attribute = '', sub], operator, v1, v2) => {
        const a = compileSqlFilter({ kind: 'not', filter: compare(attribute, operator, v1, sub) });
        const b = compileSqlFilter({ kind: 'not', filter: compare(attribute, operator, v2, sub) });
        expect(a.sql).toBe(b.sql);
        expect(a.sql).not.toMatch(/[\\;%]/);
        expect(a.params.length).toBe(b.params.length);
      }),
      { numRuns: 500 },
    );
  });
});
