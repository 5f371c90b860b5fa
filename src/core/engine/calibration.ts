// The part of each request that the logs do not hold (system prompt, tool definitions: Claude Code sends some
// 15–20k tokens of them) and the ratio between the recorded token counts and ours (o200k is not Claude's
// tokenizer), both estimated from the usage the transcript recorded: recorded ≈ hidden + factor × counted.
import type { HiddenPrefixInfo } from '../analysisTypes';
import { maxOf } from '../arrays';
import type { PreparedTranscript } from './prepare';

/** Request k's message tokens before any policy: [requestStarts[k], requestEnds[k]) of the original counts, plus
 * the compaction summary sent in place of the older messages, less what it does not send (reasoning of earlier
 * turns, messages a reload left out, other models' thinking). */
export function baselineRequestTokens(p: PreparedTranscript): number[] {
  const prefix = [0];
  for (const t of p.messageTokens) prefix.push(prefix[prefix.length - 1] + t);
  const leftOut = p.reloads?.leftOut(
    (m) => p.messageTokens[m],
    (m, b) => p.blockTokens[m][b],
  );
  return p.requestEnds.map((end, k) => {
    const start = p.requestStarts[k];
    return (
      prefix[end] -
      prefix[start] +
      (start > 0 ? (p.compactionSummaryTokens.get(start) ?? 0) : 0) -
      (p.reasoning?.dropped(start, end, end) ?? 0) -
      (leftOut?.dropped(start, end, end) ?? 0) -
      (p.foreignThinking?.dropped(p.transcript.messages[end]?.model, start, end) ?? 0)
    );
  });
}

/** The hidden prefix of one session, and of each segment between compactions: after a compaction the agent
 * re-attaches what it chooses (files read again, memory, hook output), so what the file does not hold differs
 * from segment to segment. */
export interface HiddenPrefix {
  info: HiddenPrefixInfo;
  /** Hidden tokens by segment start (the first message after a compaction; 0 for the first segment). */
  bySegment: Map<number, number>;
  /** Per model that answered (and per agent mode, `promptKey`), when several did: each counts the same text its own
   * way (opus-5 counts what opus-4-8 counted 349,863 as 219,715) and has its own system prompt, so each gets its own
   * fit. A model with too few recorded requests for a fit of its own is absent: the session's fit stands for it. */
  byModel?: Map<string, { info: HiddenPrefixInfo; bySegment: Map<number, number> }>;
}

/** What a fit of its own is kept for: the model that answered, and the agent's mode where its system prompt differs
 * by mode (a Roo Code task switched from `code` to `orchestrator` sent ~28k tokens less with every request). */
export function promptKey(model: string | undefined, mode: string | undefined): string | undefined {
  return model === undefined || mode === undefined ? model : `${model} in ${mode} mode`;
}

/** Recorded requests a model needs for a fit of its own. */
const MIN_MODEL_SAMPLES = 3;

export function estimateHiddenPrefix(p: PreparedTranscript): HiddenPrefix {
  const samples: { x: number; y: number; segment: number; k: number; model: string | undefined }[] = [];
  const baseline = baselineRequestTokens(p);
  p.requestEnds.forEach((end, k) => {
    const message = p.transcript.messages[end];
    const usage = message.usage;
    if (!usage) return;
    const recorded = usage.inputTokens + usage.cacheReadInputTokens + usage.cacheCreationInputTokens;
    if (recorded <= 0) return;
    samples.push({
      x: baseline[k] + p.systemTokens,
      y: recorded,
      segment: p.requestStarts[k],
      k,
      model: promptKey(message.model, message.agentMode),
    });
  });
  if (samples.length === 0) {
    const fromTotals = totalsFit(p, baseline);
    if (fromTotals) return fromTotals;
  }
  const whole = fitSamples(p, samples, 0);
  const models = [...new Set(samples.map((s) => s.model))];
  if (models.length < 2) return whole;
  const byModel = new Map<string, { info: HiddenPrefixInfo; bySegment: Map<number, number> }>();
  for (const model of models) {
    const own = samples.filter((s) => s.model === model);
    if (model === undefined || own.length < MIN_MODEL_SAMPLES) continue;
    byModel.set(model, fitSamples(p, own, own[0].k));
  }
  if (byModel.size === 0) return whole;
  whole.info.byModel = [...byModel].map(([model, f]) => ({
    model,
    hiddenTokens: f.info.hiddenTokens,
    calibration: f.info.calibration,
    samples: f.info.samples,
  }));
  whole.info.source += `; fitted per model that answered (${whole.info.byModel
    .map((m) => `${m.model}: ${m.hiddenTokens} hidden, ×${m.calibration.toFixed(3)} over ${m.samples}`)
    .join('; ')})`;
  return { ...whole, byModel };
}

/** Where the agent recorded only its totals per model over the session (Copilot CLI), each model's hidden part is
 * the mean of what its requests recorded beyond our count, factor 1: fitted for a model whose recorded requests are
 * the main thread's requests to it (a model that also answered sub-agents' or compactions' calls counted those in its
 * totals, and is left to the file's own text). Nothing is known of the first request's cache: taken as cold. */
