// The part of each request that the logs do not hold (system prompt, tool definitions: Claude Code sends some
// 15–20k tokens of them) and the ratio between the recorded token counts and ours (o200k is not Claude's
// tokenizer), both estimated from the usage the transcript recorded: recorded ≈ hidden + factor × counted.
import type { HiddenPrefixInfo } from '../analysisTypes';
import type { PreparedTranscript } from './prepare';

/** Request k's message tokens before any policy: [requestStarts[k], requestEnds[k]) of the original counts, plus
 * the compaction summary sent in place of the older messages. */
export function baselineRequestTokens(p: PreparedTranscript): number[] {
  const prefix = [0];
  for (const t of p.messageTokens) prefix.push(prefix[prefix.length - 1] + t);
  return p.requestEnds.map((end, k) => {
    const start = p.requestStarts[k];
    return prefix[end] - prefix[start] + (start > 0 ? (p.compactionSummaryTokens.get(start) ?? 0) : 0);
  });
}

export function estimateHiddenPrefix(p: PreparedTranscript): HiddenPrefixInfo {
  const xs: number[] = [];
  const ys: number[] = [];
  const baseline = baselineRequestTokens(p);
  p.requestEnds.forEach((end, k) => {
    const usage = p.transcript.messages[end].usage;
    if (!usage) return;
    const recorded = usage.inputTokens + usage.cacheReadInputTokens + usage.cacheCreationInputTokens;
    if (recorded <= 0) return;
    xs.push(baseline[k] + p.systemTokens);
    ys.push(recorded);
  });
  const n = xs.length;
  if (n === 0)
    return {
      hiddenTokens: p.systemTokens,
      calibration: 1,
      samples: 0,
      source:
        p.systemTokens > 0 ? 'system prompt and tools from the file; no recorded usage' : 'no recorded usage',
      warmAtStart: false,
      warmTokens: 0,
    };
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  const sxx = xs.reduce((a, x) => a + (x - mx) ** 2, 0);
  const sxy = xs.reduce((a, x, i) => a + (x - mx) * (ys[i] - my), 0);
  let calibration = sxx > 0 ? sxy / sxx : 1;
  let hidden = my - calibration * mx;
  let how = `least squares over ${n} requests with recorded usage`;
  // Implausible fits (too few or too similar requests) fall back to the plain difference, factor 1.
  if (!(calibration > 0.5 && calibration < 2) || hidden < 0) {
    calibration = 1;
    hidden = Math.max(0, my - mx);
    how = `mean difference over ${n} requests with recorded usage (factor fixed at 1)`;
  }
  const hiddenTokens = Math.round(hidden + p.systemTokens * calibration);
  const firstUsage = p.requestEnds.length > 0 ? p.transcript.messages[p.requestEnds[0]].usage : undefined;
  const warmTokens = firstUsage ? Math.min(hiddenTokens, firstUsage.cacheReadInputTokens) : hiddenTokens;
  if (firstUsage) how += `; cached part at the first request from its recorded cache read (${warmTokens})`;
  return {
    hiddenTokens,
    warmTokens,
    calibration,
    samples: n,
    source: how,
    warmAtStart: true,
  };
}
