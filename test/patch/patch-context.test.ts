import { describe, expect, it } from 'vitest';
import { applyPatch, type PatchOptions } from '../../src/patch/index.js';
import { patchContext } from '../../src/patch/patch-context.js';
import { resolvePath } from '../../src/patch/resolve-target.js';
import { failure, message, SCHEMAS, storedUser } from './fixtures.js';

describe('the PATCH context and its remembered paths', () => {
  it('is built once per options object and rebuilt when its rules are swapped', () => {
    const options: {
      schemas: PatchOptions['schemas'];
      rules?: NonNullable<PatchOptions['rules']>;
    } = {
      schemas: SCHEMAS,
    };
    const first = patchContext(options);
    expect(patchContext(options)).toBe(first);
    options.rules = { stringBooleans: false };
    const second = patchContext(options);
    expect(second).not.toBe(first);
    expect(second.rules.stringBooleans).toBe(false);
  });

  it('applies a remembered path exactly as the first time, on any resource', () => {
    const options: PatchOptions = { schemas: SCHEMAS };
    const op = { op: 'replace', path: 'emails[type eq "work"].value', value: 'a@work.example' };
    const once = applyPatch(storedUser(), message(op), options);
    const other = { ...storedUser(), emails: [{ value: 'x@home.example', type: 'home' }] };
    const twice = applyPatch(other, message(op), options);
    expect(once.resource.emails).toEqual([
      { value: 'a@work.example', type: 'work', primary: true },
      { value: 'ada@home.example', type: 'home' },
    ]);
    // The filter matched nothing in the second user: the value is created with what it pins.
    expect(twice.resource.emails).toEqual([
      { value: 'x@home.example', type: 'home' },
      { value: 'a@work.example', type: 'work' },
    ]);
    expect(patchContext(options).paths.size).toBe(1);
  });

  it('remembers no path that fails, and fails it again every time', () => {
    const options: PatchOptions = { schemas: SCHEMAS };
    for (let i = 0; i < 2; i++) {
      const error = failure(() =>
        applyPatch(storedUser(), message({ op: 'replace', path: 'nope', value: 1 }), options),
      );
      expect(error.scimType).toBe('invalidPath');
    }
    expect(patchContext(options).paths.size).toBe(0);
  });

  it('keeps at most 256 paths, however many distinct ones clients send', () => {
    const ctx = patchContext({ schemas: SCHEMAS });
    for (let i = 0; i < 1000; i++) resolvePath(ctx, `emails[value eq "${i}@example.org"]`);
    expect(ctx.paths.size).toBeLessThanOrEqual(256);
    expect(ctx.paths.size).toBeGreaterThan(0);
  });
});