function totalsFit(p: PreparedTranscript, baseline: number[]): HiddenPrefix | undefined {
  const fits = new Map<string, { info: HiddenPrefixInfo; bySegment: Map<number, number> }>();
  for (const total of p.transcript.recordedTotals ?? []) {
    const ks = p.requestEnds.flatMap((end, k) =>
      p.transcript.messages[end].model === total.model ? [k] : [],
    );
    if (ks.length === 0 || ks.length !== total.requests) continue;
    const counted = ks.reduce((a, k) => a + baseline[k] + p.systemTokens, 0);
    const hidden = Math.max(0, Math.round((total.promptTokens - counted) / ks.length));
    fits.set(total.model, {
      info: {
        hiddenTokens: hidden + p.systemTokens,
        warmTokens: 0,
        calibration: 1,
        samples: ks.length,
        source: `mean difference over the ${ks.length} requests to ${total.model} from the session's recorded totals (${total.promptTokens} prompt tokens; no usage per request, factor fixed at 1, the first request taken as cold)`,
        warmAtStart: false,
      },
      bySegment: new Map(),
    });
  }
  if (fits.size === 0) return undefined;
  const [model, fit] = [...fits][0];
  if (fits.size === 1 && p.requestEnds.every((end) => p.transcript.messages[end].model === model)) return fit;
  // Other models answered too: each fitted model has its fit, the others the file's own text.
  const info = pooledFit(p, [], [], 0);
  info.byModel = [...fits].map(([m, f]) => ({
    model: m,
    hiddenTokens: f.info.hiddenTokens,
    calibration: f.info.calibration,
    samples: f.info.samples,
  }));
  info.source += `; fitted from the session's recorded totals for ${info.byModel.map((m) => `${m.model} (${m.hiddenTokens} hidden over ${m.samples})`).join(', ')}`;
  return { info, bySegment: new Map(), byModel: fits };
}

function fitSamples(
  p: PreparedTranscript,
  samples: { x: number; y: number; segment: number }[],
  firstRequest: number,
): HiddenPrefix {
  const xs = samples.map((s) => s.x);
  const ys = samples.map((s) => s.y);
  const info = pooledFit(p, xs, ys, firstRequest);
  return {
    info,
    bySegment: segmentHidden(
      xs,
      ys,
      samples.map((s) => s.segment),
      info,
      p.systemTokens,
    ),
  };
}

/** Per segment: the mean of what the log recorded beyond our calibrated count, never below zero. With several
 * segments the factor is refitted within them (each segment its own hidden part), when that fit is plausible. */
function segmentHidden(
  xs: number[],
  ys: number[],
  segments: number[],
  info: HiddenPrefixInfo,
  systemTokens: number,
): Map<number, number> {
  const groups = new Map<number, number[]>();
  segments.forEach((s, i) => {
    const g = groups.get(s);
    if (g) g.push(i);
    else groups.set(s, [i]);
  });
  const out = new Map<number, number>();
  if (groups.size < 2) return out;
  let sxx = 0;
  let sxy = 0;
  for (const idx of groups.values()) {
    const mx = idx.reduce((a, i) => a + xs[i], 0) / idx.length;
    const my = idx.reduce((a, i) => a + ys[i], 0) / idx.length;
    for (const i of idx) {
      sxx += (xs[i] - mx) ** 2;
      sxy += (xs[i] - mx) * (ys[i] - my);
    }
  }
  const within = sxx > 0 ? sxy / sxx : Number.NaN;
  if (within > 0.5 && within < 2) {
    info.calibration = within;
    info.source += `; factor refitted within ${groups.size} segments between compactions, each with its own hidden part`;
  } else info.source += `; each of ${groups.size} segments between compactions with its own hidden part`;
  // x counts the system prompt and tools the file holds; they are part of the hidden prefix, as in the pooled fit.
  const c = info.calibration;
  for (const [start, idx] of groups) {
    const mean = idx.reduce((a, i) => a + ys[i] - c * (xs[i] - systemTokens), 0) / idx.length;
    out.set(start, Math.max(0, Math.round(mean)));
  }
  return out;
}

function pooledFit(
  p: PreparedTranscript,
  xs: number[],
  ys: number[],
  firstRequest: number,
): HiddenPrefixInfo {
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
  // The hidden part is no less than nothing and no more than the smallest prompt the log recorded (it is sent in
  // every request): a fit outside that (a file whose text the provider counts far below ours; few requests near
  // one size) is refitted with the hidden part at that bound, the factor alone by least squares.
  const most = -maxOf(ys.map((y) => -y));
  if (n > 1 && (hidden < 0 || hidden > most)) {
    const bound = hidden < 0 ? 0 : most;
    const sx2 = xs.reduce((a, x) => a + x * x, 0);
    const refit = sx2 > 0 ? xs.reduce((a, x, i) => a + x * (ys[i] - bound), 0) / sx2 : Number.NaN;
    if (refit > 0.5 && refit < 2) {
      calibration = refit;
      hidden = bound;
      how += `, the hidden part held at ${hidden < 1 ? 'zero' : 'the smallest recorded prompt'} and the factor refitted`;
    }
  }
  // Implausible fits (too few or too similar requests) fall back to the plain difference, factor 1.
  if (!(calibration > 0.5 && calibration < 2) || hidden < 0) {
    calibration = 1;
    hidden = Math.max(0, my - mx);
    how = `mean difference over ${n} requests with recorded usage (factor fixed at 1)`;
  }
  const hiddenTokens = Math.round(hidden + p.systemTokens * calibration);
  const firstUsage =
    p.requestEnds.length > firstRequest
      ? p.transcript.messages[p.requestEnds[firstRequest]].usage
      : undefined;
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
