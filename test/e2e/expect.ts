// What the end-to-end tests expect, computed by the engine itself from the transcript on disk, and the
// readers that take the same figures off the webview.
import { readFileSync } from 'node:fs';
import type { Frame, FrameLocator } from 'playwright-core';
import { analyzeSync } from '../../src/core/analysis';
import type { Policy } from '../../src/core/engine/policy';
import { parseTranscript } from '../../src/core/formats';
import type { Transcript } from '../../src/core/model';
import { type Problem, transcriptProblems } from '../../src/core/problems';
import { defaultsFor } from '../../src/host/policySettings';
import type { EditorSession } from './session';

/**
 * Tier per message index ('1' | '2' | '3', or null for a message without tool results), as the engine says
 * under the defaults the editor uses for this transcript (no contextLens.* setting set), plus `change`.
 */
export function engineTiers(path: string, change: PolicyChange = {}): (string | null)[] {
  const { transcript, policy } = load(path, change);
  return analyzeSync(transcript, policy).analysis.messages.map((m) =>
    m.tier === null ? null : String(m.tier),
  );
}

interface PolicyChange {
  keepRecent?: number;
  tier1Distance?: number;
}

function load(path: string, change: PolicyChange = {}): { transcript: Transcript; policy: Policy } {
  const transcript = parseTranscript(readFileSync(path), path);
  const policy = defaultsFor(transcript);
  if (change.keepRecent !== undefined) policy.tiered.keepRecent = change.keepRecent;
  if (change.tier1Distance !== undefined) policy.tiered.tier1Distance = change.tier1Distance;
  return { transcript, policy };
}

/** Tokens of the transcript after the policy, as the engine counts them. */
export function engineTokensAfter(path: string, change: PolicyChange = {}): number {
  const { transcript, policy } = load(path, change);
  return analyzeSync(transcript, policy).analysis.totals.tokensAfter;
}

/** The Problems entries the extension should show for a file, by the same rules. */
export function engineProblems(path: string): Problem[] {
  const { transcript, policy } = load(path);
  return transcriptProblems(transcript, policy);
}

/** What an export must keep (format, messages, tool pairs) and shrink (tokens, counted with no policy). */
export function exportFacts(path: string) {
  const { transcript, policy } = load(path);
  const uses: string[] = [];
  const results: string[] = [];
  for (const message of transcript.messages) {
    for (const block of message.blocks) {
      if (block.type === 'tool_use') uses.push(block.id);
      if (block.type === 'tool_result') results.push(block.toolUseId);
    }
  }
  const unpaired = [
    ...uses.filter((id) => !results.includes(id)).map((id) => `tool_use ${id} without result`),
    ...results.filter((id) => !uses.includes(id)).map((id) => `tool_result ${id} without call`),
  ];
  const none: Policy = { ...policy, name: 'none' };
  return {
    format: transcript.format,
    messages: transcript.messages.length,
    pairs: uses,
    unpaired,
    tokens: analyzeSync(transcript, none).analysis.totals.tokensBefore,
  };
}

/**
 * Tier badge per message index as the webview shows it. The list is virtualized (only visible rows exist), so
 * this scrolls it from top to bottom and collects every row it meets.
 */
export async function webviewTiers(webview: FrameLocator): Promise<(string | null)[]> {
  const list = webview.locator('[data-testid="message-list"]');
  await list.locator('[data-testid="message-row"]').first().waitFor({ timeout: 30_000 });
  const seen = new Map<number, string | null>();
  await list.evaluate((el) => {
    el.scrollTop = 0;
  });
  for (;;) {
    const rows = await list.locator('[data-testid="message-row"]').evaluateAll((els) =>
      els.map((el) => {
        const badge = el.querySelector('[data-testid="tier-badge"]');
        return [
          Number(el.getAttribute('data-index')),
          badge ? badge.getAttribute('data-tier') : null,
        ] as const;
      }),
    );
    for (const [index, tier] of rows) seen.set(index, tier);
    const atEnd = await list.evaluate((el) => {
      const before = el.scrollTop;
      el.scrollTop = before + Math.max(1, el.clientHeight - 30);
      return el.scrollTop === before;
    });
    if (atEnd) break;
    // The virtualizer renders the rows of the new scroll position on the scroll event: two frames later they are
    // there (a fixed wait is too short on a loaded machine, and too long on an idle one).
    await list.evaluate(
      () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))),
    );
  }
  const count = Math.max(-1, ...seen.keys()) + 1;
  return Array.from({ length: count }, (_, i) => seen.get(i) ?? null);
}

/** Retries `check` until it stops throwing or `timeoutMs` passes; then throws its last error. */
export async function eventually<T>(check: () => Promise<T>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}

/** The document of the Context Lens webview in sight showing `fileName` (the frame whose title names it). Waits
 * while none is in sight, or more than one: a webview behind another tab keeps its frames, hidden, and the copy a
 * split made is hidden only once the editor opened over it shows. */
export async function lensFrame(session: EditorSession, fileName: string): Promise<Frame> {
  return eventually(async () => {
    const shown: Frame[] = [];
    for (const frame of session.workbench.page.frames()) {
      const title = await frame
        .evaluate(() => document.querySelector('[data-testid="context-lens"] h1')?.textContent ?? '')
        .catch(() => '');
      if (!title.includes(fileName)) continue;
      const outer = await frame
        .parentFrame()
        ?.frameElement()
        .catch(() => null); // detached meanwhile
      if (outer && (await outer.isVisible().catch(() => false))) shown.push(frame);
    }
    if (shown.length !== 1)
      throw new Error(`${shown.length} Context Lens views of ${fileName} in sight, not one`);
    return shown[0];
  });
}
