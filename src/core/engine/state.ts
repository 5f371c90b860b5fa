// The engine's working state across the passes of one run: the current content of every rewritten block, the
// first-touch tier marks, the events, the CCR store, and the current token count of every message (in a Fenwick
// tree, so that a request's prefix sum costs O(log n) and a replay never re-adds N messages N times).
import type {
  ClearedFact,
  ClearingFact,
  CompressionEvent,
  LiveOutcomeFact,
  NotShorterFact,
  RewriteAction,
  Tier,
} from '../analysisTypes';
import type { Block } from '../model';
import type { TokenCounter } from '../tokens/counter';
import { PrefixSums } from './prefixSums';
import {
  type BlockRef,
  blockKey,
  type ContentInfo,
  contentInfo,
  MESSAGE_OVERHEAD_TOKENS,
  originalContent,
  originalInfo,
  type PreparedTranscript,
} from './prepare';
import type { LeftOut } from './reload';

export interface BlockOverride {
  info: ContentInfo;
  action: RewriteAction;
  tier?: Tier;
}

/** Rewrites the provider's server makes to the request it receives (Anthropic context editing): the client still
 * holds and sends the block as it was, so the client's passes see that, and export never writes them. */
export function isServerAction(action: RewriteAction): boolean {
  return action === 'context_edit';
}

/** Every message's current tokens; the tokens the reloads left out follow each change. */
class MessageSums extends PrefixSums {
  leftOut: LeftOut | undefined;
  override add(index: number, delta: number): void {
    super.add(index, delta);
    this.leftOut?.changed(index, delta);
  }
}

export class EngineState {
  readonly overrides = new Map<number, BlockOverride>();
  /** SPEC §2 first touch: the tier a pass classified a block with, even when its bytes did not change. */
  readonly tierMark = new Map<number, 1 | 2>();
  readonly messageTier: (Tier | null)[];
  readonly messageFloored: boolean[];
  readonly messageTokens: number[];
  readonly sums: MessageSums;
  /** What the reloads leave out of the requests so far (none without reloads). */
  readonly leftOut: LeftOut | undefined;
  readonly events: CompressionEvent[] = [];
  readonly ccr: Record<string, string> = {};
  /** Why-facts (why.ts): per message, the request whose tiered pass first met it and its distance then (-1: never
   * met); the floor tool that kept a floored message from Tier 1; each live-zone candidate's outcome. */
  readonly touchRequest: Int32Array;
  readonly touchDistance: Int32Array;
  readonly floorTool = new Map<number, string>();
  readonly liveOutcomes: LiveOutcomeFact[] = [];
  /** Rewrites kept back because they were not shorter in tokens (SPEC §2 "no growth"). */
  readonly notShorter: NotShorterFact[] = [];
  /** Live-zone messages already compressed (SPEC §4: once, when it is the live zone). */
  readonly liveDone = new Set<number>();
  /** Under each block the server clears, what the client holds there: its own rewrite, or null (the original). */
  readonly serverUnder = new Map<number, BlockOverride | null>();
  /** Per message, the tokens the client sends that the server's clearing takes out: the client's prompt is the
   * sent one plus these (context editing triggers on what it receives). */
  readonly serverSaved: PrefixSums;
  /** Blocks whose content as the client holds it changed, by key, in order (a block may come back): the server's
   * context editing corrects what it counted of them (contextEditing.ts) instead of weighing every block again. */
  readonly clientChanges: number[] = [];
  /** Why-facts of the server's clearings (contextEditing.ts). */
  readonly cleared: ClearedFact[] = [];
  readonly clearings: ClearingFact[] = [];
  /** Next tool-result message (position in toolResultMessages) the tiered pass has not met yet. */
  tieredNext = 0;
  /** Next observation tool_use (position in the observation list) not yet elided. */
  obsNext = 0;
  summarizerAttempts = 0;
  summarizerFailures = 0;
  /** Request whose pass is running, and the lowest message index it rewrote (Infinity: none). */
  requestIndex = 0;
  passMinMessage = Number.POSITIVE_INFINITY;
  /** Within `passMinMessage`, the lowest block index the pass rewrote. */
  passMinBlock = Number.POSITIVE_INFINITY;

