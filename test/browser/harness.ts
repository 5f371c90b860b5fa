// Loads the built webview (dist/webview.js, media/main.css) in Debian's headless Chromium (the engine alone, without
// the browser around it: half the CPU of the full one for the same pages), in the page the editor would
// build (src/host/webviewHtml.ts, same CSP), with a stand-in host answering over postMessage.
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import type { Engine } from '../../src/host/session';
import { webviewHtml } from '../../src/host/webviewHtml';
import type { HostMessage } from '../../src/protocol';
import { StandInHost } from './standInHost';

export const repoRoot = resolve(import.meta.dirname, '..', '..');
export const outputDir = join(repoRoot, 'test-output', 'browser');
const CHROMIUM = '/usr/bin/chromium-headless-shell';

/** Resolves once the page has painted twice: what a scroll or a click changed is on screen. */
export function twoFrames(page: Page): Promise<void> {
  return page.evaluate(
    () => new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done()))),
  );
}

export type Theme = 'dark' | 'light' | 'high-contrast';

/** Switches the page to another theme's variables, as the editor does when the user picks another theme while the
 * view is open (the views style themselves by CSS variables only); resolves once the new ones are applied. */
export async function setTheme(page: Page, theme: Theme): Promise<void> {
  await page.evaluate(
    (t) =>
      new Promise<void>((done, fail) => {
        const link = document.querySelector<HTMLLinkElement>('link[href*="/theme/"]');
        if (!link) throw new Error('no theme stylesheet');
        const href = link.href.replace(/\/theme\/[^/]+\.css$/, `/theme/${t}.css`);
        if (link.href === href) return done();
        link.onload = () => done();
        link.onerror = () => fail(new Error(`theme ${t} did not load`));
        link.href = href;
      }),
    theme,
  );
  await twoFrames(page);
}

export function assertPrerequisites(): void {
  if (!existsSync(CHROMIUM))
    throw new Error(
      `${CHROMIUM} is missing: run \`bash scripts/install-system-deps.sh\` (installs Debian's chromium-headless-shell)`,
    );
  for (const f of ['dist/webview.js', 'media/main.css'])
    if (!existsSync(join(repoRoot, f))) throw new Error(`${f} is missing: run \`npm run build\` first`);
}

/** Serves the webview's local resources and the theme variables of the editor's built-in themes. */
async function serve(): Promise<{ server: Server; origin: string }> {
  const files: Record<string, [string, string]> = {
    '/dist/webview.js': [join(repoRoot, 'dist', 'webview.js'), 'text/javascript'],
    '/media/main.css': [join(repoRoot, 'media', 'main.css'), 'text/css'],
    '/theme/dark.css': [join(import.meta.dirname, 'themes', 'dark.css'), 'text/css'],
    '/theme/light.css': [join(import.meta.dirname, 'themes', 'light.css'), 'text/css'],
    '/theme/high-contrast.css': [join(import.meta.dirname, 'themes', 'high-contrast.css'), 'text/css'],
  };
  let pageHtml = '';
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/favicon.ico') {
      res.writeHead(204);
      res.end();
      return;
    }
    if (path === '/') {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(pageHtml);
      return;
    }
    const f = files[path];
    if (!f) {
      res.writeHead(404);
      res.end();
      return;
    }
    res.writeHead(200, { 'content-type': f[1] });
    res.end(readFileSync(f[0]));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  (server as Server & { setPage(h: string): void }).setPage = (h: string) => {
    pageHtml = h;
  };
  return { server, origin };
}

export interface Lens {
  page: Page;
  host: StandInHost;
  /** Console errors and CSP violations seen in the page. */
  problems: string[];
  close(): Promise<void>;
}

let browser: Browser | null = null;

export async function launch(): Promise<Browser> {
  assertPrerequisites();
  browser ??= await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-sync',
    ],
  });
  return browser;
}

export async function closeBrowser(): Promise<void> {
  await browser?.close();
  browser = null;
}

