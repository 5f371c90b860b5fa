// `context-lens recommend <file>`: which strategy, under which settings, would have cost least on this session
// against "none" over the same requests, with the figures and the settings to paste (core/recommend.ts).
import { defaultPolicyFor, resolveTrigger } from '../core/engine/policy';
import { recommend, recommendationLines } from '../core/recommend';
import { baselineWords, money } from '../vsNoneWords';
import type { CommandSpec } from './options';
import {
  buildPolicy,
  POLICY_HELP,
  parseReplayArgs,
  readThread,
  replayOptions,
  withUsageErrors,
} from './policyArgs';
import { print, terminalText } from './terminal';

const SPEC: CommandSpec = {
  usage: 'context-lens recommend <file> [options]',
  about:
    "Replays the session under every policy, each under a few settings around its defaults (tiered's bands, " +
    'context editing\'s trigger, keep and clear_at_least, compaction\'s threshold), beside "none" over the same ' +
    'requests, and prints the cheapest with the settings to paste.',
  options: replayOptions({
    policy: { description: 'only this policy', default: 'every policy but none' },
    set: 'change one constant for every candidate',
    json: 'print the ranking as JSON',
  }),
  notes: [POLICY_HELP],
};

export async function runRecommend(args: string[]): Promise<number> {
  return withUsageErrors('recommend', async () => {
    const parsed = parseReplayArgs(args, SPEC);
    if (parsed === undefined) return 0;
    const { file, names, model, sets, json, thread, tokenCache } = parsed;
    const cache = tokenCache.open();
    try {
      const transcript = readThread(file, thread);
      const base = buildPolicy(transcript, undefined, model, sets);
      const chosen = names.filter((n) => n !== 'none');
      const r = recommend(
        transcript,
        base,
        chosen.length > 0 ? chosen : undefined,
        defaultPolicyFor(transcript.format),
      );
      if (json) {
        print(`${JSON.stringify(r, null, 2)}\n`);
        return 0;
      }
      const sent = transcript.messages.filter((m) => m.role === 'assistant').length;
      const out = [
        `${terminalText(file)}: ${r.requests} requests; ${baselineWords(r.baseline)} costs ${money(r.noneCost)}; ${r.ranked.length} candidates replayed`,
        '',
        ...recommendationLines(r, transcript, {
          oneRequestBody: resolveTrigger(base.replay.trigger, transcript.format, sent) === 'once',
        }),
      ];
      print(`${out.join('\n')}\n`);
      return 0;
    } finally {
      await cache?.save();
    }
  });
}
