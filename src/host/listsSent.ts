// Which transcript each view was sent. The list of a long session is megabytes: the editor serialises each post on
// the extension host's thread and the view parses it again. A view that asks for it ('ready') while the host is
// about to send it, or a load that confirms what a view already shows, must not post it a second time.
import type { HostMessage } from '../protocol';

export class ListsSent<View> {
  private readonly sent = new Map<View, string>();

  /** Whether `message` is to be posted to `view` (every message but a transcript the view holds already); notes it
   * as sent. */
  due(view: View, message: HostMessage): boolean {
    if (message.type !== 'transcript') return true;
    const key = ListsSent.key(message);
    if (this.sent.get(view) === key) return false;
    this.sent.set(view, key);
    return true;
  }

  /** The view holds nothing (it was started again, or closed). */
  forget(view: View): void {
    this.sent.delete(view);
  }

  /** A transcript message's identity: the session numbers each transcript it adopts (a file's beginning, the whole
   * file, another thread), and keeps the number of one that confirms a kept snapshot. */
  private static key(message: Extract<HostMessage, { type: 'transcript' }>): string {
    return JSON.stringify([
      message.fileName,
      message.revision,
      message.thread ?? null,
      message.beginning?.bytes ?? null,
      message.messages.length,
    ]);
  }
}
