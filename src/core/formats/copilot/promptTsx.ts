// A tool's output that Copilot Chat keeps as a prompt-tsx element tree (`LanguageModelPromptTsxPart`, `$mid` 23: its
// `value.node`, the JSON form `@vscode/prompt-tsx` writes with `PromptNodeType` Piece 1, Text 2, Opaque 3) is sent to
// the model as the text that tree renders to. The rendering follows the library's `materialized.ts`: the text chunks
// in document order, a line break put before a chunk that asks for one (`lineBreakBefore`, or the first child of an
// element that does not follow a text sibling) unless the text so far is empty or already ends with one.

import { isObject } from '../json';

/** The text a prompt-tsx node tree renders to, or undefined when `node` is not one. */
export function promptTsxText(node: unknown): string | undefined {
  if (!isPiece(node)) return undefined;
  let out = '';
  const visit = (piece: Record<string, unknown> & { children: unknown[] }, textSibling: boolean): void => {
    piece.children.forEach((child, index) => {
      if (!isObject(child)) return;
      if (child.type === 2 && typeof child.text === 'string') {
        const always = child.lineBreakBefore === true;
        const ifNotAfterText = !always && index === 0;
        if ((always || (ifNotAfterText && !textSibling)) && out !== '' && !out.endsWith('\n')) out += '\n';
        out += child.text;
        textSibling = true;
      } else if (isPiece(child)) {
        visit(child, textSibling);
        textSibling = false;
      }
      // An opaque node (type 3) is sent as a part of its own, not as text.
    });
  };
  visit(node, false);
  return out;
}

function isPiece(node: unknown): node is Record<string, unknown> & { children: unknown[] } {
  return isObject(node) && node.type === 1 && Array.isArray(node.children);
}
