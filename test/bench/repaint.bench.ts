// The editor's figure: for a 10,000-message transcript, the time from a threshold change in the webview to the
// repainted message list (webview → host message, host analysis with tokens cached, host → webview message,
// validation, render, next frame), measured in the page in Debian's Chromium with the built webview and the
// stand-in host running the real engine. Target: median ≤ 50 ms.
//
// The engine runs as the extension bundles it (./bundledEngine). The machine is shared: each figure is given as
// median and best, with the load average.
import { availableParallelism as availableCpus, loadavg } from 'node:os';
import type { Engine } from '../../src/host/session';
import { closeBrowser, openLens, waitForSeq } from '../browser/harness';
import { bundledEngine } from './bundledEngine';
import { generateSession } from './engine.bench';

/** keepRecent cycles 6..11: the first 6 changes meet new values (their Tier-2 strings are counted on the host,
 * a slider's first pass); the rest find them counted (a slider going back and forth). */
const CHANGES = 36;
const FIRST_VISITS = 6;

function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
}

export async function run(): Promise<void> {
  const transcript = generateSession(2500, 42);
  const { analyze } = await bundledEngine();
  const engine: Engine = { parse: () => transcript, analyze: (t, p) => analyze(t, p) };
  const t0 = performance.now();
  const lens = await openLens('generated-10k.jsonl', new Uint8Array(), { engine, height: 1000 });
  try {
    await waitForSeq(lens.page, 0, 300_000);
    console.log(
      `${transcript.messages.length} messages; first analysis painted after ${((performance.now() - t0) / 1000).toFixed(1)} s (tokenizing included)`,
    );
    // Arrival time of each analysis message in the page, to split the figure into its parts.
    await lens.page.evaluate(() => {
      const w = window as unknown as { __arrivals: number[] };
      w.__arrivals = [];
      window.addEventListener(
        'message',
        (e) => {
          if ((e.data as { type?: string })?.type === 'analysis') w.__arrivals.push(performance.now());
        },
        true,
      );
    });
    const input = lens.page.getByLabel('keepRecent', { exact: true });
    const repaint: number[] = [];
    const webview: number[] = [];
    for (let k = 1; k <= CHANGES; k++) {
      // keepRecent 6..11 and back: every change moves badges.
      await input.fill(String(6 + (k % 6)));
      await input.press('Enter');
      await waitForSeq(lens.page, k, 60_000);
      const [total, arrivedAt, paintedAt] = await lens.page.evaluate(() => {
        const w = window as unknown as { __arrivals: number[] };
        const probe = window.__contextLensRepaint;
        return [
          probe?.lastRepaintMs ?? null,
          w.__arrivals.at(-1) ?? Number.NaN,
          probe?.paintedAt ?? Number.NaN,
        ] as const;
      });
      if (total !== null) repaint.push(total);
      webview.push(paintedAt - arrivedAt);
    }
    const host = lens.host.analysisMs.slice(1);
    const rows = await lens.page.locator('[data-testid="message-row"]').count();
    const message = lens.host.lastAnalysisMessage;
    const json: number[] = [];
    for (let i = 0; message && i < 15; i++) {
      const t = performance.now();
      JSON.parse(JSON.stringify(message));
      json.push(performance.now() - t);
    }
    const size = message ? JSON.stringify(message).length : 0;
    const best = (xs: number[]) => Math.min(...xs);
    const fig = (xs: number[]) =>
      `median ${quantile(xs, 0.5).toFixed(1)} ms, best ${best(xs).toFixed(1)} ms, p90 ${quantile(xs, 0.9).toFixed(1)} ms`;
    const warm = (xs: number[]) => xs.slice(FIRST_VISITS);
    console.log(
      `threshold change → repainted list (keepRecent typed, ${repaint.length} changes, ${rows} rows in the DOM; load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')} on ${availableCpus()} CPUs):`,
    );
    console.log(`  end to end in this harness, all changes: ${fig(repaint)} (target ≤ 50 ms median)`);
    console.log(`    values seen before (${warm(repaint).length} changes): ${fig(warm(repaint))}`);
    console.log(`  host analysis (bundled engine + columns), all changes: ${fig(host)}`);
    console.log(
      `    values seen before: ${fig(warm(host))}; first round through the values: ${host
        .slice(0, FIRST_VISITS)
        .map((x) => x.toFixed(0))
        .join(', ')} ms`,
    );
    console.log(`  webview (message arrival → validated, decoded, rendered, next frame): ${fig(webview)}`);
    // The editor's postMessage serialises the message as JSON and parses it in the webview; this harness's
    // transport (a Playwright binding and an evaluate) is slower and is not the product's. Estimate the editor's
    // figure from the parts: host analysis + JSON round trip of a real analysis message + webview.
    console.log(`  JSON round trip of one analysis message (${(size / 1e6).toFixed(2)} MB): ${fig(json)}`);
    const sumOf = (f: (xs: number[]) => number) => (f(warm(host)) + f(json) + f(warm(webview))).toFixed(1);
    console.log(
      `  estimate for the editor (host + JSON + webview, values seen before): median ${sumOf((xs) => quantile(xs, 0.5))} ms, best ${sumOf(best)} ms; the rest of the harness figure is its own transport`,
    );
    if (lens.problems.length) console.log(`  page problems: ${lens.problems.join('; ')}`);
  } finally {
    await lens.close();
    await closeBrowser();
  }
}
