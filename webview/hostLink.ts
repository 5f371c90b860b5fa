// The webview's side of the protocol: posts typed messages to the host and delivers validated messages
// from it. A message that fails validation is reported (console and the error bar), never acted on.
import { type HostMessage, parseHostMessage, type WebviewMessage } from '../src/protocol';

export interface HostLink {
  post(message: WebviewMessage): void;
  /** Calls `listener` with every valid host message, `onInvalid` with the reason for every invalid one. */
  subscribe(listener: (message: HostMessage) => void, onInvalid: (error: string) => void): () => void;
}

interface VsCodeApi {
  postMessage(message: unknown): void;
}

declare global {
  // Provided by the editor inside a webview; a test page provides its own.
  function acquireVsCodeApi(): VsCodeApi;
}

export function createHostLink(api: VsCodeApi, target: Window): HostLink {
  return {
    post: (message) => api.postMessage(message),
    subscribe(listener, onInvalid) {
      const handler = (event: MessageEvent) => {
        const parsed = parseHostMessage(event.data);
        if (parsed.ok) listener(parsed.value);
        else {
          console.error(`Context Lens: ${parsed.error}`);
          onInvalid(parsed.error);
        }
      };
      target.addEventListener('message', handler);
      return () => target.removeEventListener('message', handler);
    },
  };
}
