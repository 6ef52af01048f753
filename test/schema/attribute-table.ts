import type { AttributeDefinition, SchemaDefinition } from '../../src/schema/types.js';

const HEADER = [
  '| Attribute | Type | Multi-valued | Required | Case exact | Mutability | Returned | Uniqueness | Canonical values |',
  '|---|---|---|---|---|---|---|---|---|',
];

const yes = (b: boolean) => (b ? 'yes' : 'no');

function row(path: string, a: AttributeDefinition): string {
  const canonical = a.canonicalValues?.map((v) => `\`${v}\``).join(', ') ?? '';
  return `| \`${path}\` | ${a.type} | ${yes(a.multiValued)} | ${yes(a.required)} | ${yes(a.caseExact)} | ${a.mutability} | ${a.returned} | ${a.uniqueness} | ${canonical} |`;
}

/**
 * Renders a schema's attributes, sub-attributes after their parent, as the Markdown table
 * docs/users.md shows; the doc test compares the doc with this, so the doc cannot drift.
 */
export function attributeTable(schema: SchemaDefinition): string[] {
  const rows = [...HEADER];
  for (const a of schema.attributes) {
    rows.push(row(a.name, a));
    for (const sub of a.subAttributes ?? []) rows.push(row(`${a.name}.${sub.name}`, sub));
  }
  return rows;
}
