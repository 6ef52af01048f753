// `node --import tsx --import ./bench/kit/servers/from-source.mjs <server>` runs a kit server on
// the TypeScript sources instead of `dist`, so its test (bench/kit/servers.test.ts) needs no
// build. The benchmark itself always runs the servers on the built package.
import { register } from 'node:module';

register('./from-source-hooks.mjs', import.meta.url);
