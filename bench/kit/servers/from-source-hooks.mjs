/* global URL */
// Resolves `scimkit` and `scimkit/<entry>` to the source file its exports-map target is built
// from (`./dist/x/index.js` is built from `src/x/index.ts`); tsx, registered before, resolves and loads it.
import { readFileSync } from 'node:fs';

const root = new URL('../../../', import.meta.url);
const { exports } = JSON.parse(readFileSync(new URL('package.json', root), 'utf8'));

export async function resolve(specifier, context, nextResolve) {
  if (specifier === 'scimkit' || specifier.startsWith('scimkit/')) {
    const target = exports[`.${specifier.slice('scimkit'.length)}`]?.import;
    if (typeof target === 'string' && target.startsWith('./dist/')) {
      const source = target.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts');
      return nextResolve(new URL(source, root).href, context);
    }
  }
  return nextResolve(specifier, context);
}
