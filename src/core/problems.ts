// What the Problems panel says about a transcript file: the reader's own diagnostics (broken records, unknown
// record types…) with what to do about them, tool calls and results that lost their partner, duplicate ids, and
// results the tiered policy would stub to Tier 1 although their tool looks content-bearing (a floor missing from
// `tiered.floorTools`). Pure: the transcript and the policy in, a list out; the host turns it into diagnostics.
import { toolMatcher } from './engine/patterns';
import { DEFAULT_POLICY, type Policy, policyPasses } from './engine/policy';
import { tablePrices } from './engine/prices';
import { FORMATS } from './formats/registry';
import { inSlices } from './giveWay';
import type { Block, Diagnostic, Message, Transcript } from './model';
import { billsTokens, NO_MODEL, unpricedPreset } from './recordedUsage';

/** A reader's diagnostic (`invalid-json`, `unknown-record`…) or one of this module's codes: the same shape, so
 * the host shows both through one path. */
export type Problem = Diagnostic;

export const PROBLEM_CODES = {
  toolUseWithoutResult: 'tool-use-without-result',
  toolResultWithoutUse: 'tool-result-without-use',
  duplicateToolUseId: 'duplicate-tool-use-id',
  duplicateToolResult: 'duplicate-tool-result',
  floorMissing: 'floor-missing',
  unpricedModel: 'unpriced-model',
} as const;

/** What to do about each of the reader's diagnostics (by code). Codes not listed are shown as the reader said. */
const ADVICE: Record<string, string> = {
  'invalid-json':
    'Until it parses, the record is left out of the analysis (and kept in exports as it is). If the file was cut off or edited by hand, repair or delete this line.',
  'unexpected-record':
    'The line is kept as is and left out of the analysis. Check that it belongs to this transcript.',
  'unknown-record':
    'Records of this type are kept byte-for-byte and shown as markers. Nothing to do unless you expected them to be messages.',
  'unknown-block': 'Blocks of this type are kept byte-for-byte and never compressed. Nothing to do.',
  'unexpected-block': 'The block is kept as is and never compressed. Check the file against its format.',
  'unexpected-content': 'The content is kept as is and never compressed. Check the file against its format.',
  'unexpected-message':
    'The entry is kept as is and left out of the messages. Check the file against its format.',
  'unknown-role': 'The message is kept as is. Check the role name against the format.',
  'invalid-arguments':
    "The call's arguments are not valid JSON (the call was probably cut off); Tier-1 stubs quote them as text.",
  'server-held-context':
    'The figures cover only the items in this file; open a log that holds the whole conversation to see all of it.',
  'implausible-timestamp':
    'The record is read as it is; only its time is left out, so the replay does not expire the prompt cache there. If the file was edited or put together by hand, fix the time.',
  'figure-out-of-range':
    'The record is read as it is; only this figure is left out. If the file was edited by hand, restore the figure.',
  'missing-parent':
    'The conversation tree has a gap: the parent record is not in this file, so earlier context may live in another session file.',
};

function withAdvice(d: Diagnostic): Problem {
  const advice = ADVICE[d.code];
  return {
    severity: d.severity,
    code: d.code,
    message: advice ? `${d.message}. ${advice}` : d.message,
    line: d.line,
    column: d.column,
  };
}

function positionOf(message: Message, block: Block): { line: number; column: number } {
  const s = block.source ?? message.source;
  if (s) return { line: s.line, column: s.column };
  const line = block.location?.recordLine;
  return { line: line ?? 1, column: 1 };
}

interface Seen {
  message: Message;
  block: Block;
}

const lines = (list: Seen[]) =>
  [...new Set(list.map((s) => positionOf(s.message, s.block).line))].slice(0, 5).join(', ');

/** tool_use without a result, results without a call, and ids used more than once, in one conversation
 * (`conversation` names a sub-agent's, whose messages are paired among themselves). */
