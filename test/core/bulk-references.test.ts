import { describe, expect, it } from 'vitest';
import { referencedBulkIds } from '../../src/core/bulk/bulk-references.js';

// The plain rule: every string that is exactly `bulkId:<id>` at any depth, or a path segment.
function plainReferences(path: string, data: unknown): string[] {
  const found = new Set<string>();
  for (const segment of path.split('/'))
    if (segment.startsWith('bulkId:')) found.add(segment.slice('bulkId:'.length));
  const walk = (value: unknown): void => {
    if (typeof value === 'string') {
      if (value.startsWith('bulkId:')) found.add(value.slice('bulkId:'.length));
    } else if (Array.isArray(value)) value.forEach(walk);
    else if (typeof value === 'object' && value !== null) Object.values(value).forEach(walk);
  };
  walk(data);
  return [...found].sort();
}

describe('referencedBulkIds', () => {
  it('finds references in the path and at any depth of data, and none where there are none', () => {
    const cases: [string, unknown][] = [
      ['/Groups/bulkId:g', { members: [{ value: 'bulkId:a' }, { value: 'bulkId:b' }] }],
      ['/Users', { schemas: ['x'], userName: 'bulkId', nested: { deep: [['bulkId:c']] } }],
      ['/Users/abc', { userName: 'ada', emails: [{ value: 'ada@example.org' }] }],
      ['/Users/abc', undefined],
      ['/Users/bulkId:', { value: 'bulkId:' }],
      ['/Groups', { members: [{ value: 'bulkId:a' }, { value: 'bulkId:a' }] }],
    ];
    for (const [path, data] of cases)
      expect([...referencedBulkIds(path, data)].sort()).toEqual(plainReferences(path, data));
  });

  it('gives operations without references a set that later ones cannot have filled', () => {
    const none = referencedBulkIds('/Users/x', { userName: 'ada' });
    expect(none.size).toBe(0);
    referencedBulkIds('/Groups/bulkId:g', { members: [{ value: 'bulkId:a' }] });
    expect(referencedBulkIds('/Users/y', {}).size).toBe(0);
    expect(none.size).toBe(0);
  });
});
