// SPEC §4: the proxy's live zone (liveZone.ts).
import { int, type StrategyDescriptor } from './descriptor';

export interface LiveZoneSettings {
  keepTurns: number;
  minChars: number;
  outputBufferTokens: number;
  ccr: boolean;
}

export const liveZone: StrategyDescriptor<'liveZone', LiveZoneSettings> = {
  key: 'liveZone',
  settings: {
    keepTurns: { ...int(0), default: 2, description: 'Last turns shown as protected.' },
    minChars: {
      ...int(0),
      default: 512,
      description: 'Live-zone blocks shorter than this are not compressed.',
    },
    outputBufferTokens: {
      ...int(0),
      default: 4000,
      description: 'Carved off first: context budget = model context window − this.',
    },
    ccr: {
      kind: 'bool',
      default: true,
      description: 'Keep the originals of compressed live-zone blocks retrievable (CCR store).',
    },
  },
  strategy: { providers: [], simulatedFromDocs: false },
};
