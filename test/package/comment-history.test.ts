import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// Comments in the sources explain the code as it is. How it came to be is in git, and the
// figures are in bench/ with the commands that reproduce them, so a comment that cites a dated
// run, an issue, a session, a round, a branch or a results section goes stale the day it is
// written.

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SRC = join(ROOT, 'src');

/** The forms of project history a comment must not carry, each with the name a failure shows. */
const HISTORY: readonly (readonly [string, RegExp])[] = [
  ['a session', /\bsession \d+/i],
  ['an issue', /\bissue #?\d+|(?:^|[\s(])#\d+\b/i],
  ['a round', /\bround \d+/i],
  ['a branch', /\bbranch `/i],
  ['a results section', /RESULTS\.md|DEVICES\.md|\bsee RESULTS\b/i],
  // A date outside a code span: a date-time example such as `2026-01-31T12:00:00Z` is code.
  ['a dated run', /\b20\d{2}-\d{2}-\d{2}\b/],
];

/** Every `.ts` file under `dir`, as absolute paths. */
function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

/** The comments of a TypeScript text (TSDoc included), each with the line it starts on. */
function commentsOf(text: string): { line: number; text: string }[] {
  const file = ts.createSourceFile('file.ts', text, ts.ScriptTarget.Latest, false);
  const found = new Map<number, ts.CommentRange>();
  const visit = (node: ts.Node): void => {
    for (const range of [
      ...(ts.getLeadingCommentRanges(text, node.getFullStart()) ?? []),
      ...(ts.getTrailingCommentRanges(text, node.getEnd()) ?? []),
    ]) {
      found.set(range.pos, range);
    }
    for (const child of node.getChildren(file)) visit(child);
  };
  visit(file);
  return [...found.values()]
    .sort((a, b) => a.pos - b.pos)
    .map((range) => ({
      line: file.getLineAndCharacterOfPosition(range.pos).line + 1,
      text: text.slice(range.pos, range.end),
    }));
}

/** The history a text's comments carry, as `line: kind: comment line` entries. */
function historyIn(text: string): string[] {
  return commentsOf(text).flatMap((comment) =>
    comment.text.split('\n').flatMap((commentLine, i) => {
      const prose = commentLine.replace(/`[^`]*`/g, '``');
      return HISTORY.filter(([, pattern]) => pattern.test(prose)).map(
        ([kind]) => `${comment.line + i}: ${kind}: ${commentLine.trim()}`,
      );
    }),
  );
}

describe('the comments of src/', () => {
  it('finds history in comments of every kind, and not in code or code spans', () => {
    const sample = [
      '// Chosen in session 13.',
      '/* Fixes issue 12. */',
      '/**',
      ' * Faster this way (bench/RESULTS.md, Round 5), measured on 2026-11-22;',
      ' * kept from branch `speed`, see #42.',
      ' */',
      "const at = '2026-01-31T12:00:00Z'; // a date such as `2026-02-30` is refused",
      'const x = 1; /* see RESULTS */',
    ].join('\n');
    expect(historyIn(sample).map((entry) => entry.split(': ').slice(0, 2).join(': '))).toEqual([
      '1: a session',
      '2: an issue',
      '4: a round',
      '4: a results section',
      '4: a dated run',
      '5: an issue',
      '5: a branch',
      '8: a results section',
    ]);
  });

  it('cite no dated run, issue, session, round, branch or results section', () => {
    const files = tsFiles(SRC);
    expect(files.length).toBeGreaterThan(100);
    const found = files.flatMap((path) =>
      historyIn(readFileSync(path, 'utf8')).map((entry) => `${relative(ROOT, path)}:${entry}`),
    );
    expect(found).toEqual([]);
  });
});
