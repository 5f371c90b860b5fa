// Thinking a request does not send: a Claude reply's thinking block is signed by the model that wrote it, and a
// request to another model goes without it (hannibal, opus-4-8 → opus-5: 349,863 tokens at the last opus-4-8
// request, 219,715 at the first opus-5 one, the ~130k of opus-4-8's thinking gone). The same request back to the
// first model sends it again.
import type { Message } from '../model';

export class ForeignThinking {
  /** @param byModel per model that answered, thinking tokens before each message of replies by the others */
  constructor(private readonly byModel: ReadonlyMap<string, Float64Array>) {}

  /** Thinking tokens of messages [start, upTo) that a request to `model` does not send. */
  dropped(model: string | undefined, start: number, upTo: number): number {
    const prefix = model === undefined ? undefined : this.byModel.get(model);
    return prefix && upTo > start ? prefix[upTo] - prefix[start] : 0;
  }
}

/** The thinking of each model's replies, from `blockTokens` (thinking sized as sent: prepare.ts); undefined when one
 * model answered every reply, or no reply thought. */
export function foreignThinking(
  messages: readonly Message[],
  blockTokens: readonly number[][],
): ForeignThinking | undefined {
  const models = new Set<string>();
  let any = false;
  const own = new Float64Array(messages.length);
  messages.forEach((m, i) => {
    if (m.role !== 'assistant' || !m.model) return;
    models.add(m.model);
    m.blocks.forEach((b, j) => {
      if (b.type === 'thinking') own[i] += blockTokens[i][j];
    });
    if (own[i] > 0) any = true;
  });
  if (models.size < 2 || !any) return undefined;
  const byModel = new Map<string, Float64Array>();
  for (const model of models) {
    const prefix = new Float64Array(messages.length + 1);
    messages.forEach((m, i) => {
      prefix[i + 1] = prefix[i] + (m.model !== undefined && m.model !== model ? own[i] : 0);
    });
    byModel.set(model, prefix);
  }
  return new ForeignThinking(byModel);
}
