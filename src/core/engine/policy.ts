// Every constant of SPEC §2–§5, under the SPEC's names. Defaults are the SPEC's defaults.

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

export interface ObservationSettings {
  keep: number;
  tools: string[];
}

export interface LiveZoneSettings {
  keepTurns: number;
  minChars: number;
  outputBufferTokens: number;
  ccr: boolean;
}

export type ReplayTrigger = 'once' | 'everyRequest' | 'pressure';

export interface ReplaySettings {
  trigger: ReplayTrigger;
  pressureFraction: number;
}

/** Which policies run. `observation` is the window of SPEC §3, combinable with the others. */
export type PolicyName = 'none' | 'tiered' | 'live-zone' | 'tiered+live-zone' | 'observation';

export interface Policy {
  name: PolicyName;
  tiered: TieredSettings;
  observation: ObservationSettings;
  liveZone: LiveZoneSettings;
  replay: ReplaySettings;
  /** Model preset id (see models.ts). */
  model: string;
}

export const DEFAULT_POLICY: Policy = {
  name: 'tiered',
  tiered: {
    keepRecent: 8,
    tier1Distance: 20,
    maxResultChars: 300,
    summaryMinChars: 2000,
    summariesPerPass: 2,
    floorTools: ['file_read', 'grep', 'glob', 'directory_list', 'browser_*'],
    noSummaryTools: ['think', 'cloud_delegate', 'file_read', 'grep', 'glob', 'directory_list', 'browser_*'],
    argsChars: 100,
  },
  observation: {
    keep: 3,
    tools: ['screenshot', 'computer', 'computer_use', 'applescript', 'browser', 'accessibility', 'browser_*'],
  },
  liveZone: {
    keepTurns: 2,
    minChars: 512,
    outputBufferTokens: 4000,
    ccr: true,
  },
  replay: {
    trigger: 'once',
    pressureFraction: 0.95,
  },
  model: 'claude-sonnet-4',
};
