// @ts-check
import { noImportCycle } from './no-import-cycle.js';
import { requireDocComment } from './require-doc-comment.js';

/** The local ESLint plugin of this repository (see eslint.config.js): `local/<rule>`. */
export default {
  rules: { 'no-import-cycle': noImportCycle, 'require-doc-comment': requireDocComment },
};
