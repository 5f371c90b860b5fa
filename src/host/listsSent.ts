// Which transcript each view was sent. The list of a long session is megabytes (even packed, listWire.ts): the
// editor copies each post to the view, which decodes and checks it again. A view that asks for it ('ready') while the host is
// about to send it, or a load that confirms what a view already shows, must not post it a second time.
import type { HostMessage } from '../protocol';
import { listKey } from '../protocol/listWire';

export class ListsSent<View> {
  private readonly sent = new Map<View, string>();

  /** Whether `message` is to be posted to `view` (every message but a transcript the view holds already); notes it
   * as sent. */
  due(view: View, message: HostMessage): boolean {
    if (message.type !== 'transcript' && message.type !== 'list') return true;
    const key = message.type === 'list' ? message.key : listKey(message);
    if (this.sent.get(view) === key) return false;
    this.sent.set(view, key);
    return true;
  }

  /** The view holds nothing (it was started again, or closed). */
  forget(view: View): void {
    this.sent.delete(view);
  }
}
