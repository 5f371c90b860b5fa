// The engine's working state across the passes of one run: the current content of every rewritten block, the
// first-touch tier marks, the events, the CCR store, and the current token count of every message (in a Fenwick
// tree, so that a request's prefix sum costs O(log n) and a replay never re-adds N messages N times).
import type { CompressionEvent, LiveOutcomeFact, RewriteAction, Tier } from '../analysisTypes';
import type { Block } from '../model';
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

export interface BlockOverride {
  info: ContentInfo;
  action: RewriteAction;
  tier?: Tier;
}

/** Fenwick (binary indexed) tree of message token counts. */
export class PrefixSums {
  private readonly tree: Float64Array;
  constructor(values: readonly number[]) {
    const n = values.length;
    this.tree = new Float64Array(n + 1);
    for (let i = 0; i < n; i++) this.tree[i + 1] = values[i];
    for (let i = 1; i <= n; i++) {
      const j = i + (i & -i);
      if (j <= n) this.tree[j] += this.tree[i];
    }
  }
  add(index: number, delta: number): void {
    for (let i = index + 1; i < this.tree.length; i += i & -i) this.tree[i] += delta;
  }
  /** Sum of values [0, end). */
  prefix(end: number): number {
    let s = 0;
    for (let i = end; i > 0; i -= i & -i) s += this.tree[i];
    return s;
  }
}

export class EngineState {
  readonly overrides = new Map<number, BlockOverride>();
  /** SPEC §2 first touch: the tier a pass classified a block with, even when its bytes did not change. */
  readonly tierMark = new Map<number, 1 | 2>();
  readonly messageTier: (Tier | null)[];
  readonly messageFloored: boolean[];
  readonly messageTokens: number[];
  readonly sums: PrefixSums;
  readonly events: CompressionEvent[] = [];
  readonly ccr: Record<string, string> = {};
  /** Why-facts (why.ts): per message, the request whose tiered pass first met it and its distance then (-1: never
   * met); the floor tool that kept a floored message from Tier 1; each live-zone candidate's outcome. */
  readonly touchRequest: Int32Array;
  readonly touchDistance: Int32Array;
  readonly floorTool = new Map<number, string>();
  readonly liveOutcomes: LiveOutcomeFact[] = [];
  /** Live-zone messages already compressed (SPEC §4: once, when it is the live zone). */
  readonly liveDone = new Set<number>();
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

  constructor(readonly prep: PreparedTranscript) {
    const n = prep.transcript.messages.length;
    this.messageTier = new Array(n).fill(null);
    this.messageFloored = new Array(n).fill(false);
    this.touchRequest = new Int32Array(n).fill(-1);
    this.touchDistance = new Int32Array(n).fill(-1);
    this.messageTokens = [...prep.messageTokens];
    this.sums = new PrefixSums(this.messageTokens);
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

  current(ref: BlockRef): string | Block[] {
    return (
      this.overrides.get(blockKey(ref.messageIndex, ref.blockIndex))?.info.content ??
      originalContent(this.prep, ref)
    );
  }

  isRewritten(ref: BlockRef): boolean {
    return this.overrides.has(blockKey(ref.messageIndex, ref.blockIndex));
  }

  /** Records a rewrite; one that changes nothing emits nothing (SPEC §7). Returns whether it changed the block.
   * `next` is the new content, or its precomputed info (memoised rules). */
  rewrite(
    ref: BlockRef,
    next: string | Block[] | ContentInfo,
    action: RewriteAction,
    tier?: Tier,
    toolUseId?: string,
  ): boolean {
    const key = blockKey(ref.messageIndex, ref.blockIndex);
    const previous = this.overrides.get(key);
    const old = previous?.info ?? originalInfo(this.prep, ref);
    const info =
      typeof next === 'string' || Array.isArray(next) ? contentInfo(next, this.prep.counter) : next;
    if (info.hash === old.hash) return false;
    this.overrides.set(key, { info, action, tier });
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
