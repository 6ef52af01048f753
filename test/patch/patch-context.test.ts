import { describe, expect, it } from 'vitest';
import { applyPatch, applyPatchIn } from '../../src/patch/apply-patch.js';
import { patchContext } from '../../src/patch/patch-context.js';
import { resolvePath } from '../../src/patch/resolve-target.js';
import { userResourceType } from '../../src/schema/user-resource-type.js';
import { failure, message, storedUser } from './fixtures.js';

describe('the PATCH context and its remembered paths', () => {
  it("reads the resource type's index and rules, and starts with no remembered path", () => {
    const type = userResourceType();
    const first = patchContext({ resourceType: type });
    expect(first.index).toBe(type);
    expect(first.rules).toBe(type.rules);
    expect(first.paths.size).toBe(0);
    const strict = userResourceType({ rules: { stringBooleans: false } });
    const second = patchContext({ resourceType: strict });
    expect(second).not.toBe(first);
    expect(second.rules.stringBooleans).toBe(false);
  });

  it('applies a remembered path exactly as the first time, on any resource', () => {
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
    expect(ctx.paths.size).toBe(1);
  });

  it('remembers no path that fails, and fails it again every time', () => {
    const ctx = patchContext({ resourceType: userResourceType() });
    for (let i = 0; i < 2; i++) {
      const error = failure(() =>
        applyPatchIn(ctx, storedUser(), message({ op: 'replace', path: 'nope', value: 1 })),
      );
      expect(error.scimType).toBe('invalidPath');
    }
    expect(ctx.paths.size).toBe(0);
  });

  it('keeps the paths on the resource type: every applyPatch call with it shares them', () => {
    const resourceType = userResourceType();
    const op = { op: 'replace', path: 'displayName', value: 'Ada' };
    applyPatch(storedUser(), message(op), { resourceType });
    applyPatch(storedUser(), message(op), { resourceType, maxOperations: 5 });
    expect(patchContext({ resourceType }).paths.size).toBe(1);
    expect(patchContext({ resourceType: userResourceType() }).paths.size).toBe(0);
  });

  it('keeps at most 256 paths, however many distinct ones clients send', () => {
    const ctx = patchContext({ resourceType: userResourceType() });
    for (let i = 0; i < 1000; i++) resolvePath(ctx, `emails[value eq "${i}@example.org"]`);
    expect(ctx.paths.size).toBeLessThanOrEqual(256);
    expect(ctx.paths.size).toBeGreaterThan(0);
  });
});
