// End-to-end: Context Lens in the real editor (code-server driven by headless Debian Chromium), once loaded
// from source and once installed from a freshly packaged .vsix. Screenshots of every step go to
// test-output/e2e/editor-<source>/. A missing prerequisite fails the suite with the command that installs it.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parse } from 'jsonc-parser';
import { listVsix } from '../../scripts/lib/vsix';
import {
  engineProblems,
  engineTiers,
  engineTokensAfter,
  eventually,
  exportFacts,
  webviewTiers,
} from './expect';
import { EditorSession, type ExtensionSource, malformedLine, workspaceFiles } from './session';

const suites: [ExtensionSource, string][] = [
  ['source', 'loaded from source (extensionDevelopmentPath)'],
  ['vsix', 'installed from the packaged .vsix'],
];

for (const [source, how] of suites) {
  describe(`Context Lens in the real editor, ${how}`, { timeout: 300_000 }, () => {
    let session: EditorSession;
    before(async () => {
      session = await EditorSession.start(source);
    });
    after(async () => {
      await session?.stop();
    });

    if (source === 'vsix') {
      test('the package holds what runs (bundles, WASM, media, README, LICENSE, CHANGELOG) and nothing else', () => {
        const names = listVsix(session.vsixPath!).map((e) => e.name);
        const needed = [
          'extension.js',
          'webview.js',
          'tokenWorker.js',
          'parseWorker.js',
          'sessionWorker.js',
          'sessionsWorker.js',
          'storeWorker.js',
          'cli.js',
          'prices.js',
          'tiktoken_bg.wasm',
        ];
        for (const file of needed)
          assert.ok(names.includes(`extension/dist/${file}`), `dist/${file} is missing`);
        for (const file of ['package.json', 'readme.md', 'LICENSE.txt', 'changelog.md', 'media/main.css']) {
          assert.ok(names.includes(`extension/${file}`), `${file} is missing`);
        }
        const stray = names.filter(
          (n) =>
            !/^(extension\.vsixmanifest|\[Content_Types\]\.xml)$/.test(n) &&
            !/^extension\/(package\.json|readme\.md|LICENSE\.txt|changelog\.md|dist\/[^/]+\.(js|wasm)|media\/.+)$/.test(
              n,
            ),
        );
        assert.deepEqual(stray, [], 'files in the package that do not run');
      });
    }

    test('Open With… → Context Lens shows the tier badges the engine computes', async () => {
      const { workbench } = session;
      const path = join(session.workspace, workspaceFiles.session);
      const expected = engineTiers(path);
      // The sample must exercise more than one tier, or the comparison proves little.
      assert.ok(new Set(expected.filter((t) => t !== null)).size >= 2, `engine tiers: ${expected.join(',')}`);
      await workbench.step('open-with-context-lens', async () => {
        await workbench.openWith(workspaceFiles.session, EditorSession.editorName());
        await eventually(async () => assert.deepEqual(await webviewTiers(workbench.webview()), expected));
      });
    });

    test('keepRecent typed in the webview changes the badges and the workspace settings file', async () => {
      const { workbench } = session;
      const path = join(session.workspace, workspaceFiles.session);
      const keepRecent = 3;
      const expected = engineTiers(path, { keepRecent });
      assert.notDeepEqual(expected, engineTiers(path), 'the new keepRecent must move some badge');
      await workbench.step('keepRecent-3', async () => {
        const field = workbench.webview().locator('[data-testid="setting-keepRecent"]');
        await field.fill(String(keepRecent));
        await field.press('Enter');
        await eventually(async () => assert.deepEqual(await webviewTiers(workbench.webview()), expected));
      });
      // A folder is open, so the host saves to the workspace settings, and only the key that changed.
      const settingsPath = join(session.workspace, '.vscode', 'settings.json');
      await eventually(async () => {
        const settings = parse(readFileSync(settingsPath, 'utf8')) as Record<string, unknown>;
        assert.deepEqual(settings, { 'contextLens.tiered.keepRecent': keepRecent });
      });
    });
    test('Export Compacted Transcript writes the same format, pairs intact, fewer tokens', async () => {
      const { workbench } = session;
      const sourcePath = join(session.workspace, workspaceFiles.session);
      const target = join(session.workspace, workspaceFiles.compacted);
      await workbench.step('export-compacted', async () => {
        await workbench.runCommand('Context Lens: Export Compacted Transcript');
        // First choice: the format; then the save dialog, which proposes <name>.compacted.<ext> beside the source.
        await workbench.pickQuickInput('Same format');
        await workbench.acceptSaveDialog(basename(target));
        await eventually(async () => assert.ok(existsSync(target), `${target} was not written`));
        await workbench.notification('exported');
      });
      const source = exportFacts(sourcePath);
      const exported = exportFacts(target);
      assert.equal(exported.format, source.format);
      assert.equal(exported.messages, source.messages);
      assert.deepEqual(exported.unpaired, [], 'every tool_use keeps its tool_result and the reverse');
      assert.deepEqual(exported.pairs, source.pairs, 'the same tool calls, in the same order');
      assert.ok(exported.tokens < source.tokens, `tokens ${source.tokens} → ${exported.tokens}`);
      // The export holds what the view showed: the engine's figure under keepRecent 3 (set by the test above).
      assert.equal(exported.tokens, engineTokensAfter(sourcePath, { keepRecent: 3 }));
    });

    test('a malformed transcript gets its entry in the Problems panel', async () => {
      const { workbench } = session;
      const path = join(session.workspace, workspaceFiles.malformed);
      const expected = engineProblems(path).find((p) => p.severity === 'error');
      assert.ok(expected, 'the engine must find an error in the malformed transcript');
      assert.equal(expected.line, malformedLine);
      await workbench.step('problems-malformed', async () => {
        await workbench.openInTextEditor(workspaceFiles.malformed);
        await eventually(async () => {
          const rows = await workbench.problems();
          const row = rows.find((r) => r.includes(expected.message.slice(0, 60)));
          assert.ok(row, `no Problems entry for "${expected.message}"; entries: ${rows.join(' | ')}`);
          assert.match(row, new RegExp(`\\b${expected.line}\\b.*\\b${expected.column}\\b`));
        });
      });
    });
    test('an edit of the settings file shows in the view at once', async () => {
      const { workbench } = session;
      const path = join(session.workspace, workspaceFiles.session);
      const keepRecent = 6;
      const expected = engineTiers(path, { keepRecent });
      assert.notDeepEqual(expected, engineTiers(path, { keepRecent: 3 }), 'the edit must move some badge');
      await workbench.step('settings-file-edit', async () => {
        // The text editor of the test above took the preview tab: open the session in Context Lens again, as
        // the settings stand (keepRecent 3), then edit the file under it.
        await workbench.openWith(workspaceFiles.session, EditorSession.editorName());
        const current = engineTiers(path, { keepRecent: 3 });
        await eventually(async () => assert.deepEqual(await webviewTiers(workbench.webview()), current));
        writeFileSync(
          join(session.workspace, '.vscode', 'settings.json'),
          `${JSON.stringify({ 'contextLens.tiered.keepRecent': keepRecent }, null, 2)}\n`,
        );
        await eventually(async () => assert.deepEqual(await webviewTiers(workbench.webview()), expected));
        const field = workbench.webview().locator('[data-testid="setting-keepRecent"]');
        assert.equal(await field.inputValue(), String(keepRecent));
      });
    });
  });
}
