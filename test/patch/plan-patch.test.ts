import { describe, expect, it } from 'vitest';
import { isScimError } from '../../src/errors/index.js';
import type { DeltaPlan } from '../../src/patch/delta-plan.js';
import { patchContext } from '../../src/patch/patch-context.js';
import { planPatch, planPatchWithValues } from '../../src/patch/plan-patch.js';
import { groupResourceType } from '../../src/schema/group-resource-type.js';
import { GROUP_SCHEMA, PATCH_OP_SCHEMA } from '../../src/schema/urns.js';

type Json = Record<string, unknown>;

const type = groupResourceType();
const ctx = patchContext({ resourceType: type });
const members = type.attribute(type.core, 'members')!;
const group: Json = { schemas: [GROUP_SCHEMA], id: 'g', displayName: 'Staff' };
const stored = ['a', 'b', 'c'].map((value) => ({ value }));
const message = (...Operations: unknown[]) => ({ schemas: [PATCH_OP_SCHEMA], Operations });

// The member ids a plan leaves, applied to the stored list as a store applies it.
function applied(plan: DeltaPlan, list: readonly { value: string }[]): string[] {
  const after = plan.list ?? list.filter((m) => !plan.removals.includes(m.value));
  const ids = after.map((m) => m.value);
  for (const m of plan.additions) if (!ids.includes(m.value)) ids.push(m.value);
  return ids.sort();
}

describe('planPatch: membership operations as deltas, read by the engine', () => {
  const planned = [
    message({ op: 'add', path: 'members', value: [{ value: 'd' }, { value: 'a' }] }),
    message({ op: 'ADD', path: 'Members', value: { value: 'd' } }),
    message({ op: 'remove', path: 'members[value eq "b"]' }),
    message({ op: 'remove', path: 'members[value eq "b" or value eq "x"]' }),
    message({ op: 'remove', path: 'members', value: [{ value: 'c' }] }),
    message({ op: 'remove', path: 'members' }),
    message({ op: 'replace', path: 'members', value: [{ value: 'z' }] }),
    message({ op: 'replace', value: { displayName: 'Team', members: [{ value: 'y' }] } }),
    message({ op: 'add', value: { [`${GROUP_SCHEMA}:members`]: [{ value: 'e' }] } }),
    message(
      { op: 'add', path: 'members', value: [{ value: 'd' }] },
      { op: 'remove', path: 'members[value eq "d"]' },
      { op: 'replace', path: 'displayName', value: 'Team' },
    ),
  ];
  for (const body of planned) {
    it(`plans ${JSON.stringify(body.Operations)} as the engine applies it to the list`, () => {
      const plan = planPatch(ctx, group, body, members);
      expect(plan).toBeDefined();
      const whole = planPatchWithValues(ctx, { ...group, members: stored }, body, members);
      expect(applied(plan!.values, stored)).toEqual(applied(whole.values, stored));
      expect(plan!.attributes).toEqual(whole.attributes);
    });
  }

  it('asks for the values when a filter needs them', () => {
    for (const path of ['members[display eq "A"]', 'members[value sw "a"]']) {
      expect(planPatch(ctx, group, message({ op: 'remove', path }), members)).toBeUndefined();
    }
  });

  it('refuses, numbered, what would change a member in place, before reading it', () => {
    const body = message(
      { op: 'replace', path: 'displayName', value: 'Team' },
      { op: 'replace', path: 'members[value eq "a"].value', value: 'b' },
    );
    let caught: unknown;
    try {
      planPatch(ctx, group, body, members);
    } catch (error) {
      caught = error;
    }
    expect(isScimError(caught) && caught.scimType).toBe('mutability');
    expect(isScimError(caught) && caught.detail).toMatch(/^Operation 2: /);
  });
});
