// SPEC §3: the window over GUI/browser observations (observation.ts); it belongs to the tiered runtime.
import { int, type StrategyDescriptor } from './descriptor';

export interface ObservationSettings {
  keep: number;
  tools: string[];
}

export const observation: StrategyDescriptor<'observation', ObservationSettings> = {
  key: 'observation',
  settings: {
    keep: {
      ...int(0),
      default: 3,
      description: 'Newest GUI/browser observations kept; `0` turns the window off.',
    },
    tools: {
      kind: 'patterns',
      default: [
        'screenshot',
        'computer',
        'computer_use',
        'applescript',
        'browser',
        'accessibility',
        'browser_*',
      ],
      description: 'Which tools are observations.',
    },
  },
  strategy: { providers: [], simulatedFromDocs: false },
};
