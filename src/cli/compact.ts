// `context-lens compact <file>`: writes the compacted transcript in the input's format, the CCR store when any
// marker was written, and optionally the Analysis as JSON. Through the editor's export path (node/exportFile):
// the same checks, and every file written together or none (node/writeAll).

import type { PolicyName } from '../core/engine/policy';
import { createSummarizer, type SummarizerName } from '../core/engine/summarizer';
import { argPath } from '../node/argPath';
import { anthropicRequestPathFor, ccrPathFor, compactedPathFor, exportCompacted } from '../node/exportFile';
import { withLoggedSummarizations } from '../node/summarizationFiles';
import { checkTargets } from '../node/writeAll';
import { baselineWords } from '../vsNoneWords';
import { type CommandSpec, type Option, parseCommand } from './options';
import {
  buildPolicy,
  MODEL,
  oneFile,
  POLICY,
  POLICY_HELP,
  readTranscript,
  SET,
  UsageError,
  withUsageErrors,
} from './policyArgs';
import { vsNoneLines } from './simulate';
import { print, printError, terminalText } from './terminal';
import { TOKEN_CACHE_OPTIONS, TokenCacheOption } from './tokenCache';

const SUMMARIZER: Option<SummarizerName> = {
  name: 'summarizer',
  value: 'NAME',
  description: 'none or extractive',
  default: 'none, head-and-tail only',
  parse: (v, flag) => {
    if (v !== 'none' && v !== 'extractive')
      throw new UsageError(`${flag}: must be none or extractive, got "${v}"`);
    return v;
  },
};
const OUT: Option<string> = {
  name: 'out',
  value: 'FILE',
  description: 'output file',
  default: '<name>.compacted.<ext>, never the input',
};
const REPORT: Option<string> = { name: 'report', value: 'FILE', description: 'write the Analysis as JSON' };
const ANTHROPIC_REQUEST: Option<boolean> = {
  name: 'anthropic-request',
  description:
    "also write <out name>.anthropic.json, the Anthropic Messages request the agent would send next: the live segment (after the last compaction), with the system prompt and tools where the file holds them (with a provider strategy's context_management block; its notes say what else it needs)",
};
const FORCE: Option<boolean> = {
  name: 'force',
  description: 'replace output files that exist (without it, an existing one is an error)',
};
const DROP_TOOL_USE_RESULT: Option<boolean> = {
  name: 'drop-tool-use-result',
  description: "Claude Code: drop the runtime's copy of rewritten outputs (toolUseResult)",
};
const ONE_POLICY: Option<PolicyName> = {
  ...POLICY,
  description: 'policy to run',
  multiple: false,
  default: 'tiered',
};

const SPEC: CommandSpec = {
  usage: 'context-lens compact <file> [options]',
  options: [
    ONE_POLICY,
    { ...SET, description: 'change one constant, e.g. --set tiered.keepRecent=4' },
    MODEL,
    SUMMARIZER,
    OUT,
    REPORT,
    ANTHROPIC_REQUEST,
    FORCE,
    DROP_TOOL_USE_RESULT,
    ...TOKEN_CACHE_OPTIONS,
  ],
  notes: [
    'The input is never written, under any name (same path, symbolic or hard link); nor is any file two outputs ' +
      'would share, nor anything that is not a regular file. The output, its CCR store (<out>.ccr.json) and the ' +
      'report are written together: if one fails, none is left.',
    POLICY_HELP,
  ],
};

export async function runCompact(args: string[]): Promise<number> {
  return withUsageErrors('compact', async () => {
    const parsed = parseCommand(SPEC, args);
    if (!parsed) return 0;
    const file = oneFile(parsed);
    const name = parsed.get(ONE_POLICY);
    const model = parsed.get(MODEL);
    const sets = parsed.all(SET);
    const summarizerName = parsed.get(SUMMARIZER) ?? 'none';
    const out = parsed.get(OUT);
    const report = parsed.get(REPORT);
    const anthropicRequest = parsed.has(ANTHROPIC_REQUEST);
    const force = parsed.has(FORCE);
    const dropToolUseResult = parsed.has(DROP_TOOL_USE_RESULT);
    const tokenCache = TokenCacheOption.from(parsed);
    // The outputs' names are made from the input's: one whose name is not UTF-8 (read by its bytes, argPath.ts)
    // would give them a name with U+FFFD in it, another name than the user's file has.
    if (out === undefined && typeof argPath(file) !== 'string')
      throw new UsageError(
        `${terminalText(file)}: its name holds bytes that are not UTF-8 (shown as �); the output's name cannot be made from it: give it with --out`,
      );
    const outFile = out ?? compactedPathFor(file);
    // Refused before the input is read: the input under any name, two outputs that are one file, an existing
    // output without --force, something not a regular file in the way. exportCompacted checks again.
    const planned = [
      outFile,
      ccrPathFor(outFile),
      ...(anthropicRequest ? [anthropicRequestPathFor(outFile)] : []),
      ...(report !== undefined ? [report] : []),
    ];
    try {
      await checkTargets(planned, { source: file, replace: force });
    } catch (error) {
      throw new UsageError(error instanceof Error ? error.message : String(error));
    }
    // The summarization requests of its compactions, where the agent keeps them beside it (the baseline pays them).
    const transcript = withLoggedSummarizations(readTranscript(file), file);
    const policy = buildPolicy(transcript, name, model, sets);
    const summarizer = createSummarizer(summarizerName, policy.tiered.maxResultChars);
    const cache = tokenCache.open();
    let result: Awaited<ReturnType<typeof exportCompacted>>;
    try {
      result = await exportCompacted({
        source: file,
        transcript,
        policy,
        target: outFile,
        report,
        anthropicRequest,
        vsNone: true,
        replace: force,
        compact: { summarizer, dropToolUseResult },
      });
    } finally {
      await cache?.save();
    }
    const t = result.analysis.totals;
    const saved = result.tokensBefore - result.tokensAfter;
    print(
      `${terminalText(file)}: ${transcript.format}, ${t.messages} messages, ${t.toolResults} tool results\n` +
        `policy ${policy.name}: ${result.rewrites} blocks rewritten, tokens ${t.tokensBefore} → ${t.tokensAfter} ` +
        `(−${saved}${t.tokensBefore > 0 ? `, ${((100 * saved) / t.tokensBefore).toFixed(1)}%` : ''})` +
        `${result.analysis.tokenEstimate ? ' [o200k estimate for a Claude model]' : ''}\n` +
        `tiers: 1×${t.tiers['1'].count} 2×${t.tiers['2'].count} 3×${t.tiers['3'].count}; ` +
        `summarizer ${result.analysis.summarizer}: ${t.summarizerAttempts} attempts, ${t.summarizerFailures} failures\n` +
        (result.analysis.vsNone
          ? `against ${baselineWords(result.analysis.vsNone.baseline)} over the same ${result.analysis.vsNone.requests} requests (trigger ${result.analysis.trigger}):\n${vsNoneLines(policy.name, result.analysis.vsNone).join('\n')}\n`
          : '') +
        `wrote ${[result.target, result.ccr, result.request, result.report]
          .filter((f) => f !== undefined)
          .map(terminalText)
          .join(' and ')}\n` +
        result.requestNotes.map((n) => `note on the request: ${terminalText(n)}\n`).join(''),
    );
    if (result.ccrDisabled)
      printError('warning: liveZone.ccr is false: no CCR store written, its markers point at nothing\n');
    return 0;
  });
}
