// What the user feels, measured in the real editor (code-server + Debian's Chromium, the extension loaded from
// source, as the end-to-end tests run it): for real long sessions and generated 40 and 100 MB ones, the time
// from choosing "Context Lens" in "Open With…" to the first frame showing the list, to the first analysis, and to
// exact token figures; then keyboard steps on the keepRecent and tier1Distance fields and policy switches with
// the keyboard on the policy dropdown, then a few steps each after a pause (the host idle), each timed by the
// webview's own probe (key → repainted list); then the editor is restarted with the same user data and the 100 MB
// session reopened (token counts kept on disk).
// Each figure is median, p90 and worst, with the load average (the 2-core machine is shared). The parts (host
// analysis, key → analysis message arrives) are a breakdown, not the headline.
//
// Select sessions: EDITOR_BENCH=100,real npm run bench -- editor (labels containing any of the words).
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
} from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import type { Browser, Frame } from 'playwright-core';
import {
  assertEditorPrerequisites,
  chromiumPath,
  type EditorServer,
  repoRoot,
  startEditor,
} from '../../scripts/lib/editor';
import { childrenRunning, extensionHostPid, rssBytes, rssOf } from '../e2e/hostProcess';
import { EditorSession } from '../e2e/session';
import { launchChromium, Workbench } from '../e2e/workbench';
import { REAL_LONG_DIR } from '../sharedFixtures';
import { writeClaudeCodeSession } from './generate';

const REAL_LONG = REAL_LONG_DIR;
const SEED = 7;

interface SessionFile {
  label: string;
  path: string;
}

function sessionFiles(): SessionFile[] {
  const out: SessionFile[] = [];
  // Every real long session (`REAL_LONG_FIXTURES` may name another folder of the same shape), labelled by its
  // agent, size and name, without the session's id.
  const root = process.env.REAL_LONG_FIXTURES ?? REAL_LONG;
  for (const agent of ['claude-code', 'codex']) {
    const dir = join(root, agent);
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir)
      .filter((n) => n.endsWith('.jsonl'))
      .sort()) {
      const path = join(dir, name);
      const mb = (statSync(path).size / 1e6).toFixed(1);
      const what = name.replace(/\.jsonl$/, '').replace(/-[0-9a-f]{8}-/, ' ');
      out.push({ label: `real ${agent} ${mb} MB (${what})`, path });
    }
  }
  for (const mb of [40, 100]) {
    const path = join(repoRoot, '.bench', `claude-code-${mb * 1_000_000}-${SEED}.jsonl`);
    if (!existsSync(path)) writeClaudeCodeSession(path, mb * 1_000_000, SEED);
    out.push({ label: `generated ${mb} MB`, path });
  }
  const only = process.env.EDITOR_BENCH?.split(',').filter(Boolean);
  return only ? out.filter((s) => only.some((w) => s.label.includes(w))) : out;
}

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};
const ms = (x: number) => `${x.toFixed(0)} ms`;
const sec = (x: number | undefined) => (x === undefined ? 'n/a' : `${(x / 1000).toFixed(2)} s`);
const spread = (xs: number[]) =>
  xs.length === 0 ? 'n/a' : `${ms(quantile(xs, 0.5))} / ${ms(quantile(xs, 0.9))} / ${ms(Math.max(...xs))}`;
/** The host's memory against the file: peak / 3 s after / workers ended / a while later, as multiples of the
 * file's size, then what the open added to the host's memory before it (the same, as multiples). */
const memory = (f: OpenFigures, fileBytes: number) => {
  const x = (rss: number | undefined) => (rss === undefined ? '–' : `${(rss / fileBytes).toFixed(1)}×`);
  const added = (rss: number | undefined) =>
    rss === undefined ? '–' : `${((rss - f.baseRss) / fileBytes).toFixed(1)}×`;
  const all = [f.peakRss, f.settledRss, f.idleRss, f.lastingRss];
  return `${all.map(x).join(' / ')} (added ${all.map(added).join(' / ')}; host before ${(f.baseRss / 1e6).toFixed(0)} MB; token processes' peak ${x(f.tokenPeakRss)})`;
};
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

/** Where the extension host writes the times its event loop was held (hostStalls.cjs, loaded into the editor's
 * processes). */
let stallsDir = '';

/** How many stalls, the longest, their total (ms) and the five longest with their time from the start. */
interface Stalls {
  count: number;
  longest: number;
  total: number;
  worst: string;
}
const NO_STALLS: Stalls = { count: 0, longest: 0, total: 0, worst: '' };

