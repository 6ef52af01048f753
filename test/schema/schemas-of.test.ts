import { describe, expect, it } from 'vitest';
import { compileResourceType } from '../../src/schema/resource-type.js';
import { defineAttribute } from '../../src/schema/define-attribute.js';
import { defineSchema } from '../../src/schema/define-schema.js';
import type { SchemaDefinition } from '../../src/schema/types.js';

const CORE = 'urn:example:params:scim:schemas:core:2.0:Thing';
const core = defineSchema({
  id: CORE,
  name: 'Thing',
  description: 'A thing',
  attributes: [defineAttribute('name', 'string')],
});
const extension = (n: number): SchemaDefinition =>
  defineSchema({
    id: `urn:example:params:scim:schemas:extension:x${n}:2.0:Thing`,
    name: `X${n}`,
    description: `Extension ${n}`,
    attributes: [defineAttribute('value', 'string')],
  });
const typeWith = (count: number) =>
  compileResourceType({
    name: 'Thing',
    endpoint: '/Things',
    schema: core,
    extensions: Array.from({ length: count }, (_, i) => extension(i)),
  });

// The plain rule: the core schema, then each extension the resource holds, in declared order.
function expected(extensions: readonly SchemaDefinition[], held: number): string[] {
  return [CORE, ...extensions.filter((_, i) => (held & (1 << i)) !== 0).map((e) => e.id)];
}

function resourceHolding(extensions: readonly SchemaDefinition[], held: number) {
  const resource: Record<string, unknown> = { name: 'n' };
  extensions.forEach((e, i) => {
    if ((held & (1 << i)) !== 0) resource[e.id] = { value: 'v' };
  });
  return resource;
}

describe('CompiledResourceType.schemasOf', () => {
  it('lists the extensions held, in declared order, as a frozen array', () => {
    const type = typeWith(3);
    for (let held = 0; held < 8; held++) {
      const list = type.schemasOf(resourceHolding(type.extensions, held));
      expect(list).toEqual(expected(type.extensions, held));
      expect(Object.isFrozen(list)).toBe(true);
    }
  });

  it('lists them right for a type with many extensions', () => {
    const type = typeWith(12);
    for (const held of [0, 1, 0b100000000001, 0b111111111111, 0b010101010101]) {
      const list = type.schemasOf(resourceHolding(type.extensions, held));
      expect(list).toEqual(expected(type.extensions, held));
      expect(Object.isFrozen(list)).toBe(true);
    }
  });
});