export function pairingProblems(messages: readonly Message[], conversation?: string): Problem[] {
  const calls = new Map<string, Seen[]>();
  const results = new Map<string, Seen[]>();
  for (const message of messages)
    for (const block of message.blocks) {
      if (block.type === 'tool_use') {
        const list = calls.get(block.id) ?? [];
        list.push({ message, block });
        calls.set(block.id, list);
      } else if (block.type === 'tool_result') {
        const list = results.get(block.toolUseId) ?? [];
        list.push({ message, block });
        results.set(block.toolUseId, list);
      }
    }
  const out: Problem[] = [];
  // Calls after the last user message may simply not be answered yet (a live session): the results would come
  // in the next user message.
  const position = new Map<Message, number>();
  let lastUser = -1;
  messages.forEach((m, i) => {
    position.set(m, i);
    if (m.role === 'user') lastUser = i;
  });
  for (const [id, list] of calls) {
    const first = list[0];
    const name = first.block.type === 'tool_use' ? first.block.name : 'unknown';
    if (!results.has(id)) {
      const inFlight = (position.get(first.message) ?? 0) > lastUser;
      out.push({
        severity: inFlight ? 'info' : 'warning',
        code: PROBLEM_CODES.toolUseWithoutResult,
        message: inFlight
          ? `tool_use ${id} (${name}) has no tool_result yet: the session may still be running. Reopen the file once the tool has answered.`
          : `tool_use ${id} (${name}) has no tool_result. The agent was probably interrupted; a request built from this transcript would be refused by the API. Compression leaves the call as is; to send the transcript again, add a tool_result for ${id} or cut the transcript before this call.`,
        ...positionOf(first.message, first.block),
      });
    }
    if (list.length > 1)
      out.push({
        severity: 'warning',
        code: PROBLEM_CODES.duplicateToolUseId,
        message: `tool_use id ${id} is used by ${list.length} calls (lines ${lines(list)}). Results pair with the first call, so the other calls' results may be shown and stubbed under the wrong tool; if the file was assembled from several sessions, keep one session per file.`,
        ...positionOf(list[1].message, list[1].block),
      });
  }
  for (const [id, list] of results) {
    const first = list[0];
    if (!calls.has(id))
      out.push({
        severity: 'warning',
        code: PROBLEM_CODES.toolResultWithoutUse,
        message: `tool_result for ${id} answers no tool_use in this conversation (the call may be in a compacted or missing part of the file). Its tool is unknown, so no floor can protect it and a Tier-1 stub names it "unknown"; check that the file is complete.`,
        ...positionOf(first.message, first.block),
      });
    if (list.length > 1)
      out.push({
        severity: 'warning',
        code: PROBLEM_CODES.duplicateToolResult,
        message: `tool_use ${id} has ${list.length} tool_results (lines ${lines(list)}). The API takes one result per call; remove the repeated result or give it its own call.`,
        ...positionOf(list[1].message, list[1].block),
      });
  }
  if (conversation)
    for (const p of out) p.message = `In the sub-agent conversation ${conversation}: ${p.message}`;
  return out;
}

// ---- floors missing from the tool lists ------------------------------------------------------------------------

/** Every floor pattern the product ships: the SPEC's and each format preset's. */
export function shippedFloorPatterns(): string[] {
  const all = new Set<string>(DEFAULT_POLICY.tiered.floorTools);
  for (const format of FORMATS) for (const p of format.tools.floorTools) all.add(p);
  return [...all];
}

/** Words that make a tool name look content-bearing (it returns what the agent reads: files, matches, pages). */
const CONTENT_WORDS =
  /(?:^|[^a-z])(read|grep|glob|ls|list|fetch|browser|browse|search|view|cat|open|find|snapshot)(?:[^a-z]|$)/;

/** Splits camelCase and separators so that `WebFetch`, `read_file` and `mcp__x__browser_navigate` all have words. */
function words(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
}

/** Why a tool looks content-bearing, or null. A shipped floor pattern is a firm reason; a word a hint. */
export function contentBearingReason(
  toolName: string,
  shipped = toolMatcher(shippedFloorPatterns()),
): {
  firm: boolean;
  reason: string;
} | null {
  if (shipped(toolName))
    return { firm: true, reason: 'it matches a floor pattern of the shipped tool presets' };
  const m = CONTENT_WORDS.exec(words(toolName));
  return m
    ? { firm: false, reason: `its name says "${m[1]}", which usually returns content the agent needs later` }
    : null;
}

/** File contents or listings: at least 5 numbered lines (`  12→`, `12:`, `12\t`) or path-only lines. A result
 * like this is what the agent read, whatever its tool is called. */
function looksLikeContent(content: string | Block[]): boolean {
  const text =
    typeof content === 'string' ? content : content.map((b) => (b.type === 'text' ? b.text : '')).join('\n');
  if (text.length < 200) return false;
  let numbered = 0;
  let paths = 0;
  for (const line of text.split('\n', 400)) {
    if (/^\s*\d+(?:→|\t|:\s)/.test(line)) numbered++;
    else if (/^\.{0,2}\/?[\w.-]+(?:\/[\w.-]+)+\/?$/.test(line.trim())) paths++;
  }
  return numbered >= 5 || paths >= 5;
}

