// The webview's side of the protocol: posts typed messages to the host and delivers validated messages from it. A
// message that fails validation is reported (console and the error bar), never acted on. A request (requests.ts)
// is given its `seq` here and its reply is matched to it here, and nowhere else.
import type { HostMessage } from '../src/protocol/hostMessages';
import { hostMessageParser } from '../src/protocol/parse';
import {
  REQUEST_OF_REPLY,
  REQUESTS,
  type ReplyOf,
  type RequestMessage,
  type RequestType,
  type WebviewCommand,
} from '../src/protocol/requests';
import type { ViewDescriptors } from '../src/protocol/viewDescriptors';

export interface Pending<R> {
  /** The `seq` the request went with (the replies carry it). */
  seq: number;
  /** The last reply (a sweep's grid, after its progress). */
  reply: Promise<R>;
}

export interface HostLink {
  /** What the host described of its registries (sent with the page). */
  readonly descriptors: ViewDescriptors;
  post(message: WebviewCommand): void;
  /** Sends a request; `onProgress` hears the replies before the last. */
  request<K extends RequestType>(
    message: RequestMessage<K> & { type: K },
    onProgress?: (reply: ReplyOf<K>) => void,
  ): Pending<ReplyOf<K>>;
  /** Calls `listener` with every valid host message that answers no request of this link, `onInvalid` with the
   * reason for every invalid one. */
  subscribe(listener: (message: HostMessage) => void, onInvalid: (error: string) => void): () => void;
}

interface VsCodeApi {
  postMessage(message: unknown): void;
}

declare global {
  // Provided by the editor inside a webview; a test page provides its own.
  function acquireVsCodeApi(): VsCodeApi;
}

interface Waiting {
  type: RequestType;
  onProgress?: (reply: HostMessage) => void;
  resolve: (reply: HostMessage) => void;
}

export function createHostLink(api: VsCodeApi, target: Window, descriptors: ViewDescriptors): HostLink {
  const parse = hostMessageParser(descriptors);
  const waiting = new Map<number, Waiting>();
  let lastSeq = 0;
  /** Hands a reply to the request that waits for it; false when none does (a broadcast, or a reply to a view that
   * has restarted since). */
  const answer = (m: HostMessage): boolean => {
    const seq = 'seq' in m ? m.seq : undefined;
    const w = seq === undefined ? undefined : waiting.get(seq);
    if (seq === undefined || !w || REQUEST_OF_REPLY[m.type] !== w.type) return false;
    const final = (REQUESTS[w.type].final as (reply: HostMessage) => boolean)(m);
    if (!final) w.onProgress?.(m);
    else {
      waiting.delete(seq);
      w.resolve(m);
    }
    return true;
  };
  const request: HostLink['request'] = (message, onProgress) => {
    const seq = ++lastSeq;
    const reply = new Promise<HostMessage>((resolve) =>
      waiting.set(seq, {
        type: message.type,
        onProgress: onProgress as Waiting['onProgress'],
        resolve,
      }),
    );
    api.postMessage({ ...message, seq });
    // The reply is the one REQUESTS names for this request's type.
    return { seq, reply: reply as Promise<never> };
  };
  return {
    descriptors,
    post: (message) => api.postMessage(message),
    request,
    subscribe(listener, onInvalid) {
      const handler = (event: MessageEvent) => {
        const parsed = parse(event.data);
        if (!parsed.ok) {
          console.error(`Context Lens: ${parsed.error}`);
          onInvalid(parsed.error);
        } else if (!answer(parsed.value)) listener(parsed.value);
      };
      target.addEventListener('message', handler);
      return () => target.removeEventListener('message', handler);
    },
  };
}
