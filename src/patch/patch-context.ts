import type { SchemaIndex } from './schema-index.js';
import type { DialectRuleName } from './types.js';

/** What every step of one PATCH request needs: the schema index and the rules in force. */
export interface PatchContext {
  readonly index: SchemaIndex;
  readonly rules: Readonly<Record<DialectRuleName, boolean>>;
}
