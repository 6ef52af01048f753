import { ScimConfigError } from '../errors/index.js';
import { isAttributeName } from '../schema/attribute-path.js';
import type { AttributeDefinition, SchemaDefinition } from '../schema/types.js';

function checkAttributes(
  where: string,
  attributes: readonly AttributeDefinition[],
  depth: number,
): void {
  const seen = new Set<string>();
  for (const a of attributes) {
    if (!isAttributeName(a.name))
      throw new ScimConfigError(`${where}: "${a.name}" is not a valid attribute name.`);
    const lower = a.name.toLowerCase();
    if (seen.has(lower))
      throw new ScimConfigError(`${where}: attribute "${a.name}" is defined twice.`);
    seen.add(lower);
    if (a.type === 'complex') {
      if (depth > 0)
        throw new ScimConfigError(
          `${where}.${a.name}: complex attributes cannot nest (RFC 7643 §2.3.8).`,
        );
      checkAttributes(`${where}.${a.name}`, a.subAttributes ?? [], depth + 1);
    }
  }
}

/**
 * Checks the host's extension schemas (or, with `kind` `schema`, the schemas of its own
 * resource types) once, at start: a `urn:` id not used by any other schema, and valid, unique
 * attribute names.
 *
 * @throws ScimConfigError naming the first problem.
 */
export function checkExtensions(
  builtIn: readonly SchemaDefinition[],
  extensions: readonly SchemaDefinition[],
  kind: 'extension' | 'schema' = 'extension',
): void {
  const ids = new Set(builtIn.map((s) => s.id.toLowerCase()));
  for (const extension of extensions) {
    if (!extension.id.toLowerCase().startsWith('urn:')) {
      throw new ScimConfigError(
        `createScim: ${kind} id "${extension.id}" must be a URN (urn:...).`,
      );
    }
    if (ids.has(extension.id.toLowerCase())) {
      throw new ScimConfigError(`createScim: schema "${extension.id}" is defined twice.`);
    }
    ids.add(extension.id.toLowerCase());
    checkAttributes(`createScim: ${kind} "${extension.id}"`, extension.attributes, 0);
  }
}
