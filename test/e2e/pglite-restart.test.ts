import { join } from 'node:path';
import { describe } from 'vitest';
import { restartScenario } from './restart-scenario.js';

// The default store of `npm start`: PGlite in a data folder, here a scratch one. The activation
// secret is left unset on purpose: the server keeps the one it makes in the folder.
describe('example server on PGlite: restarts and a killed process', () => {
  restartScenario({
    env: (dir) => ({ SCIMKIT_DATA_DIR: join(dir, 'data') }),
    singleProcess: true,
    cleanup: async () => undefined,
  });
});
