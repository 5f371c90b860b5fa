// Nothing spreads a list into a call's arguments (`push(...xs)`, `Math.max(...xs)`): each element goes on the stack,
// and past ~120,000 of them (a report over 140,000 session files, a message of 150,000 parts) the call throws
// "Maximum call stack size exceeded". Lists are appended with pushAll and measured with maxOf (src/core/arrays.ts).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import ts from 'typescript';
import { maxOf, pushAll } from '../../src/core/arrays';

/** Spreads of a short list the code itself makes, each with why it stays. */
const ALLOWED = new Set([
  'src/host/sessionsView.ts: vscode.Disposable.from(...disposables)', // the view's own few listeners
]);

function sources(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) return sources(p);
      return /\.tsx?$/.test(name) ? [p] : [];
    });
}

test('no call in src or webview spreads a list into its arguments', () => {
  const found: string[] = [];
  for (const file of [...sources('src'), ...sources('webview')]) {
    const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (n: ts.Node) => {
      if ((ts.isCallExpression(n) || ts.isNewExpression(n)) && n.arguments?.some(ts.isSpreadElement)) {
        const where = `${file}: ${n.getText().replace(/\s+/g, ' ')}`;
        if (!ALLOWED.has(where))
          found.push(`${where} (line ${sf.getLineAndCharacterOfPosition(n.getStart()).line + 1})`);
      }
      ts.forEachChild(n, visit);
    };
    visit(sf);
  }
  assert.deepEqual(found, []);
});

test('pushAll and maxOf take lists longer than the stack holds', () => {
  const many = Array.from({ length: 300_000 }, (_, i) => i);
  assert.equal(pushAll([-1], many).length, 300_001);
  assert.equal(maxOf(many), 299_999);
  assert.equal(maxOf([], 17), 17);
});