/** The stalls (over 50 ms) of the extension host `host` that started between `from` and `to` (epoch ms): how
 * many, the longest and their total. */
function stalls(host: number, from: number, to: number): Stalls {
  const file = join(stallsDir, `${host}.tsv`);
  // Each stall as [its time from `from`, its length].
  const found: [number, number][] = [];
  if (existsSync(file))
    for (const line of readFileSync(file, 'utf8').split('\n').filter(Boolean)) {
      const [start, length] = line.split('\t').map(Number);
      if (start >= from && start <= to) found.push([start - from, length]);
    }
  const lengths = found.map(([, length]) => length);
  const worst = found
    .sort((a, b) => b[1] - a[1])
    .slice(0, 5)
    .map(([t, length]) => `${ms(length)} at +${sec(t)}`)
    .join(', ');
  return {
    count: found.length,
    longest: lengths.reduce((a, b) => Math.max(a, b), 0),
    total: lengths.reduce((a, b) => a + b, 0),
    worst,
  };
}
const stallText = (s: Stalls) =>
  s.count === 0 ? 'none' : `${s.count}, longest ${ms(s.longest)}, ${sec(s.total)} in all`;

interface OpenFigures {
  messages: number;
  /** The host's stalls from the click to the exact figures. */
  openStalls: Stalls;
  listMs?: number;
  wholeListMs?: number;
  analysisMs?: number;
  exactMs?: number;
  /** The extension host's resident memory before the open, and its peak, 3 s after the exact figures, once
   * the worker threads ended (idle), and `LASTING_MS` after the exact figures (large sessions only), in bytes. */
  baseRss: number;
  peakRss: number;
  /** The token processes' resident memory together, at its peak (they are processes of their own: not in the
   * host's). */
  tokenPeakRss: number;
  settledRss: number;
  idleRss: number;
  lastingRss?: number;
}

/** When the host's memory is read after the exact figures: settled, a few seconds later; idle, once the token
 * workers ended (10 s without a count) and the parse thread too (a file that did not grow keeps it 2 s). */
const SETTLED_MS = 3_000;
const IDLE_MS = 12_000;
/** How long after the exact figures the host's memory is read again for a large session: V8 gives back the pages
 * of what it collected once the host has been idle a while (about a minute after the open, measured), and that is
 * what stays while the session is open. */
const LASTING_MS = 90_000;

interface ChangeFigures {
  steps: number[];
  /** Steps each taken once the host is idle (the runs ahead of the change before done): a user who reads between
   * changes. */
  idleSteps: number[];
  switches: number[];
  hostMs: number[];
  arriveMs: number[];
  /** Each change in turn: repaint ms, and the host's answer arrival ms ("offered": shown before it). */
  sequence: string[];
  /** The host's stalls while the tier constants were stepped, and while the policy was switched. */
  stepStalls: Stalls;
  switchStalls: Stalls;
  load: string;
}

/** The extension host's memory once it stopped growing: right after the editor starts, the host goes on loading
 * the editor's own extensions for a few hundred milliseconds (~30 MB, measured: the click came before, and that
 * work was timed and counted as the open's). A user opens a session in an editor that is running. */
async function settledRss(host: number): Promise<number> {
  const readings = [rssBytes(host)];
  for (let waited = 0; waited < 30_000; waited += 500) {
    await new Promise((r) => setTimeout(r, 500));
    readings.push(rssBytes(host));
    const last = readings.slice(-4);
    if (last.length === 4 && Math.max(...last) - Math.min(...last) < 2e6) break;
  }
  return readings[readings.length - 1];
}

/** Opens `relative` with Context Lens as a user does (explorer → Open With… → Context Lens) and times, from the
 * click on "Context Lens", the first frames with the list, an analysis and exact figures. */
