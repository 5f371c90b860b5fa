// The core entry points an open transcript needs (formats and engine), as an interface of their own: the session,
// its analysis queue, run-ahead and comparisons each take the part they call, so that tests run the real engine
// without the editor and the host can hand it its own options (summarizer, worker counter).
import type { Policy } from '../core/engine/policy';
import type { Transcript } from '../core/model';
import type { SummarizerName } from '../protocol';
import type { EngineResult } from './engineResult';

export type { EngineResult } from './engineResult';

export interface Engine {
  parse(bytes: Uint8Array, fileName: string): Transcript;
  /** The same parse without blocking this thread. */
  parseAsync?(bytes: Uint8Array, fileName: string): Promise<Transcript>;
  /** A parser for one file, parsed again as it grows (the editor: a worker thread that keeps the parsed lines,
   * see parseOffThread.ts). Preferred to `parseAsync` when present. */
  parser?(fileName: string): TranscriptParser;
  /** `signal`: the run may be stopped (it then gives way to other work now and then, and rejects when stopped).
   * `countsTakeLong`: called when the token counts the analysis waits for will take a while (a large session
   * opened for the first time); the analysis still resolves with exact figures. `answersChange`: a change the user
   * waits for (not the first analysis of an open, nor a run ahead or a comparison): the few texts it writes may
   * be counted on this thread whatever that costs in memory. */
  analyze(
    transcript: Transcript,
    policy: Policy,
    summarizer: SummarizerName,
    signal?: AbortSignal,
    countsTakeLong?: () => void,
    answersChange?: boolean,
  ): Promise<EngineResult>;
  /** The same analysis at once, with token counts estimated from the texts' lengths (no summarizer that needs a
   * model): shown while the exact counts are made. */
  estimate?(transcript: Transcript, policy: Policy, summarizer: SummarizerName): Promise<EngineResult>;
}

export interface TranscriptParser {
  /** Parses the file's `bytes`; those before `from` are those of the previous parse (0: not known). Resolves
   * null when a newer parse superseded this one. `growing`: the file grew on disk since it was opened. `last`:
   * nothing is likely to be appended soon (a file that has not grown, and is not shown from its beginning). */
  parse(bytes: Uint8Array, from: number, growing?: boolean, last?: boolean): Promise<Transcript | null>;
  /** Stops any work in flight and frees what was kept. */
  dispose(): void;
}
