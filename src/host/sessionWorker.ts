// Worker-thread entry (bundled as dist/sessionWorker.js): one open transcript's session, off the extension host's
// thread. The extension host is shared by every extension the user runs, and a long session's heap, its
// collections, its analyses and the messages made of them held it for hundreds of milliseconds at a time: here
// they hold only this thread. The host routes (remoteSession.ts): it hands in the file's bytes and the views'
// questions and forwards the messages made here to the panels. The file is parsed in a thread of its own
// (parseOffThread.ts), but for its last parse when it is not growing (here), the tokens counted in the token
// processes (node/tokenPool.ts), a language model's summaries asked of the host, which alone has the editor's API.
import { getHeapStatistics } from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';
import { SLICE_MS } from '../core/giveWay';
import type { Transcript } from '../core/model';
import { readResults, transcriptProblems } from '../core/problems';
import { collectGarbage, HeapGrowth } from '../node/collectGarbage';
import { TokenWorkerPool } from '../node/tokenPool';
import type { HostMessage, SettingKey } from '../protocol';
import { crossesPacked, isPackedReply, packMessage } from '../protocol/packedMessage';
import { createEngine } from './editorEngine';
import { HostSummaries } from './hostSummaries';
import { policyFromSettings } from './policySettings';
import { TranscriptSession } from './session';
import {
  type FromWorker,
  packed,
  type SessionWorkerData,
  type ToWorker,
  type TranscriptHead,
} from './sessionProtocol';
import { registerSummarizer } from './summarizers';

/** Files from this size have their parse's garbage collected once adopted. */
const COLLECTED_FROM_BYTES = 8 * 1024 * 1024;

/** This thread's heap is looked at this often, and collected once it grew by a quarter of what the last
 * collection left, at least 32 MB (see `watchHeap`). */
const HEAP_LOOK_MS = 500;
const HEAP_GROWTH = { minBytes: 32 * 1024 * 1024, growth: 0.25 };

const NO_BYTES = new Uint8Array(0);

const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e));

if (parentPort) start(parentPort, workerData as SessionWorkerData);

/** Collects this thread's garbage as its heap grows: the analyses run ahead while the user pauses (every policy, a
 * step either way) leave megabytes of garbage each, which V8 let pile up to more than the transcript itself before
 * it collected any (the peak of the editor's memory after an open). A collection here holds this thread only,
 * never the extension host's. Returns the heap's growth, for collections made elsewhere. */
function watchHeap(): { growth: HeapGrowth; stop(): void } {
  const growth = new HeapGrowth(HEAP_GROWTH.minBytes, HEAP_GROWTH.growth);
  const used = () => getHeapStatistics().used_heap_size;
  const timer = setInterval(() => {
    if (!growth.due(used())) return;
    collectGarbage();
    growth.collected(used());
  }, HEAP_LOOK_MS);
  timer.unref();
  return { growth, stop: () => clearInterval(timer) };
}

