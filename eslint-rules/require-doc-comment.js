// @ts-check
import { publicDeclarations } from './public-surface.js';

/** @type {Map<string, Map<string, Set<string>>>} the public declarations, read once per lint run. */
const surfaces = new Map();

/**
 * Tells whether `node` has a doc comment (`/** ... *\/`) right before it, with nothing but
 * white space between them.
 *
 * @param {import('eslint').SourceCode} sourceCode
 * @param {import('estree').Node} node
 */
function hasDocComment(sourceCode, node) {
  const last = sourceCode.getCommentsBefore(node).at(-1);
  return last !== undefined && last.type === 'Block' && last.value.startsWith('*');
}

/**
 * Names a member for the report: its key when it has a plain one, else its kind.
 *
 * @param {any} member
 * @returns {string}
 */
function memberName(member) {
  const key = member.key;
  if (key?.type === 'Identifier') return key.name;
  if (key?.type === 'Literal') return String(key.value);
  return member.type === 'TSIndexSignature' ? 'index signature' : 'member';
}

/**
 * The members of an exported declaration that a reader of the API sees: those of an interface,
 * of a class (not private ones, nor the constructor) and of an object type a type alias names.
 *
 * @param {any} declaration
 * @returns {any[]}
 */
function publicMembers(declaration) {
  switch (declaration.type) {
    case 'TSInterfaceDeclaration':
      return declaration.body.body;
    case 'TSTypeAliasDeclaration':
      return declaration.typeAnnotation.type === 'TSTypeLiteral'
        ? declaration.typeAnnotation.members
        : [];
    case 'ClassDeclaration':
      return declaration.body.body.filter(
        (/** @type {any} */ m) =>
          m.type !== 'StaticBlock' &&
          m.kind !== 'constructor' &&
          m.accessibility !== 'private' &&
          m.key?.type !== 'PrivateIdentifier',
      );
    default:
      return [];
  }
}

/**
 * Requires a doc comment on every public declaration (a `function`, `class`, `interface`,
 * `type` or `const` that an entry point exports, directly or through re-exports) and on every
 * member of a public interface, class or object type: the API reference is made of them, and
 * typedoc's `notDocumented` check fails the docs build on a missing one. The entry points are
 * read from the file named by the `entryPoints` option (default `entry-points.ts`). Re-exports
 * (`export { x } from`) need none: the comment is on the declaration.
 *
 * @type {import('eslint').Rule.RuleModule}
 */
export const requireDocComment = {
  meta: {
    type: 'suggestion',
    docs: { description: 'Require a doc comment on public declarations and their members.' },
    schema: [
      {
        type: 'object',
        properties: { entryPoints: { type: 'string' } },
        additionalProperties: false,
      },
    ],
    messages: {
      declaration: 'Public {{what}} has no doc comment (/** ... */).',
      member: 'Member "{{name}}" of public {{owner}} has no doc comment (/** ... */).',
    },
  },
  create(context) {
    const sourceCode = context.sourceCode;
    const list = context.options[0]?.entryPoints ?? 'entry-points.ts';
    const key = `${context.cwd}\0${list}`;
    let surface = surfaces.get(key);
    if (surface === undefined) {
      surface = publicDeclarations(context.cwd, list);
      surfaces.set(key, surface);
    }
    const publicNames = surface.get(context.filename);
    if (publicNames === undefined) return {};
    return {
      /** @param {any} node */
      ExportNamedDeclaration(node) {
        const declaration = node.declaration;
        if (!declaration) return;
        /** @type {string[]} */
        const names = declaration.id
          ? [declaration.id.name]
          : (declaration.declarations ?? []).map((/** @type {any} */ d) => d.id.name);
        if (!names.some((name) => publicNames.has(name))) return;
        const what = names.join(', ');
        if (!hasDocComment(sourceCode, node))
          context.report({ node, messageId: 'declaration', data: { what } });
        for (const member of publicMembers(declaration)) {
          if (!hasDocComment(sourceCode, member))
            context.report({
              node: member,
              messageId: 'member',
              data: { name: memberName(member), owner: what },
            });
        }
      },
    };
  },
};
