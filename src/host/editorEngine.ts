// The engine as the editor runs it: every parse in a worker thread that keeps a growing session's parsed lines,
// token counts primed in the token workers (and kept on disk by them), the summarizer the settings name.
import { analyze } from '../core/analysis';
import { sessionPreset } from '../core/engine/models';
import type { Policy } from '../core/engine/policy';
import { SLICE_MS } from '../core/giveWay';
import type { Transcript } from '../core/model';
import { analyzeWithPrimedCounts } from '../core/primedAnalysis';
import {
  EstimatingCounter,
  encoderLoaded,
  type TokenCounter,
  type TokenizerName,
  tokenCounter,
} from '../core/tokens/counter';
import { parseTranscriptFile } from '../node/parseFile';
import { withLoggedSummarizations } from '../node/summarizationFiles';
import type { TokenWorkerPool } from '../node/tokenPool';
import { NOTHING_TO_CANCEL, REAL_CLOCK, type SessionClock } from './clock';
import type { Engine, TranscriptParser } from './engine';
import { BEGINNING_MIN_FILE_BYTES } from './fileSource';
import { OffThreadParser } from './parseOffThread';
import { summarizerFor } from './summarizers';

/** The parser, with the summarization requests of each parse's compactions read beside the session. */
function withSummarizationsOf(fileName: string, parser: TranscriptParser): TranscriptParser {
  return {
    parse: async (bytes, from, growing, last) => {
      const t = await parser.parse(bytes, from, growing, last);
      return t && withLoggedSummarizations(t, fileName);
    },
    dispose: () => parser.dispose(),
  };
}

const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** The real formats and engine. Before each analysis, the strings not yet counted are tokenized in worker
 * threads (a long session holds tens of MB of text: seconds of tokenizing that must not block the host); the
 * engine then counts from the primed cache. The summarizer is looked up per analysis (the setting may change).
 * `clock`: what the wait before an analysis with estimated counts is measured on. `policyOf`: the policy in force
 * for a file of that format (the settings), whose tokenizer counts its texts while it is parsed. No editor API
 * here: this engine runs in the session's worker thread (sessionWorker.ts). */
export function createEngine(
  getPool: () => TokenWorkerPool | null,
  parseScript: string | undefined,
  policyOf: (transcript: Pick<Transcript, 'format'>) => Policy,
  clock: SessionClock = REAL_CLOCK,
): Engine {
  return {
    // The summarization requests of the session's compactions are read beside it, where its agent keeps them.
    parse: (bytes, fileName) => withLoggedSummarizations(parseTranscriptFile(bytes, fileName), fileName),
    // The parses run in a worker thread while the session's thread answers the views (a file's beginning shown
    // first, a growing session, whose worker keeps its parsed lines so that following it costs the parse of the new
    // lines); the last parse of a file that is not growing runs in the session's thread, which answers nothing else
    // meanwhile: the worker's copy of the transcript beside this thread's was most of the memory of an open.
    // The token workers count each batch of messages of a large file as it arrives from the parse (with the
    // tokenizer the settings name for it), so that counting runs beside the rest of the parse rather than after
    // it. A small file shows nothing before its parse ends: counting beside it only delayed its first paint.
    parser: parseScript
      ? (fileName) =>
          withSummarizationsOf(
            fileName,
            new OffThreadParser(parseScript, fileName, {
              onMessages: (head, messages, size) => {
                if (size < BEGINNING_MIN_FILE_BYTES) return;
                const pool = getPool();
                const tokenizer = tokenizerFor(policyOf(head).model, head);
                if (!pool || !tokenizer) return;
                pool.primeTranscript({ ...head, messages }, editorCounter(tokenizer)).catch(() => {});
              },
              holdsBytes: false,
              inPlaceLast: true,
            }),
          )
      : undefined,
    analyze: async (transcript, policy, summarizer, signal, countsTakeLong, answersChange) => {
      const tokenizer = tokenizerFor(policy.model, transcript);
      const pool = getPool();
      if (pool && tokenizer) {
        const counter = editorCounter(tokenizer);
        // A failed worker costs speed, not the result: the engine counts what is missing itself.
        const primed = pool.primeTranscript(transcript, counter).catch((e) => {
          console.error(
            `Context Lens: token workers failed (${errorText(e)}); counting on the extension host`,
          );
        });
        const slow = countsTakeLong ? clock.after(COUNTS_TAKE_LONG_MS, countsTakeLong) : NOTHING_TO_CANCEL;
        await primed;
        slow();
        // What the policy writes is counted in the workers too (a first switch to the live zone writes thousands
        // of compressed results); the engine counts a few short texts in place for a change the user waits for,
        // or once this thread has the tokenizer's tables, or when no worker runs. The open's first analysis and
        // the runs ahead leave them to a running worker: loading the tables here (kept once loaded) for a few texts
        // added to the peak of the host's memory while opening a long session.
        const inPlace = answersChange || encoderLoaded(tokenizer) || pool.running === 0;
        return analyzeWithPrimedCounts(transcript, policy, {
          inPlaceBudget: inPlace ? undefined : 0,
          summarizer: summarizerFor(summarizer, policy),
          signal,
          giveWayEveryMs: SLICE_MS,
          counter,
          // Failed workers leave the texts to the last run, which counts them in place.
          countElsewhere: (texts) => pool.primeTexts(texts, counter).catch(() => 0),
          probeSummaries: summarizer !== 'vscode-lm',
        });
      }
      return analyze(transcript, policy, {
        summarizer: summarizerFor(summarizer, policy),
        signal,
        giveWayEveryMs: SLICE_MS,
      });
    },
    estimate: (transcript, policy, summarizer) => {
      const tokenizer = tokenizerFor(policy.model, transcript);
      // Only summarizers that answer at once: a model would be asked for summaries of a provisional view.
      const offline = summarizer === 'vscode-lm' ? 'none' : summarizer;
      return analyze(transcript, policy, {
        summarizer: summarizerFor(offline, policy),
        counter: tokenizer ? new EstimatingCounter(tokenizer) : undefined,
        giveWayEveryMs: SLICE_MS,
      });
    },
  };
}

/** The tokenizer of the model a policy names (the session's own under "auto"). */
const tokenizerFor = (model: string, transcript: Pick<Transcript, 'format' | 'model'>) =>
  sessionPreset(model, transcript.format, transcript.model)?.tokenizer;

/** The process-wide counter of `tokenizer`, remembering the digests of the long texts it keys: the editor keys
 * the same texts again at every analysis (they are let go when a transcript closes). */
function editorCounter(tokenizer: TokenizerName): TokenCounter {
  const counter = tokenCounter(tokenizer);
  counter.remembersTexts = true;
  return counter;
}

/** When the token counts an analysis waits for take longer than this, an analysis with estimated counts is shown
 * meanwhile (a long session takes seconds to count on every core; one seen before is counted from disk). */
const COUNTS_TAKE_LONG_MS = 400;
