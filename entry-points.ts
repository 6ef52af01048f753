/**
 * The one list of public entry points. The exports map in package.json, tsup's build entries
 * and typedoc's entry points are checked against it by test/package/exports.test.ts.
 */
export const entryPoints = [
  { subpath: '.', src: 'src/index.ts', out: 'index' },
  { subpath: './express', src: 'src/adapters/express/index.ts', out: 'adapters/express/index' },
  { subpath: './fastify', src: 'src/adapters/fastify/index.ts', out: 'adapters/fastify/index' },
  { subpath: './hono', src: 'src/adapters/hono/index.ts', out: 'adapters/hono/index' },
  { subpath: './fetch', src: 'src/adapters/fetch/index.ts', out: 'adapters/fetch/index' },
  { subpath: './node', src: 'src/adapters/node/index.ts', out: 'adapters/node/index' },
  { subpath: './memory', src: 'src/stores/memory/index.ts', out: 'stores/memory/index' },
  { subpath: './postgres', src: 'src/stores/postgres/index.ts', out: 'stores/postgres/index' },
  { subpath: './testing', src: 'src/testing/index.ts', out: 'testing/index' },
  { subpath: './testing/vitest', src: 'src/testing/vitest.ts', out: 'testing/vitest' },
  { subpath: './patch', src: 'src/patch/index.ts', out: 'patch/index' },
  { subpath: './filter', src: 'src/filter/index.ts', out: 'filter/index' },
  { subpath: './openapi', src: 'src/openapi/index.ts', out: 'openapi/index' },
] as const;

/**
 * The commands the package installs (`bin` in package.json), built by tsup beside the entry
 * points; checked by test/package/exports.test.ts.
 */
export const binEntries = [{ name: 'scimkit', src: 'src/cli/main.ts', out: 'cli/main' }] as const;