async function openTimed(
  workbench: Workbench,
  server: EditorServer,
  relative: string,
  lasting = false,
): Promise<{ frame: Frame; figures: OpenFigures }> {
  const name = basename(relative);
  const option = await workbench.openWithChoices(relative, EditorSession.editorName());
  const host = extensionHostPid(server.scratch);
  const baseRss = await settledRss(host);
  let peakRss = baseRss;
  let tokenPeakRss = 0;
  let tokenProcesses: number[] = [];
  let ticks = 0;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, rssBytes(host));
    // The token processes are looked for every half second (a scan of /proc), read every sample.
    if (ticks++ % 5 === 0) tokenProcesses = childrenRunning(host, 'tokenWorker.js');
    tokenPeakRss = Math.max(
      tokenPeakRss,
      tokenProcesses.reduce((sum, p) => sum + rssOf(p), 0),
    );
  }, 100);
  const t0 = Date.now();
  await option.click();
  try {
    const frame = await lensFrame(workbench, name);
    await frame.waitForFunction(() => window.__contextLensOpen?.exactAt !== undefined, undefined, {
      timeout: 300_000,
      polling: 100,
    });
    const marks = await frame.evaluate(() => window.__contextLensOpen ?? {});
    const summary = (await frame.locator('[data-testid="summary"]').textContent()) ?? '';
    // Each reading at its time from now (the exact figures were just shown).
    const shownAt = Date.now();
    const after = (ms: number) => new Promise((r) => setTimeout(r, ms - (Date.now() - shownAt)));
    await after(SETTLED_MS);
    const settledRss = rssBytes(host);
    await after(IDLE_MS);
    const idleRss = rssBytes(host);
    let lastingRss: number | undefined;
    if (lasting) {
      await after(LASTING_MS);
      lastingRss = rssBytes(host);
    }
    const since = (t: number | undefined) => (t === undefined ? undefined : t - t0);
    return {
      frame,
      figures: {
        messages: Number(/^(\d+) messages/.exec(summary)?.[1] ?? Number.NaN),
        listMs: since(marks.listAt),
        wholeListMs: since(marks.wholeListAt),
        analysisMs: since(marks.analysisAt),
        exactMs: since(marks.exactAt),
        openStalls: stalls(host, t0, marks.exactAt ?? shownAt),
        baseRss,
        peakRss: Math.max(peakRss, settledRss),
        tokenPeakRss,
        settledRss,
        idleRss,
        lastingRss,
      },
    };
  } finally {
    clearInterval(sampler);
  }
}

