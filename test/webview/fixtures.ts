// Analyses built by hand for component tests: the webview draws what it is given, so the tests give it
// exact figures and check that exactly those are drawn.
import { decodeAnalysis, encodeAnalysis, type ViewAnalysis } from '../../src/analysisWire';
import type { Analysis, MessageAnalysis, Tier } from '../../src/core/analysisTypes';
import { DEFAULT_POLICY } from '../../src/core/engine/policy';
import type { HostMessage, MessageSummary } from '../../src/protocol';

export function messageAnalysis(
  index: number,
  tier: Tier | null,
  extra: Partial<MessageAnalysis> = {},
): MessageAnalysis {
  return {
    index,
    role: tier === null ? 'assistant' : 'user',
    tier,
    distance: tier === null ? null : 10 - index,
    floored: false,
    zone: 'prefix',
    tokensBefore: 100,
    tokensAfter: tier === 3 || tier === null ? 100 : 20,
    rewritten: tier === 1 || tier === 2,
    toolIds: [`t${index}`],
    toolNames: ['Read'],
    ...extra,
  };
}

export function analysisOf(messages: MessageAnalysis[], extra: Partial<Analysis> = {}): Analysis {
  const tiers = {
    '1': { count: 0, tokensSaved: 0 },
    '2': { count: 0, tokensSaved: 0 },
    '3': { count: 0, tokensSaved: 0 },
  };
  for (const m of messages)
    if (m.tier !== null) {
      tiers[m.tier].count++;
      tiers[m.tier].tokensSaved += m.tokensBefore - m.tokensAfter;
    }
  return {
    format: 'anthropic-messages',
    policyName: 'tiered',
    trigger: 'once',
    messages,
    requests: [
      {
        index: 0,
        messageCount: messages.length,
        promptTokens: 1000,
        cachedTokens: 600,
        writtenTokens: 400,
        boundaryMessage: null,
        boundaryEvents: [],
        cost: 0.01,
      },
    ],
    events: [],
    totals: {
      messages: messages.length,
      toolResults: messages.filter((m) => m.tier !== null).length,
      tokensBefore: messages.reduce((s, m) => s + m.tokensBefore, 0),
      tokensAfter: messages.reduce((s, m) => s + m.tokensAfter, 0),
      promptTokens: 1000,
      cachedTokens: 600,
      writtenTokens: 400,
      cost: 0.01,
      tiers,
      summarizerAttempts: 0,
      summarizerFailures: 0,
    },
    cacheBoundary: null,
    tokenEstimate: true,
    ...extra,
  };
}

export function summaries(n: number, preview = (i: number) => `message ${i}`): MessageSummary[] {
  return Array.from({ length: n }, (_, i) => ({
    index: i,
    role: i % 2 ? 'user' : 'assistant',
    preview: preview(i),
    blockKinds: ['text'],
  }));
}

export function transcriptMessage(messages: MessageSummary[]): Extract<HostMessage, { type: 'transcript' }> {
  return {
    type: 'transcript',
    fileName: 'test.json',
    format: 'anthropic-messages',
    formatReason: 'test',
    messages,
    markers: [],
    diagnostics: [],
    sidechains: 0,
    revision: 1,
  };
}

export const policy = DEFAULT_POLICY;

/** What the webview draws from an analysis: encoded by the host's code, decoded by the webview's. */
export function view(analysis: Analysis): ViewAnalysis {
  return decodeAnalysis(
    JSON.parse(JSON.stringify(encodeAnalysis(analysis))),
    analysis.messages.map((m) => ({ role: m.role, toolNames: m.toolNames })),
  );
}
