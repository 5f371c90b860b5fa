// `context-lens compact <file>`: writes the compacted transcript in the input's format, the CCR store when any
// marker was written, and optionally the Analysis as JSON.
import { basename, dirname, extname, join } from 'node:path';
import { compactTranscriptSync } from '../core/compact';
import type { PolicyName } from '../core/engine/policy';
import { createSummarizer, type SummarizerName } from '../core/engine/summarizer';
import { sameFileSync, writeFileAtomicSync } from '../node/atomicWrite';
import {
  buildPolicy,
  POLICY_HELP,
  parseFileArgs,
  parsePolicyName,
  readTranscript,
  UsageError,
  withUsageErrors,
} from './policyArgs';

const HELP = `usage: context-lens compact <file> [options]

  --policy NAME            policy to run (default: tiered)
  --set key=value          change one constant, e.g. --set tiered.keepRecent=4 (repeatable)
  --model PRESET           model preset for tokens and cost (default: claude-sonnet-4)
  --summarizer NAME        none (default: head-and-tail only) or extractive
  --out FILE               output file (default: <name>.compacted.<ext>, never the input)
  --report FILE            write the Analysis as JSON
  --drop-tool-use-result   Claude Code: drop the runtime's copy of rewritten outputs (toolUseResult)

${POLICY_HELP}
`;

export function defaultOutName(file: string): string {
  const ext = extname(file);
  return join(dirname(file), `${basename(file, ext)}.compacted${ext}`);
}

export async function runCompact(args: string[]): Promise<number> {
  let name: PolicyName | undefined;
  let model: string | undefined;
  let summarizerName: SummarizerName = 'none';
  let out: string | undefined;
  let report: string | undefined;
  let dropToolUseResult = false;
  const sets: string[] = [];
  return withUsageErrors('compact', async () => {
    const file = parseFileArgs(args, HELP, (a, value) => {
      if (a === '--policy') name = parsePolicyName(value());
      else if (a === '--set') sets.push(value());
      else if (a === '--model') model = value();
      else if (a === '--summarizer') {
        const v = value();
        if (v !== 'none' && v !== 'extractive')
          throw new UsageError(`--summarizer: must be none or extractive, got "${v}"`);
        summarizerName = v;
      } else if (a === '--out') out = value();
      else if (a === '--report') report = value();
      else if (a === '--drop-tool-use-result') dropToolUseResult = true;
      else return false;
      return true;
    });
    if (file === undefined) return 0;
    const outFile = out ?? defaultOutName(file);
    // The same path, a symlink to the input or a hard link of it.
    if (sameFileSync(outFile, file))
      throw new UsageError(`--out ${outFile}: refusing to write over the input`);
    const transcript = readTranscript(file);
    const policy = buildPolicy(transcript, name, model, sets);
    const summarizer = createSummarizer(summarizerName, policy.tiered.maxResultChars);
    const result = compactTranscriptSync(transcript, policy, {
      summarizer,
      dropToolUseResult,
      fileName: file,
    });
    writeFileAtomicSync(outFile, result.output);
    const ccrFile = `${outFile}.ccr.json`;
    if (result.ccrJson) writeFileAtomicSync(ccrFile, result.ccrJson);
    if (report) writeFileAtomicSync(report, `${JSON.stringify(result.analysis, null, 2)}\n`);
    const t = result.analysis.totals;
    const saved = t.tokensBefore - t.tokensAfter;
    process.stdout.write(
      `${file}: ${transcript.format}, ${t.messages} messages, ${t.toolResults} tool results\n` +
        `policy ${policy.name}: ${result.rewrites.length} blocks rewritten, tokens ${t.tokensBefore} → ${t.tokensAfter} ` +
        `(−${saved}${t.tokensBefore > 0 ? `, ${((100 * saved) / t.tokensBefore).toFixed(1)}%` : ''})` +
        `${result.analysis.tokenEstimate ? ' [o200k estimate for a Claude model]' : ''}\n` +
        `tiers: 1×${t.tiers['1'].count} 2×${t.tiers['2'].count} 3×${t.tiers['3'].count}; ` +
        `summarizer ${result.analysis.summarizer}: ${t.summarizerAttempts} attempts, ${t.summarizerFailures} failures\n` +
        `wrote ${outFile}${result.ccrJson ? ` and ${ccrFile}` : ''}${report ? ` and ${report}` : ''}\n`,
    );
    if (result.ccrDisabled)
      process.stderr.write(
        'warning: liveZone.ccr is false: no CCR store written, its markers point at nothing\n',
      );
    return 0;
  });
}