/** The document of the Context Lens webview showing `fileName` (the frame whose title names it). */
async function lensFrame(workbench: Workbench, fileName: string): Promise<Frame> {
  const deadline = Date.now() + 300_000;
  while (Date.now() < deadline) {
    for (const frame of workbench.page.frames()) {
      const found = await frame
        .evaluate(
          (n) =>
            document.querySelector('[data-testid="context-lens"] h1')?.textContent?.includes(n) === true ||
            (document.querySelector('main.loading') !== null &&
              document.body.textContent?.includes(n) === true),
          fileName,
        )
        .catch(() => false);
      if (found) return frame;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no Context Lens view of ${fileName}`);
}

/** One change by the keyboard on `selector`, timed by the webview's probe (key → repainted list). */
async function step(
  frame: Frame,
  selector: string,
  key: string,
): Promise<{ repaint: number; host: number; arrive: number; offered: boolean; held: string }> {
  const before = await frame.evaluate(() => window.__contextLensRepaint?.lastSeq ?? 0);
  // What the view held as the key came: the offers it could show at once, and whether it still waited for the
  // host's answer to its previous change (it shows no offer then).
  const held = await frame.evaluate(() => {
    const { sentSeq, analysisSeq, aheads } = document.body.dataset;
    const offers = aheads ? aheads.split(' ').length : 0;
    return `${offers} offers held${Number(analysisSeq) < Number(sentSeq) ? ', waiting for an answer' : ''}`;
  });
  await frame.evaluate(() => {
    (window as unknown as { __arrivals: number[] }).__arrivals = [];
  });
  const field = frame.locator(selector);
  await field.focus();
  const t0 = await frame.evaluate(() => performance.now());
  await field.press(key);
  await frame.waitForFunction((n) => (window.__contextLensRepaint?.lastSeq ?? 0) > n, before, {
    timeout: 120_000,
    polling: 'raf',
  });
  const [repaint, arrivedAt, summary, paintedAt] = await frame.evaluate(() => [
    window.__contextLensRepaint?.lastRepaintMs ?? Number.NaN,
    (window as unknown as { __arrivals: number[] }).__arrivals[0] ?? Number.NaN,
    document.querySelector('[data-testid="summary"]')?.textContent ?? '',
    window.__contextLensRepaint?.paintedAt ?? Number.NaN,
  ]);
  const host = Number(/analysed in (\d+) ms/.exec(String(summary))?.[1] ?? Number.NaN);
  // A human's pace between keys: the settings write and anything it triggers happen between them.
  await new Promise((r) => setTimeout(r, 300));
  // Painted before the host's answer arrived: the view took an analysis the host had offered (run ahead).
  const offered = !(Number(arrivedAt) <= Number(paintedAt));
  return { repaint: Number(repaint), host, arrive: Number(arrivedAt) - t0, offered, held };
}

async function changes(frame: Frame, host: number): Promise<ChangeFigures> {
  // Arrival of each analysis message in the page, for the breakdown (it crosses packed: its JSON starts with its
  // type).
  await frame.evaluate(() => {
    window.addEventListener(
      'message',
      (e) => {
        const m = e.data as { type?: string; json?: Uint8Array };
        const packed = m?.type === 'packed' && m.json ? new TextDecoder().decode(m.json.subarray(0, 20)) : '';
        if (m?.type === 'analysis' || packed.startsWith('{"type":"analysis"'))
          (window as unknown as { __arrivals: number[] }).__arrivals.push(performance.now());
      },
      true,
    );
  });
  const out: ChangeFigures = {
    steps: [],
    idleSteps: [],
    switches: [],
    hostMs: [],
    arriveMs: [],
    sequence: [],
    load: '',
    stepStalls: NO_STALLS,
    switchStalls: NO_STALLS,
  };
  const stepsFrom = Date.now();
  const note = (what: string, r: Awaited<ReturnType<typeof step>>) =>
    out.sequence.push(
      `${what} ${ms(r.repaint)}${r.offered ? ' offered' : ''} (answer ${Number.isFinite(r.arrive) ? ms(r.arrive) : 'none'}${r.offered ? '' : `; ${r.held}`})`,
    );
  const keys = ['ArrowUp', 'ArrowUp', 'ArrowUp', 'ArrowUp', 'ArrowUp'];
  const back = keys.map(() => 'ArrowDown');
  for (const field of ['keepRecent', 'tier1Distance'])
    for (const key of [...keys, ...back]) {
      const r = await step(frame, `[data-testid="setting-${field}"]`, key);
      note(`${field} ${key}`, r);
      out.steps.push(r.repaint);
      out.hostMs.push(r.host);
      out.arriveMs.push(r.arrive);
    }
  const switchesFrom = Date.now();
  out.stepStalls = stalls(host, stepsFrom, switchesFrom);
  for (const key of ['ArrowDown', 'ArrowUp', 'ArrowDown', 'ArrowUp', 'ArrowDown', 'ArrowUp']) {
    const r = await step(frame, '[data-testid="setting-policy"]', key);
    note(`policy ${key}`, r);
    out.switches.push(r.repaint);
  }
  out.switchStalls = stalls(host, switchesFrom, Date.now());
  for (const [field, key] of IDLE_STEPS) {
    await new Promise((r) => setTimeout(r, IDLE_STEP_AFTER_MS));
    const r = await step(frame, `[data-testid="setting-${field}"]`, key);
    note(`${field} ${key} after a pause`, r);
    out.idleSteps.push(r.repaint);
  }
  out.load = load();
  // Settings are saved once the changes pause: the last change is saved before the editor is closed, as a user's
  // would be (the reopen then runs under the settings the view was left with).
  await new Promise((r) => setTimeout(r, SAVED_AFTER_MS));
  return out;
}

/** The steps taken with the host idle, and the pause before each (the runs ahead after a change take a few
 * seconds on a 100 MB session). */
const IDLE_STEPS = [
  ['keepRecent', 'ArrowUp'],
  ['keepRecent', 'ArrowDown'],
  ['tier1Distance', 'ArrowUp'],
  ['tier1Distance', 'ArrowDown'],
  ['keepRecent', 'ArrowDown'],
  ['keepRecent', 'ArrowUp'],
] as const;
const IDLE_STEP_AFTER_MS = 5_000;

/** How long after the changes the host's memory is read again: the analyses kept for a user who is tuning are let
 * go of after 30 s without a change, and the token workers end after 10 s. What the host keeps of the tuning (a
 * tokenizer loaded for a few texts stays as long as the host runs). */
const TUNED_MS = 35_000;

async function afterTuning(server: EditorServer, f: OpenFigures, fileBytes: number): Promise<string> {
  await new Promise((r) => setTimeout(r, TUNED_MS));
  const rss = rssBytes(extensionHostPid(server.scratch));
  const x = (n: number) => `${(n / fileBytes).toFixed(1)}×`;
  return ` host memory ${TUNED_MS / 1000} s after the changes ${x(rss)} (added ${x(rss - f.baseRss)});`;
}

/** Longer than the pause after which the settings are saved, plus the write. */
const SAVED_AFTER_MS = 4000;

async function withEditor<T>(
  scratch: string,
  workspace: string,
  fn: (workbench: Workbench, server: EditorServer) => Promise<T>,
): Promise<T> {
  assertEditorPrerequisites(chromiumPath);
  const server = await startEditor({ scratch, workspace });
  let browser: Browser | undefined;
  try {
    browser = await launchChromium(chromiumPath);
    const workbench = await Workbench.open(
      browser,
      server.workbenchUrl({ extensionDevelopmentPath: repoRoot }),
      join(repoRoot, 'test-output', 'bench', 'editor'),
    );
    return await fn(workbench, server);
  } finally {
    await browser?.close();
    await server.stop();
  }
}

export async function run(): Promise<void> {
  const sessions = sessionFiles();
  const root = mkdtempSync(join(tmpdir(), 'context-lens-bench-'));
  const workspace = join(root, 'workspace');
  // With CONTEXT_LENS_HOST_PROFILE set, the host's profiles are kept beside the stalls, for a profiler.
  stallsDir = process.env.CONTEXT_LENS_HOST_PROFILE
    ? join(repoRoot, 'test-output', 'bench', 'editor', 'host')
    : join(root, 'stalls');
  rmSync(stallsDir, { recursive: true, force: true });
  mkdirSync(stallsDir, { recursive: true });
  // The editor's processes inherit these: the extension host records its stalls (and profiles itself if asked).
  process.env.CONTEXT_LENS_STALLS_DIR = stallsDir;
  process.env.NODE_OPTIONS = [
    process.env.NODE_OPTIONS,
    `--require ${join(import.meta.dirname, 'hostStalls.cjs')}`,
  ]
    .filter(Boolean)
    .join(' ');
  const scratch = join(root, 'editor');
  mkdirSync(workspace, { recursive: true });
  // Links, not copies: the fixtures stay where they are.
  for (const s of sessions) symlinkSync(resolve(s.path), join(workspace, basename(s.path)));
  console.log(
    `real editor (code-server), ${availableParallelism()} CPUs, load average ${load()} at start; each change: median / p90 / worst`,
  );
  const rows: string[] = [];
  const breakdown: string[] = [];
  try {
    await withEditor(scratch, workspace, async (workbench, server) => {
      for (const s of sessions) {
        const bytes = statSync(s.path).size;
        const large = s.label.startsWith('generated');
        const { frame, figures } = await openTimed(workbench, server, basename(s.path), large);
        const c = await changes(frame, extensionHostPid(server.scratch));
        const tuned = large ? await afterTuning(server, figures, bytes) : '';
        rows.push(
          `| ${s.label} | ${figures.messages} | ${sec(figures.listMs)} | ${sec(figures.wholeListMs)} | ${sec(figures.analysisMs)} | ${sec(figures.exactMs)} | ${stallText(figures.openStalls)} | ${spread(c.steps)} | ${spread(c.idleSteps)} | ${stallText(c.stepStalls)} | ${spread(c.switches)} | ${stallText(c.switchStalls)} | ${memory(figures, bytes)} | ${c.load} |`,
        );
        breakdown.push(
          `${s.label}: longest host stalls while opening ${figures.openStalls.worst || 'none'}; while stepping ${c.stepStalls.worst || 'none'}; host analysis ${spread(c.hostMs.filter(Number.isFinite))}; key → analysis message arrives ${spread(c.arriveMs.filter(Number.isFinite))};${tuned} each change: ${c.sequence.join(', ')}`,
        );
        console.log(rows.at(-1));
        await workbench.runCommand('View: Close All Editors');
      }
    });
    const big = sessions.filter((s) => s.label.startsWith('generated'));
    if (big.length > 0) {
      // The editor restarted with the same user data: the counts on disk are all that is left.
      await withEditor(scratch, workspace, async (workbench, server) => {
        for (const s of big) {
          const bytes = statSync(s.path).size;
          const { figures } = await openTimed(workbench, server, basename(s.path), true);
          rows.push(
            `| ${s.label}, reopened after a restart | ${figures.messages} | ${sec(figures.listMs)} | ${sec(figures.wholeListMs)} | ${sec(figures.analysisMs)} | ${sec(figures.exactMs)} | ${stallText(figures.openStalls)} | | | | | | ${memory(figures, bytes)} | ${load()} |`,
          );
          console.log(rows.at(-1));
          await workbench.runCommand('View: Close All Editors');
        }
      });
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  console.log('');
  console.log(
    `| session | messages | first paint | whole list | first analysis | exact figures | host stalls over 50 ms while opening | step → repaint (median / p90 / worst) | step with the host idle | host stalls while stepping | policy switch | host stalls while switching | host memory peak / ${SETTLED_MS / 1000} s after / workers ended / ${LASTING_MS / 1000} s after (× file) | load |`,
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const r of rows) console.log(r);
  console.log('');
  for (const b of breakdown) console.log(b);
}
