import { describe, expect, it } from 'vitest';
import { FIRST_VERSION, nextVersion } from '../../src/schema/version.js';

describe('nextVersion', () => {
  it('counts up a weak ETag of the form W/"n"', () => {
    expect(nextVersion(FIRST_VERSION)).toBe('W/"2"');
    expect(nextVersion('W/"9"')).toBe('W/"10"');
    expect(nextVersion('W/"123456789"')).toBe('W/"123456790"');
  });

  it('restarts above 1 from a version in another form, as a custom store may write it', () => {
    for (const other of ['"7"', 'W/"abc"', 'W/""', 'W/"1.5"', 'W/"-3"', 'W/"7" ', 'x', '']) {
      expect(nextVersion(other)).toBe('W/"2"');
    }
  });
});
