/**
 * The contract service as a Workers ES module, bundled by esbuild for workerd with no
 * compatibility flags (so no Node APIs). It is built at global scope, as a Worker would build
 * it: one isolate keeps it, and its memory store, for the whole run.
 */
import { MemoryUserStore } from 'scimkit/memory';
import { createHandler } from './service.ts';

export default { fetch: createHandler(new MemoryUserStore()) };
