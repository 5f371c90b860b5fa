// The webview messages the host answers: each names the host message that replies to it, matched by the `seq` the
// webview gave it (webview/hostLink.ts `request`), and says which reply is the last (a sweep reports its progress
// before its grid). Engine-free: the webview runs this table.
import type { HostMessageOf } from './hostMessages';
import type { WebviewMessage } from './webviewMessages';

export const REQUESTS = {
  find: { reply: 'found', final: () => true },
  sweep: {
    reply: 'sweepGrid',
    final: (m: HostMessageOf<'sweepGrid'>) => m.grid !== undefined || m.error !== undefined,
  },
  updateSettings: { reply: 'settings', final: () => true },
  /** Answered by the analysis under the defaults (the settings that precede it are sent to every panel). */
  resetSettings: { reply: 'analysis', final: () => true },
  cacheBreaks: { reply: 'cacheView', final: () => true },
} as const;

export type RequestType = keyof typeof REQUESTS;
export type ReplyType = (typeof REQUESTS)[RequestType]['reply'];
/** What the webview sends for request `K`: its message without the `seq`, which the link gives it. */
export type RequestMessage<K extends RequestType> = Omit<Extract<WebviewMessage, { type: K }>, 'seq'>;
export type ReplyOf<K extends RequestType> = HostMessageOf<(typeof REQUESTS)[K]['reply']>;
/** The webview messages that get no reply. */
export type WebviewCommand = Exclude<WebviewMessage, { type: RequestType }>;

/** The request a reply answers, by its type; undefined for a host message that answers none. */
export const REQUEST_OF_REPLY: Readonly<Record<string, RequestType>> = Object.fromEntries(
  Object.entries(REQUESTS).map(([type, r]) => [r.reply, type as RequestType]),
);
