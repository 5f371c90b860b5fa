// The model-summary cache that outlives the editor session (SPEC §6): summaries keyed by (content hash, model,
// prompt), in one JSON file in the extension's global storage, written atomically. Moving a slider, replaying
// or reopening a transcript never asks the model twice for the same content. Node only, no editor API, so the
// unit tests drive it as it runs in the host.
import { promises as fsp } from 'node:fs';
import { dirname } from 'node:path';
import { sha256Hex } from '../core/engine/hash';
import { SUMMARY_INSTRUCTION, type Summarizer } from '../core/engine/summarizer';
import { writeFileAtomic } from '../node/atomicWrite';
import {
  FileTooLargeError,
  NotRegularFileError,
  readRegularFile,
  refusalWords,
} from '../node/readRegularFile';

/** Oldest entries go first beyond this (a summary is ~1 KB: the file stays around 10 MB at most). */
export const SUMMARY_STORE_MAX_ENTRIES = 10_000;
/** A larger file is not read (it cannot be ours: 10,000 summaries of a few KB). */
export const SUMMARY_STORE_MAX_BYTES = 64 * 1024 * 1024;
const VERSION = 1;

interface StoredSummary {
  summary: string;
  model: string;
  at: string;
}

interface StoreFile {
  version: number;
  entries: Record<string, StoredSummary>;
}

/** (content hash, model, prompt) → one key. The prompt is the instruction and the tool line around the content. */
export function summaryKey(model: string, toolName: string, content: string): string {
  return sha256Hex(
    JSON.stringify([sha256Hex(content), model, sha256Hex(`${SUMMARY_INSTRUCTION}\nTool: ${toolName}`)]),
  );
}

export class SummaryStore {
  private entries = new Map<string, StoredSummary>();
  private loaded: Promise<void> | null = null;
  private saving: Promise<void> = Promise.resolve();
  /** Why the file could not be read, if it could not (then the store starts empty and overwrites it). */
  loadProblem: string | null = null;

  constructor(readonly file: string) {}

  load(): Promise<void> {
    this.loaded ??= (async () => {
      let text: string;
      try {
        // Only a regular file of plausible size: a FIFO in its place would block the read for ever.
        const bytes = await readRegularFile(this.file, { maxBytes: SUMMARY_STORE_MAX_BYTES });
        text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ENOENT')
          this.loadProblem =
            e instanceof NotRegularFileError || e instanceof FileTooLargeError
              ? `${refusalWords(e)}: not read; starting empty`
              : `${this.file}: ${(e as Error).message}; starting empty`;
        return;
      }
      try {
        const data = JSON.parse(text) as StoreFile;
        if (data.version !== VERSION || typeof data.entries !== 'object' || data.entries === null)
          throw new Error(`expected {"version": ${VERSION}, "entries": {…}}`);
        for (const [k, v] of Object.entries(data.entries))
          if (typeof v?.summary === 'string' && typeof v.model === 'string') this.entries.set(k, v);
      } catch (e) {
        this.loadProblem = `${this.file}: not a summary cache (${(e as Error).message}); starting empty`;
      }
    })();
    return this.loaded;
  }

  get size(): number {
    return this.entries.size;
  }

  async get(key: string): Promise<string | undefined> {
    await this.load();
    return this.entries.get(key)?.summary;
  }

  async set(key: string, model: string, summary: string): Promise<void> {
    await this.load();
    this.entries.delete(key);
    this.entries.set(key, { summary, model, at: new Date().toISOString() });
    while (this.entries.size > SUMMARY_STORE_MAX_ENTRIES)
      this.entries.delete(this.entries.keys().next().value as string);
    await this.save();
  }

  /** "Clear Summary Cache": forgets every summary and removes the file. Returns how many there were. */
  async clear(): Promise<number> {
    await this.load();
    const n = this.entries.size;
    this.entries.clear();
    await this.saving;
    await fsp.rm(this.file, { force: true });
    return n;
  }

  /** Saves one after the other, so two summaries arriving together never race on the file. */
  private save(): Promise<void> {
    const snapshot = (): string =>
      JSON.stringify({ version: VERSION, entries: Object.fromEntries(this.entries) } satisfies StoreFile);
    this.saving = this.saving.then(async () => {
      await fsp.mkdir(dirname(this.file), { recursive: true });
      await writeFileAtomic(this.file, snapshot());
    });
    return this.saving;
  }
}

/** A model call: the summary of one tool result, or a rejection. */
export type AskModel = (toolName: string, content: string, signal: AbortSignal) => Promise<string>;

/**
 * A summarizer that answers from the store when it can and asks the model only for what it has never seen; only
 * successful summaries are kept (a timeout or an error today says nothing about tomorrow).
 */
export function storedSummarizer(
  store: SummaryStore,
  model: string,
  ask: AskModel,
  /** Appended to the id only (the engine's in-session cache key), never to the store's keys. */
  idSuffix = '',
): Summarizer {
  return {
    id: `vscode-lm:${model}${idSuffix}`,
    summarize: async (toolName, content, signal) => {
      const key = summaryKey(model, toolName, content);
      const hit = await store.get(key);
      if (hit !== undefined) return hit;
      const summary = (await ask(toolName, content, signal)).trim();
      if (!summary) throw new Error(`${model} returned an empty summary`);
      if (!signal.aborted) await store.set(key, model, summary);
      return summary;
    },
  };
}