function start(port: NonNullable<typeof parentPort>, data: SessionWorkerData): void {
  const heap = watchHeap();
  const send = (message: FromWorker) => port.postMessage(message);
  // A transcript message crosses as its bytes, handed over (not copied): the host forwards them to the views.
  const sendPacked = (message: FromWorker, list: { json: Uint8Array } | null) =>
    port.postMessage(message, list ? [list.json.buffer as ArrayBuffer] : []);
  // An analysis or a run ahead for the views crosses as bytes too (packedMessage.ts): the host would otherwise copy
  // the object out of this thread, and the editor serialise it for the views, both on the host's thread.
  const broadcast = (message: HostMessage) => {
    if (!crossesPacked(message)) return send({ type: 'broadcast', message });
    const packed = packMessage(message);
    sendPacked({ type: 'broadcast', message: packed }, packed);
  };
  let settings: Partial<Record<SettingKey, unknown>> = data.settings;
  const policyOf = (t: Pick<Transcript, 'format'>) => policyFromSettings(t, (key) => settings[key]).policy;

  let pool: TokenWorkerPool | null | undefined;
  const getPool = () => {
    if (pool === undefined) {
      pool = null;
      if (data.tokenScript)
        try {
          pool = new TokenWorkerPool(data.tokenScript);
          if (data.tokenDir) pool.keepCountsIn(data.tokenDir, (m) => console.warn(`Context Lens: ${m}`));
        } catch (e) {
          console.error(
            `Context Lens: token workers unavailable (${errorText(e)}); counting in the session's thread`,
          );
        }
    }
    return pool;
  };

  // The editor's language model, asked through the host (the summarizer's id, which keys the summaries, is the
  // host's: it changes when the user picks another model or clears the summaries).
  const summaries = new HostSummaries(send);
  let lm: { dispose(): void } | null = null;
  const takeLm = (id: string | null) => {
    lm?.dispose();
    lm =
      id === null
        ? null
        : registerSummarizer('vscode-lm', (policy) => ({
            id,
            summarize: (toolName, content, signal) => summaries.ask(policy, toolName, content, signal),
          }));
  };

  const name = data.fileName;
  const session: TranscriptSession = new TranscriptSession(
    name,
    createEngine(getPool, data.parseScript, policyOf),
    broadcast,
    (error) => broadcast({ type: 'error', message: `${name}: analysis failed: ${errorText(error)}` }),
    data.path,
    broadcast,
  );
  const head = (): TranscriptHead | null => {
    const t = session.model;
    return t ? { format: t.format, model: t.model, showsWholeFile: session.showsWholeFile } : null;
  };
  session.onDidChangeAnalysis((analysis) =>
    send({
      type: 'analysisChanged',
      analysis: analysis && {
        totals: analysis.totals,
        policyName: analysis.policyName,
        summarizer: analysis.summarizer,
        vsNone: analysis.vsNone,
      },
      head: head(),
    }),
  );

  const reply = async (id: number, work: () => unknown) => {
    try {
      const value = await work();
      const bytes = isTranscript(value) ? packed(value) : isPackedReply(value) ? packMessage(value) : null;
      sendPacked({ type: 'reply', id, value: bytes ?? value }, bytes);
    } catch (error) {
      send({ type: 'reply', id, error: errorText(error) });
    }
  };

  /** Starts the parse of a load's bytes and lets go of them here: the message, which the handler keeps until the
   * load is answered, held the file's bytes through the parse and the crossing of every parsed message, where the
   * parser lets go of them once parsed (see parseOffThread.ts). Not async: its frame ends here. */
  const startLoad = (m: Extract<ToWorker, { type: 'load' }>) => {
    const { bytes } = m;
    m.bytes = NO_BYTES;
    return { loading: session.loadAsync(bytes, m.from, m.fileBytes, m.growing), size: bytes.length };
  };

  port.on('message', async (m: ToWorker) => {
    switch (m.type) {
      case 'call': {
        const method = session[m.method] as (...args: unknown[]) => unknown;
        return reply(m.id, () => method.apply(session, m.args));
      }
      case 'load':
        try {
          const { loading, size } = startLoad(m);
          const message = await loading;
          const list = message && packed(message);
          sendPacked(
            {
              type: 'loaded',
              id: m.id,
              message: list,
              head: head(),
              confirmed: message !== null && session.confirmsRestored(message),
            },
            list,
          );
          // The parse's batches, cloned into this thread, are garbage once the transcript is whole: collected now
          // (this thread's heap, not the host's), before the first analysis adds its own, rather than when V8
          // would, after it (the two together made the peak of the editor's memory while opening).
          if (message && m.fileBytes === undefined && size >= COLLECTED_FROM_BYTES)
            setImmediate(() => {
              collectGarbage();
              heap.growth.collected(getHeapStatistics().used_heap_size);
            });
        } catch (error) {
          send({ type: 'reply', id: m.id, error: errorText(error) });
        }
        return;
      case 'problems':
        return reply(m.id, async () => {
          const t = session.model;
          if (!t) return [];
          await readResults(t, SLICE_MS);
          return transcriptProblems(t, m.policy);
        });
      case 'sweep':
        return reply(m.id, () =>
          session.sweep(m.message, m.policy, (message) => send({ type: 'sweepPost', id: m.id, message })),
        );
      case 'settings':
        settings = m.settings;
        return;
      case 'lm':
        takeLm(m.id);
        return;
      case 'summary':
        summaries.answer(m.id, m.text, m.error);
        return;
      case 'dispose':
        heap.stop();
        session.dispose();
        // The counts made for this file are kept on disk before the thread ends.
        await pool?.dispose().catch(() => {});
        send({ type: 'disposed' });
        return;
    }
  });
}

const isTranscript = (value: unknown): value is Extract<HostMessage, { type: 'transcript' }> =>
  typeof value === 'object' && value !== null && (value as { type?: unknown }).type === 'transcript';