export async function openLens(
  fileName: string,
  bytes: Uint8Array,
  options: { theme?: Theme; width?: number; height?: number; engine?: Engine } = {},
): Promise<Lens> {
  const b = await launch();
  const { server, origin } = await serve();
  const theme = options.theme ?? 'dark';
  // The editor injects its theme variables into the webview's root; here a theme stylesheet does it, linked
  // before our own stylesheet (both are local resources, allowed by the CSP).
  const html = webviewHtml({
    cspSource: origin,
    scriptUri: `${origin}/dist/webview.js`,
    styleUri: `${origin}/media/main.css`,
  }).replace(
    '<link rel="stylesheet"',
    `<link rel="stylesheet" href="${origin}/theme/${theme}.css">\n<link rel="stylesheet"`,
  );
  (server as Server & { setPage(h: string): void }).setPage(html);
  const context = await b.newContext({
    viewport: { width: options.width ?? 1400, height: options.height ?? 900 },
  });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('dialog', (d) => {
    problems.push(`dialog: ${d.message()}`);
    void d.dismiss();
  });
  let host: StandInHost | null = null;
  const post = async (message: HostMessage) => {
    // As the editor does, the message crosses as JSON (Playwright's own serializer is slow for large objects).
    await page
      .evaluate((json) => window.postMessage(JSON.parse(json), '*'), JSON.stringify(message))
      .catch(() => {});
  };
  host = new StandInHost(fileName, bytes, post, options.engine);
  await page.exposeFunction('__contextLensToHost', (data: unknown) => host?.receive(data));
  // A string, not a function: the test runner's transpiler would add helpers the page does not have.
  await page.addInitScript(`window.acquireVsCodeApi = () => ({
    postMessage: (m) => window.__contextLensToHost(m),
    getState: () => undefined,
    setState: () => {},
  });`);
  await page.addInitScript(
    `document.addEventListener('securitypolicyviolation', (e) => console.error('CSP violation: ' + e.violatedDirective + ' at ' + e.sourceFile + ':' + e.lineNumber + ':' + e.columnNumber + ' sample ' + e.sample));`,
  );
  await page.goto(origin);
  return {
    page,
    host,
    problems,
    async close() {
      await context.close();
      await new Promise((r) => server.close(r));
    },
  };
}

/** Waits until the list has painted the analysis that answers change `seq`. */
export async function waitForSeq(page: Page, seq: number, timeout = 30_000): Promise<void> {
  await page.waitForFunction((s) => Number(document.body.dataset.analysisSeq ?? -1) >= s, seq, { timeout });
}

/**
 * Waits until the host has received the view's `count`th change of settings and the list has painted its answer.
 * A change's number is not its count: the view's other requests (the Cache tab's figures, asked after each
 * analysis) take numbers from the same sequence.
 */
export async function waitForChange(lens: Lens, count: number, timeout = 30_000): Promise<void> {
  const changes = () => lens.host.received.filter((m) => m.type === 'updateSettings');
  const deadline = Date.now() + timeout;
  while (changes().length < count) {
    if (Date.now() > deadline) throw new Error(`the host received ${changes().length} changes, not ${count}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  const change = changes()[count - 1];
  await waitForSeq(lens.page, change.type === 'updateSettings' ? change.seq : 0, timeout);
}

/** The tier badge of every message row, reading the whole virtual list by scrolling it. */
export async function listedTiers(page: Page): Promise<Map<number, string | null>> {
  const tiers = new Map<number, string | null>();
  const list = page.getByTestId('message-list');
  await list.evaluate((el) => {
    el.scrollTop = 0;
  });
  for (;;) {
    const rows = await list
      .locator('[data-testid="message-row"]')
      .evaluateAll((els) =>
        els.map(
          (el) =>
            [
              Number(el.getAttribute('data-index')),
              el.querySelector('[data-testid="tier-badge"]')?.getAttribute('data-tier') ?? null,
            ] as const,
        ),
      );
    for (const [i, t] of rows) tiers.set(i, t);
    const done = await list.evaluate((el) => {
      const atEnd = el.scrollTop + el.clientHeight >= el.scrollHeight - 1;
      el.scrollTop += el.clientHeight - 30;
      return atEnd;
    });
    if (done) break;
    await twoFrames(page);
  }
  return tiers;
}
