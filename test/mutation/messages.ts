import { declareValuePlugin, PluginKind } from '@stryker-mutator/api/plugin';

/** The parts of Babel's NodePath the ignorer reads (Stryker hands it one). */
interface Path {
  node: { type: string };
  parentPath?: Path | null;
}

const isError = (path: Path | null | undefined) => {
  const node = path?.node as { type: string; callee?: { type: string; name?: string } } | undefined;
  return node?.type === 'NewExpression' && (path!.parentPath?.node.type === 'ThrowStatement' || (node.callee?.type === 'Identifier' && /Error$/.test(node.callee.name ?? '')));
};

/**
 * The words of an error's message (`new Error('…')`, `throw new SecretNotOpened('…')`): a mutant that empties them
 * shows only that no test reads the text word for word, which the error's class, code and status already say. Left
 * out of `npm run mutate` so its score counts behaviour.
 */
const messages = {
  shouldIgnore({ node, parentPath }: Path): string | undefined {
    if (node.type !== 'StringLiteral' && node.type !== 'TemplateLiteral') return undefined;
    return isError(parentPath) ? 'the words of an error message' : undefined;
  },
};

export const strykerPlugins = [declareValuePlugin(PluginKind.Ignore, 'error-messages', messages)];