/** looksLikeContent per result block: the Problems panel is checked again on every settings change, and
 * reading the lines of every old result of a large session each time held the extension host. */
const contentLike = new WeakMap<Block, number>();

/** 1 when the result `block` reads like file contents or a listing, else 0; kept per block. */
function contentLikeOf(block: Extract<Block, { type: 'tool_result' }>): number {
  let like = contentLike.get(block);
  if (like === undefined) {
    like = looksLikeContent(block.content) ? 1 : 0;
    contentLike.set(block, like);
  }
  return like;
}

const resultsRead = new WeakMap<Transcript, Promise<void>>();

/** Reads every result of `transcript` as `floorProblems` does (kept per block), giving way every `everyMs`: the
 * first read of a long session's results takes hundreds of milliseconds, which the extension host's thread (every
 * extension's) must not be held for. `floorProblems` after it reads what is kept. */
export function readResults(transcript: Transcript, everyMs: number): Promise<void> {
  let read = resultsRead.get(transcript);
  if (!read) {
    read = inSlices(resultBlocks(transcript), contentLikeOf, everyMs);
    resultsRead.set(transcript, read);
  }
  return read;
}

function* resultBlocks(transcript: Transcript) {
  for (const m of transcript.messages) for (const b of m.blocks) if (b.type === 'tool_result') yield b;
}

/** What every `floorProblems` of a transcript reads whatever the policy, found once per transcript: it is asked
 * at every analysis (each step of a threshold, each run ahead), on the extension host's thread. */
const resultsOfTranscript = new WeakMap<
  Transcript,
  {
    calls: Map<string, string>;
    resultMessages: Message[];
    resultNames: string[][];
    /** The problems found, by the only settings they depend on (tier1Distance and floorTools): a step of
     * keepRecent finds the same ones. */
    bySettings: Map<string, Problem[]>;
  }
>();

function resultsOf(transcript: Transcript) {
  let found = resultsOfTranscript.get(transcript);
  if (!found) {
    const calls = new Map<string, string>();
    for (const m of transcript.messages)
      for (const b of m.blocks) if (b.type === 'tool_use') calls.set(b.id, b.name);
    const resultMessages = transcript.messages.filter((m) => m.blocks.some((b) => b.type === 'tool_result'));
    const resultNames = resultMessages.map((m) =>
      m.blocks.flatMap((b) => (b.type === 'tool_result' ? [calls.get(b.toolUseId) ?? 'unknown'] : [])),
    );
    found = { calls, resultMessages, resultNames, bySettings: new Map() };
    resultsOfTranscript.set(transcript, found);
  }
  return found;
}

/**
 * Results that a tiered pass "now" (SPEC §2, one pass over the transcript) would stub to Tier 1 although their
 * tool looks content-bearing and is not in `tiered.floorTools`: one problem per tool name, at its first such
 * result, saying how many results it affects and which setting to change.
 */
export function floorProblems(transcript: Transcript, policy: Policy): Problem[] {
  if (!policyPasses(policy.name).tiered) return [];
  const results = resultsOf(transcript);
  const { keepRecent, tier1Distance, floorTools } = policy.tiered;
  if (results.resultMessages.length <= keepRecent) return [];
  const key = `${tier1Distance}\n${floorTools.join('\n')}`;
  let problems = results.bySettings.get(key);
  if (!problems) {
    problems = findFloorProblems(results, tier1Distance, floorTools);
    results.bySettings.set(key, problems);
  }
  return [...problems];
}

function findFloorProblems(
  { calls, resultMessages, resultNames }: ReturnType<typeof resultsOf>,
  tier1Distance: number,
  floorTools: readonly string[],
): Problem[] {
  const isFloor = toolMatcher(floorTools);
  const shipped = toolMatcher(shippedFloorPatterns());
  const byTool = new Map<string, { count: number; message: Message; block: Block; contentLike: number }>();
  resultMessages.forEach((message, pos) => {
    const distance = resultMessages.length - 1 - pos;
    if (distance < tier1Distance) return;
    if (resultNames[pos].some(isFloor)) return; // floored: Tier 2, not a stub
    message.blocks.forEach((block) => {
      if (block.type !== 'tool_result') return;
      const name = calls.get(block.toolUseId);
      if (!name) return;
      const like = contentLikeOf(block);
      const seen = byTool.get(name);
      if (seen) {
        seen.count++;
        seen.contentLike += like;
      } else byTool.set(name, { count: 1, message, block, contentLike: like });
    });
  });
  const out: Problem[] = [];
  for (const [name, { count, message, block, contentLike }] of byTool) {
    const why =
      contentBearingReason(name, shipped) ??
      (contentLike * 2 >= count
        ? {
            firm: false,
            reason: `${contentLike} of its ${count} results read like file contents or listings (numbered lines, paths)`,
          }
        : null);
    if (!why) continue;
    out.push({
      // Stubbing what the agent reads loses it for good, whatever the tool is called: always worth a warning.
      severity: 'warning',
      code: PROBLEM_CODES.floorMissing,
      message: `${count} result${count === 1 ? '' : 's'} of ${name} would be stubbed to Tier 1 ("[${name} called with …] → [result: N chars, snipped]") although ${name} looks content-bearing: ${why.reason}. If the agent needs these results later, add "${name}" to contextLens.tiered.floorTools so they are truncated (Tier 2) instead.`,
      ...positionOf(message, block),
    });
  }
  return out;
}

