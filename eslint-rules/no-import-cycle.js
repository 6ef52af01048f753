// @ts-check
import { relative } from 'node:path';
import { ImportGraph, resolveImport } from './import-graph.js';

// One graph for the whole lint run: each file is read and scanned once, however many files
// import it, instead of once per importing file; an entry is dropped when its file changes.
const graph = new ImportGraph();

/**
 * Reports an import that closes an import cycle: one whose target imports, directly or
 * through other files, the file being linted. Every relative import counts, `import type`,
 * `export ... from`, `import('...')` types and dynamic imports included: STYLE.md wants no
 * cycle "even through types", and the import plugins' `no-cycle` skips type-only imports.
 *
 * @type {import('eslint').Rule.RuleModule}
 */
export const noImportCycle = {
  meta: {
    type: 'problem',
    docs: { description: 'Forbid import cycles among relative imports, type-only ones included.' },
    schema: [],
    messages: { cycle: 'This import closes an import cycle: {{chain}}.' },
  },
  create(context) {
    const file = context.filename;
    const cwd = context.cwd;
    // Files proven not to lead back to this one, shared by its imports.
    const unreachable = new Set();

    /**
     * @param {import('estree').Node} node
     * @param {unknown} specifier
     */
    function check(node, specifier) {
      if (typeof specifier !== 'string') return;
      if (!specifier.startsWith('./') && !specifier.startsWith('../')) return;
      const target = resolveImport(file, specifier);
      if (target === undefined) return;
      const chain = graph.chainTo(target, file, unreachable);
      if (!chain) return;
      const names = [file, ...chain].map((path) => relative(cwd, path).replaceAll('\\', '/'));
      context.report({ node, messageId: 'cycle', data: { chain: names.join(' → ') } });
    }

    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value),
      // typescript-eslint's nodes: `import('./x.js').T` and `import x = require('./x.js')`.
      /** @param {any} node */
      TSImportType: (node) => check(node, node.argument?.literal?.value),
      /** @param {any} node */
      TSImportEqualsDeclaration: (node) => check(node, node.moduleReference?.expression?.value),
    };
  },
};

/** The local ESLint plugin of this repository (see eslint.config.js). */
export default { rules: { 'no-import-cycle': noImportCycle } };
