import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { accountSchema, enterpriseUserSchema, userSchema } from '../../src/schema/user-schema.js';
import { attributeTable } from './attribute-table.js';

const doc = readFileSync(new URL('../../docs/users.md', import.meta.url), 'utf8');

// Cells of each table row, so Markdown formatting (column padding) does not matter.
const cells = (lines: readonly string[]) =>
  lines
    .map((line) => line.trim())
    .filter((line) => line.startsWith('|') && !/^\|[\s:|-]+\|$/.test(line))
    .map((line) =>
      line
        .slice(1, -1)
        .split('|')
        .map((cell) => cell.trim()),
    );

function tableInDoc(urn: string): string[][] {
  const start = doc.indexOf(`<!-- attributes: ${urn} -->`);
  const end = doc.indexOf('<!-- /attributes -->', start);
  expect(start, `docs/users.md has no table for ${urn}`).toBeGreaterThanOrEqual(0);
  return cells(doc.slice(start, end).split('\n'));
}

describe('docs/users.md', () => {
  it.each([userSchema, enterpriseUserSchema, accountSchema])(
    'lists exactly the attributes of $name with their characteristics',
    (schema) => {
      expect(tableInDoc(schema.id)).toEqual(cells(attributeTable(schema)));
    },
  );
});
