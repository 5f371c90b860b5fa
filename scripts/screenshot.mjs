// Takes the README's screenshot in the real editor: code-server on the samples, Context Lens open on the sample
// `npm start` opens (a generated Claude Code session, written first if missing) with a rewritten tool result
// selected: the headline against none, the ladder, and the message's why-lines with its original and compressed
// text side by side.
// Run after `npm run build`:  node scripts/screenshot.mjs [out.png]   (default media/screenshot.png, and
// media/screenshot-narrow.png at 1024×700)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { tsImport } from 'tsx/esm/api';

const repoRoot = resolve(import.meta.dirname, '..');
const out = resolve(process.argv[2] ?? join(repoRoot, 'media', 'screenshot.png'));
// The same view in a small window (1024×700, the explorer open: a 720 px wide view, list and details side by
// side, the main settings in the header): beside the wide one, with -narrow in its name.
const narrowOut = out.replace(/(\.png)?$/, '-narrow.png');
const { chromiumPath, startEditor } = await tsImport('./lib/editor.ts', import.meta.url);
const { ensureStartSample, startSample } = await tsImport('./lib/samples.ts', import.meta.url);
const { launchChromium, Workbench } = await tsImport('../test/e2e/workbench.ts', import.meta.url);

ensureStartSample(join(repoRoot, 'samples'));
const scratch = mkdtempSync(join(tmpdir(), 'context-lens-shot-'));
const server = await startEditor({ scratch, workspace: join(repoRoot, 'samples') });
const browser = await launchChromium(chromiumPath);
try {
  const workbench = await Workbench.open(
    browser,
    server.workbenchUrl({ extensionDevelopmentPath: repoRoot }),
    scratch,
  );
  await workbench.openWith(startSample, 'Context Lens');
  const webview = workbench.webview();
  // A rewritten Tier-2 message: its details show the head-and-tail rewrite beside the original.
  await webview.locator('[data-testid="message-row"]:has([data-testid="rewritten-marker"])').nth(1).click();
  await webview.locator('[data-testid="compressed-text"]').first().waitFor();
  await workbench.page.keyboard.press('Control+B'); // hide the side bar: more room for the view
  await workbench.page.waitForTimeout(1000);
  await workbench.page.screenshot({ path: out });
  console.log(`wrote ${out}`);
  await workbench.page.keyboard.press('Control+B'); // the explorer back, as a small window shows it
  await workbench.page.setViewportSize({ width: 1024, height: 700 });
  await workbench.page.waitForTimeout(1500);
  await workbench.page.screenshot({ path: narrowOut });
  console.log(`wrote ${narrowOut}`);
} finally {
  await browser.close();
  await server.stop();
  rmSync(scratch, { recursive: true, force: true });
}
