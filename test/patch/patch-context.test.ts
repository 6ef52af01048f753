import { describe, expect, it } from 'vitest';
import { applyPatchIn } from '../../src/patch/apply-patch.js';
import { patchContext } from '../../src/patch/patch-context.js';
import { userResourceType } from '../../src/schema/user-resource-type.js';
import { failure, message, storedUser } from './fixtures.js';

describe('the PATCH context', () => {
  it("reads the resource type's index and rules", () => {
    const type = userResourceType();
    const first = patchContext({ resourceType: type });
    expect(first.index).toBe(type);
    expect(first.rules).toBe(type.rules);
    const strict = userResourceType({ rules: { stringBooleans: false } });
    const second = patchContext({ resourceType: strict });
    expect(second).not.toBe(first);
    expect(second.rules.stringBooleans).toBe(false);
  });

  it('applies the same path in one context to any resource', () => {
    const ctx = patchContext({ resourceType: userResourceType() });
    const op = { op: 'replace', path: 'emails[type eq "work"].value', value: 'a@work.example' };
    const once = applyPatchIn(ctx, storedUser(), message(op));
    const other = { ...storedUser(), emails: [{ value: 'x@home.example', type: 'home' }] };
    const twice = applyPatchIn(ctx, other, message(op));
    expect(once.resource.emails).toEqual([
      { value: 'a@work.example', type: 'work', primary: true },
      { value: 'ada@home.example', type: 'home' },
    ]);
    // The filter matched nothing in the second user: the value is created with what it pins.
    expect(twice.resource.emails).toEqual([
      { value: 'x@home.example', type: 'home' },
      { value: 'a@work.example', type: 'work' },
    ]);
  });

  it('fails a path that names nothing, every time', () => {
    const ctx = patchContext({ resourceType: userResourceType() });
    for (let i = 0; i < 2; i++) {
      const error = failure(() =>
        applyPatchIn(ctx, storedUser(), message({ op: 'replace', path: 'nope', value: 1 })),
      );
      expect(error.scimType).toBe('invalidPath');
    }
  });
});
