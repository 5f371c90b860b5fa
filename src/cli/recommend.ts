// `context-lens recommend <file>`: which strategy, under which settings, would have cost least on this session
// against "none" over the same requests, with the figures and the settings to paste (core/recommend.ts).
import { defaultPolicyFor, POLICY_PASSES, type PolicyName, resolveTrigger } from '../core/engine/policy';
import { type Candidate, recommend, snippets } from '../core/recommend';
import { MAIN_THREAD, threadsOf, threadTranscript } from '../core/threads';
import { money, signedMoney, signedShare } from '../vsNoneWords';
import {
  buildPolicy,
  POLICY_HELP,
  parseFileArgs,
  parsePolicyName,
  readTranscript,
  UsageError,
  withUsageErrors,
} from './policyArgs';
import { TOKEN_CACHE_HELP, TokenCacheOption } from './tokenCache';

const HELP = `usage: context-lens recommend <file> [options]

Replays the session under every policy, each under a few settings around its defaults (tiered's bands,
context editing's trigger, keep and clear_at_least, compaction's threshold), beside "none" over the same
requests, and prints the cheapest with the settings to paste.

  --policy NAME      only this policy (repeatable; default: every policy but none)
  --model PRESET     model preset for tokens, cache rules and prices
  --set key=value    change one constant for every candidate
  --thread ID        one sub-agent's requests instead of the main conversation's (ids: inspect)
  --json             print the ranking as JSON
${TOKEN_CACHE_HELP}

${POLICY_HELP}
`;

const simulatedFromDocs = (c: Candidate) => {
  const p = POLICY_PASSES[c.policy.name];
  return p.contextEditing || p.compaction;
};

function settingsWords(c: Candidate): string {
  const rest = Object.entries(c.settings).filter(([k]) => k !== 'contextLens.policy');
  return rest.length === 0
    ? 'its defaults'
    : rest.map(([k, v]) => `${k.replace(/^contextLens\./, '')}=${JSON.stringify(v)}`).join(', ');
}

export async function runRecommend(args: string[]): Promise<number> {
  const names: PolicyName[] = [];
  let model: string | undefined;
  let json = false;
  let thread = MAIN_THREAD;
  const sets: string[] = [];
  const tokenCache = new TokenCacheOption();
  return withUsageErrors('recommend', async () => {
    const file = parseFileArgs(args, HELP, (a, value) => {
      if (tokenCache.option(a, value)) return true;
      if (a === '--policy') names.push(parsePolicyName(value()));
      else if (a === '--model') model = value();
      else if (a === '--set') sets.push(value());
      else if (a === '--json') json = true;
      else if (a === '--thread') thread = value();
      else return false;
      return true;
    });
    if (file === undefined) return 0;
    const cache = tokenCache.open();
    try {
      const whole = readTranscript(file);
      const transcript = threadTranscript(whole, thread);
      if (!transcript)
        throw new UsageError(
          `--thread ${thread}: not in this file (threads: ${threadsOf(whole)
            .map((t) => t.id)
            .join(', ')})`,
        );
      const base = buildPolicy(transcript, undefined, model, sets);
      const chosen = names.filter((n) => n !== 'none');
      const r = recommend(
        transcript,
        base,
        chosen.length > 0 ? chosen : undefined,
        defaultPolicyFor(transcript.format),
      );
      if (json) {
        process.stdout.write(`${JSON.stringify(r, null, 2)}\n`);
        return 0;
      }
      const out: string[] = [
        `${file}: ${r.requests} requests; "none" costs ${money(r.noneCost)}; ${r.ranked.length} candidates replayed`,
      ];
      const sent = transcript.messages.filter((m) => m.role === 'assistant').length;
      if (resolveTrigger(base.replay.trigger, transcript.format, sent) === 'once')
        out.push(
          'this file is one request body (replay.trigger once): the policies change only the next request, so the totals of the sent ones do not move; --set replay.trigger=everyRequest replays them as a session',
        );
      out.push('', 'cheapest settings of each policy, against "none" over the same requests:');
      const width = Math.max(...r.bestPerPolicy.map((c) => c.policy.name.length));
      for (const c of r.bestPerPolicy)
        out.push(
          `  ${c.policy.name.padEnd(width)} ${money(c.totals.cost)} (${signedMoney(c.deltaCost)}, ${signedShare(c.deltaShare)})` +
            `${simulatedFromDocs(c) ? ' †' : ''}  with ${settingsWords(c)}`,
        );
      if (r.bestPerPolicy.some(simulatedFromDocs))
        out.push(
          `  † simulated from the provider's documented behaviour (README: "The providers' strategies")`,
        );
      out.push('');
      if (!r.best) out.push('Nothing tried costs less than "none" on this session: keep "none".');
      else {
        const s = snippets(r.best, transcript, r.contextWindow);
        out.push(
          `Recommended: ${r.best.policy.name} with ${settingsWords(r.best)}: ${money(r.best.totals.cost)} against ${money(r.noneCost)} (${signedMoney(r.best.deltaCost)}, ${signedShare(r.best.deltaShare)}) over ${r.requests} requests.`,
          '',
          'settings.json:',
          s.settings,
        );
        if (s.request)
          out.push(
            '',
            'or in the Anthropic Messages request, with the header "anthropic-beta: context-management-2025-06-27":',
            s.request,
          );
        if (s.openai)
          out.push(
            '',
            'or in an OpenAI Responses request (Claude Code compacts by itself, near its own limit):',
            s.openai,
          );
        out.push(
          '',
          'The figures are what the requests cost; what a summary or a clearing loses of the conversation is not priced.',
        );
      }
      process.stdout.write(`${out.join('\n')}\n`);
      return 0;
    } finally {
      await cache?.save();
    }
  });
}
