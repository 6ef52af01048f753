import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The guides are written for users of the package: they link to what a user has (the other
// guides, the examples, the API reference), never into the sources, tests or benchmarks, which
// are not in the package, and they carry no project history (issue or session numbers).

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DOCS = join(ROOT, 'docs');
const guides = readdirSync(DOCS)
  .filter((name) => name.endsWith('.md'))
  .sort();
const files = [join(ROOT, 'README.md'), ...guides.map((name) => join(DOCS, name))];
const NOT_SHIPPED = ['src', 'test', 'bench'];

/** Every link target of a Markdown text: inline, reference definitions, and HTML attributes. */
function linkTargets(text: string): string[] {
  const inline = [...text.matchAll(/\]\(\s*<?([^)\s>]+)/g)].map((m) => m[1] ?? '');
  const defined = [...text.matchAll(/^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)].map(
    (m) => m[1] ?? '',
  );
  const html = [...text.matchAll(/\b(?:href|src)\s*=\s*["']([^"']+)["']/g)].map((m) => m[1] ?? '');
  return [...inline, ...defined, ...html];
}

/** The top-level folder of the repository a relative link from `file` lands in, if any. */
function landsIn(file: string, target: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('#')) return undefined;
  const path = target.split(/[?#]/)[0] ?? '';
  if (path === '') return undefined;
  const from = relative(ROOT, resolve(dirname(file), path));
  return from.startsWith('..') ? undefined : from.split(sep)[0];
}

describe('the user guides', () => {
  it('finds the guides and their links (the checks below have something to check)', () => {
    expect(guides.length).toBeGreaterThan(10);
    expect(linkTargets('[a](../src/x.ts)\n[b]: ../test/y.ts\n<a href="../bench/z.md">')).toEqual([
      '../src/x.ts',
      '../test/y.ts',
      '../bench/z.md',
    ]);
    expect(landsIn(join(DOCS, 'a.md'), '../src/core/x.ts#L3')).toBe('src');
    expect(landsIn(join(DOCS, 'a.md'), 'keys.md#scopes')).toBe('docs');
    expect(landsIn(join(DOCS, 'a.md'), 'https://example.org/src/x')).toBe(undefined);
  });

  it('are each listed in the README guide table', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const start = readme.indexOf('\n## Documentation\n');
    expect(start, 'README.md has a "Documentation" section').toBeGreaterThan(0);
    const end = readme.indexOf('\n## ', start + 1);
    const section = readme.slice(start, end < 0 ? undefined : end);
    const listed = new Set(
      [...section.matchAll(/^\|\s*\[[^\]]*\]\(docs\/([^)#]+\.md)\)/gm)].map((m) => m[1]),
    );
    expect(guides.filter((name) => !listed.has(name))).toEqual([]);
  });

  it('link to nothing that is not in the package: no source, test or benchmark file', () => {
    const bad = files.flatMap((file) =>
      linkTargets(readFileSync(file, 'utf8'))
        .filter((target) => NOT_SHIPPED.includes(landsIn(file, target) ?? ''))
        .map((target) => `${relative(ROOT, file)} → ${target}`),
    );
    expect(bad).toEqual([]);
  });

  it('carry no project history: issue, session or round numbers, internal references', () => {
    const history = /\b(?:issue|session|round) \d+\b|peers\.md|shared\/reference\//gi;
    const bad = files.flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, i) =>
          line.match(history) ? [`${relative(ROOT, file)}:${i + 1}: ${line.trim()}`] : [],
        ),
    );
    expect(bad).toEqual([]);
  });
});