  constructor(
    readonly prep: PreparedTranscript,
    /** Counts the texts this run writes (the preparation's counter unless the run has one of its own:
     * tokens/primedCounters.ts). */
    readonly counter: TokenCounter = prep.counter,
  ) {
    const n = prep.transcript.messages.length;
    this.messageTier = new Array(n).fill(null);
    this.messageFloored = new Array(n).fill(false);
    this.touchRequest = new Int32Array(n).fill(-1);
    this.touchDistance = new Int32Array(n).fill(-1);
    this.messageTokens = [...prep.messageTokens];
    this.sums = new MessageSums(this.messageTokens);
    this.leftOut = prep.reloads?.leftOut(
      (m) => this.sums.prefix(m + 1) - this.sums.prefix(m),
      (m, b) => this.blockTokensNow(m, b),
    );
    this.sums.leftOut = this.leftOut;
    this.serverSaved = new PrefixSums(new Array(n).fill(0));
  }

  /** Tokens of the blocks of a message before `blockIndex`, as they are now, with the message's framing: the part
   * of a rewritten message that still matches the previous request byte for byte. */
  tokensBeforeBlock(messageIndex: number, blockIndex: number): number {
    let n = MESSAGE_OVERHEAD_TOKENS;
    const original = this.prep.blockTokens[messageIndex];
    for (let b = 0; b < blockIndex && b < original.length; b++) {
      const override = this.overrides.get(blockKey(messageIndex, b));
      n += override
        ? original[b] - originalInfo(this.prep, { messageIndex, blockIndex: b }).tokens + override.info.tokens
        : original[b];
    }
    return n;
  }

  /** Tokens of one block as the request sends it now (a rewrite's, else the original's). */
  blockTokensNow(messageIndex: number, blockIndex: number): number {
    const original = this.prep.blockTokens[messageIndex]?.[blockIndex] ?? 0;
    const override = this.overrides.get(blockKey(messageIndex, blockIndex));
    return override
      ? original - originalInfo(this.prep, { messageIndex, blockIndex }).tokens + override.info.tokens
      : original;
  }

  /** The block as the client holds it (a server clearing is not the client's). */
  private clientOverride(key: number): BlockOverride | undefined {
    const o = this.overrides.get(key);
    return o && isServerAction(o.action) ? (this.serverUnder.get(key) ?? undefined) : o;
  }

  /** The content the client holds (and sends) for a block: its own rewrite, else the original. */
  current(ref: BlockRef): string | Block[] {
    return (
      this.clientOverride(blockKey(ref.messageIndex, ref.blockIndex))?.info.content ??
      originalContent(this.prep, ref)
    );
  }

  /** Whether a client-side pass rewrote the block (the server's clearing does not count: the client never made it). */
  isRewritten(ref: BlockRef): boolean {
    return this.clientOverride(blockKey(ref.messageIndex, ref.blockIndex)) !== undefined;
  }

  /** Content info of the block as the client holds it. */
  clientInfo(ref: BlockRef): ContentInfo {
    return (
      this.clientOverride(blockKey(ref.messageIndex, ref.blockIndex))?.info ?? originalInfo(this.prep, ref)
    );
  }

  /** Whether the server clears the block. */
  isCleared(ref: BlockRef): boolean {
    const o = this.overrides.get(blockKey(ref.messageIndex, ref.blockIndex));
    return o !== undefined && isServerAction(o.action);
  }

  /** What export writes for a block: the client's content, never the server's clearing (undefined: untouched). */
  exportedOverride(key: number): BlockOverride | undefined {
    return this.clientOverride(key);
  }

