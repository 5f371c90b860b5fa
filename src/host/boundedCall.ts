// One model call under limits: a timeout, cancellation from any number of sources, and a cap on the reply's
// length. No editor API here (the vscode-lm summarizer wraps the editor's model in `send`), so the limits are
// unit-tested against scripted models that hang, stream forever or fail.

export interface CancelSource {
  signal: AbortSignal;
  /** What the failure says when this one fires, e.g. "cancelled by the user". */
  reason: string;
}

export interface CallLimits {
  timeoutMs: number;
  /** The reply is cut here and the stream stopped (SPEC §2: at most 200 output tokens). */
  maxChars: number;
  cancel?: CancelSource[];
}

/**
 * Runs `send` (which starts the request and returns its text stream; it must stop when its signal aborts) and
 * reads the reply. Rejects with the reason as soon as the timeout or a cancel source fires, even when the model
 * ignores the abort; the stream is always aborted when the call ends.
 */
export async function boundedCall(
  send: (signal: AbortSignal) => Promise<AsyncIterable<string>>,
  limits: CallLimits,
): Promise<string> {
  const inner = new AbortController();
  let why: string | null = null;
  const stop = (reason: string) => {
    if (inner.signal.aborted) return;
    why = reason;
    inner.abort();
  };
  const stopped = new Promise<never>((_, reject) => {
    inner.signal.addEventListener('abort', () => reject(new Error(why ?? 'stopped')));
  });
  // The race below may settle first; this one must not surface as an unhandled rejection.
  stopped.catch(() => undefined);
  const timer = setTimeout(() => stop(`timed out after ${limits.timeoutMs / 1000} s`), limits.timeoutMs);
  const listeners: (() => void)[] = [];
  for (const c of limits.cancel ?? []) {
    if (c.signal.aborted) stop(c.reason);
    const on = () => stop(c.reason);
    c.signal.addEventListener('abort', on);
    listeners.push(() => c.signal.removeEventListener('abort', on));
  }
  const read = (async () => {
    const stream = await send(inner.signal);
    let text = '';
    for await (const part of stream) {
      if (inner.signal.aborted) break;
      text += part;
      if (text.length >= limits.maxChars) break;
    }
    return text.slice(0, limits.maxChars);
  })();
  try {
    return await Promise.race([read, stopped]);
  } finally {
    clearTimeout(timer);
    for (const off of listeners) off();
    // Ends a stream that was cut or abandoned; after a normal end it changes nothing.
    if (!inner.signal.aborted) {
      why = 'finished';
      inner.abort();
    }
    read.catch(() => undefined);
  }
}
