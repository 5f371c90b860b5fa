// SPEC §2: tool results compressed by distance, in three tiers (tiered.ts).
import { int, type StrategyDescriptor } from './descriptor';

export interface TieredSettings {
  keepRecent: number;
  tier1Distance: number;
  maxResultChars: number;
  summaryMinChars: number;
  summariesPerPass: number;
  floorTools: string[];
  noSummaryTools: string[];
  argsChars: number;
}

export const tiered: StrategyDescriptor<'tiered', TieredSettings> = {
  key: 'tiered',
  settings: {
    keepRecent: {
      ...int(0),
      default: 8,
      description: 'Tool results at a distance below this stay Tier 3, untouched.',
      risk: {
        below: 3,
        words:
          'rewrites what the agent read in its last tool calls, which it may still need (the file it edits, the error it fixes)',
      },
    },
    tier1Distance: {
      ...int(0),
      default: 20,
      description:
        'Tool results at a distance at or above this become Tier 1 stubs, unless a floor tool holds them. Must be at least `keepRecent`.',
      inertWhy:
        'a pass at every request meets each result first at distance keepRecent and keeps its tier from then on (first touch), so no result is first met at tier1Distance: it acts under the once and pressure triggers',
    },
    maxResultChars: {
      ...int(1),
      default: 300,
      description: 'Head-and-tail budget (in characters) of a Tier-2 block.',
    },
    summaryMinChars: {
      ...int(0),
      default: 2000,
      description: 'Only results longer than this are offered to the summarizer.',
    },
    summariesPerPass: {
      ...int(0),
      default: 2,
      description: 'Summarizer attempts per pass (failures count).',
    },
    floorTools: {
      kind: 'patterns',
      default: ['file_read', 'grep', 'glob', 'directory_list', 'browser_*'],
      description:
        "Tools never stubbed to Tier 1 (exact names, or a prefix ending in `*`). When unset, the preset for the transcript's agent is added (e.g. `Read`, `Grep` for Claude Code).",
    },
    noSummaryTools: {
      kind: 'patterns',
      default: ['think', 'cloud_delegate', 'file_read', 'grep', 'glob', 'directory_list', 'browser_*'],
      description: 'Tools never summarized (still truncated).',
    },
    argsChars: {
      ...int(0),
      default: 100,
      description: "How much of the call's JSON input a Tier-1 stub keeps.",
    },
  },
  strategy: { providers: [], simulatedFromDocs: false },
};