/** Models that answered replies of the file and that the price table does not know, and replies that name no
 * model: their cost is an estimate at a preset, which the user should know and may change. One warning per model
 * (and one for the replies without), at its first reply. */
function unpricedModels(transcript: Transcript): Problem[] {
  const seen = new Map<string, { line: number; replies: number }>();
  const note = (model: string | undefined, line: number, usage: Message['usage']) => {
    // A reply with tokens that names no model (and a file that names none either) is priced as a preset too.
    const name = model || (usage && billsTokens(usage) ? transcript.model || NO_MODEL : undefined);
    if (!name) return;
    const s = seen.get(name);
    if (s) s.replies++;
    else seen.set(name, { line, replies: 1 });
  };
  if (transcript.replies) for (const r of transcript.replies) note(r.model, r.line, r.usage);
  else
    for (const m of transcript.messages)
      if (m.role === 'assistant') note(m.model, m.source?.line ?? 1, m.usage);
  const out: Problem[] = [];
  for (const [model, { line, replies }] of seen) {
    if (model !== NO_MODEL && tablePrices(model)) continue;
    const preset = unpricedPreset(model === NO_MODEL ? undefined : model, transcript.format);
    const as = preset ? `the ${preset.label} preset (${preset.pricedAs})` : 'nothing: they count $0';
    out.push({
      severity: 'warning',
      code: PROBLEM_CODES.unpricedModel,
      message:
        model === NO_MODEL
          ? `${replies} repl${replies === 1 ? 'y names' : 'ies name'} no model the log can be priced by: ${replies === 1 ? 'it is' : 'they are'} priced as ${as}, an estimate. Set contextLens.model to the preset that matches to price the whole session as you choose`
          : `model ${model} is not in the price table: its ${replies} repl${replies === 1 ? 'y is' : 'ies are'} priced as ${as}, an estimate. Set contextLens.model to the preset that matches it to price the whole session as you choose`,
      line,
      column: 1,
    });
  }
  return out;
}

const byPosition = (a: Problem, b: Problem) => a.line - b.line || a.column - b.column;

/** What is wrong with the file whatever the policy: the reader's diagnostics with what to do, and pairing, in
 * file order. The view's Problems tab, `inspect` and the Problems panel all start from this one list. */
export function fileProblems(transcript: Transcript): Problem[] {
  let found = fileProblemsOf.get(transcript);
  if (!found) {
    found = [
      ...transcript.diagnostics.map(withAdvice),
      ...unpricedModels(transcript),
      ...pairingProblems(transcript.messages),
      ...transcript.sidechains
        .filter((c) => c.messages !== transcript.messages)
        .flatMap((c) => pairingProblems(c.messages, c.id)),
    ].sort(byPosition);
    fileProblemsOf.set(transcript, found);
  }
  return [...found];
}

/** A transcript's own problems, found once: the Problems panel asks again at every change of the settings (each
 * step of a threshold), and pairing the calls of a large session is not free. */
const fileProblemsOf = new WeakMap<Transcript, Problem[]>();

/** The `fileProblems` of `transcript` found elsewhere (the parse worker, on an identical copy of it). */
export function rememberFileProblems(transcript: Transcript, problems: Problem[]): void {
  fileProblemsOf.set(transcript, problems);
}

/** Everything the Problems panel shows for one transcript under one policy, in file order: the file's problems
 * and the floors the policy would miss. */
export function transcriptProblems(transcript: Transcript, policy: Policy): Problem[] {
  return [...fileProblems(transcript), ...floorProblems(transcript, policy)].sort(byPosition);
}