  /** Whether a client's rewrite would leave the block as long as it is, or longer, in tokens; if so its fact is kept
   * for the why-line. The live zone's own token gate (liveZone.ts) sees such rewrites first and says so itself. */
  private notShorterThan(ref: BlockRef, action: RewriteAction, next: ContentInfo, now: ContentInfo): boolean {
    if (next.tokens < now.tokens) return false;
    if (action === 'tier1' || action === 'tier2' || action === 'obs_window')
      this.notShorter.push({
        message: ref.messageIndex,
        block: ref.blockIndex,
        action,
        request: this.requestIndex,
        tokens: now.tokens,
        rewriteTokens: next.tokens,
      });
    return true;
  }

  /** Records a rewrite; one that changes nothing emits nothing (SPEC §7), and a client's rewrite that would not make
   * the block shorter in tokens is not made (SPEC §2 "no growth": it would break the cache for nothing). Returns
   * whether it changed the block. `next` is the new content, or its precomputed info (memoised rules). */
  rewrite(
    ref: BlockRef,
    next: string | Block[] | ContentInfo,
    action: RewriteAction,
    tier?: Tier,
    toolUseId?: string,
  ): boolean {
    const block = this.prep.transcript.messages[ref.messageIndex]?.blocks[ref.blockIndex];
    if (block?.type === 'tool_result' && block.fixed) return false;
    const key = blockKey(ref.messageIndex, ref.blockIndex);
    const previous = this.overrides.get(key);
    const info = typeof next === 'string' || Array.isArray(next) ? contentInfo(next, this.counter) : next;
    const server = isServerAction(action);
    if (!server && previous && isServerAction(previous.action)) {
      // The client rewrites a block the server clears: the server still sends its placeholder, so the prompt does
      // not change (no event); export writes the client's content, and the client's prompt shrinks.
      const under = this.serverUnder.get(key) ?? null;
      const was = under?.info ?? originalInfo(this.prep, ref);
      if (info.hash === was.hash || this.notShorterThan(ref, action, info, was)) return false;
      this.serverUnder.set(key, { info, action, tier });
      this.serverSaved.add(ref.messageIndex, info.tokens - was.tokens);
      this.clientChanges.push(key);
      return true;
    }
    const old = previous?.info ?? originalInfo(this.prep, ref);
    if (info.hash === old.hash) return false;
    // The server's clearing is the provider's own rule, modelled as the provider applies it, shorter or not.
    if (!server && this.notShorterThan(ref, action, info, old)) return false;
    if (server && !(previous && isServerAction(previous.action))) {
      this.serverUnder.set(key, previous ?? null);
      this.serverSaved.add(ref.messageIndex, old.tokens - info.tokens);
    }
    this.overrides.set(key, { info, action, tier });
    if (!server) this.clientChanges.push(key);
    const delta = info.tokens - old.tokens;
    if (delta !== 0) {
      this.messageTokens[ref.messageIndex] += delta;
      this.sums.add(ref.messageIndex, delta);
    }
    const event: CompressionEvent = {
      action,
      messageIndex: ref.messageIndex,
      blockIndex: ref.blockIndex,
      toolUseId: toolUseId ?? null,
      oldHash: old.hash,
      newHash: info.hash,
      oldLen: old.len,
      newLen: info.len,
      requestIndex: this.requestIndex,
    };
    // Set only when present (an object spread here costs more than the rest of the rewrite).
    if (tier !== undefined) event.tier = tier;
    this.events.push(event);
    if (ref.messageIndex < this.passMinMessage) {
      this.passMinMessage = ref.messageIndex;
      this.passMinBlock = ref.blockIndex;
    } else if (ref.messageIndex === this.passMinMessage && ref.blockIndex < this.passMinBlock)
      this.passMinBlock = ref.blockIndex;
    return true;
  }
}
