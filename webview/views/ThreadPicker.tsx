// Which request stream of the file the view shows: the main conversation or one sub-agent's (each is replayed on
// its own; the totals are of the one picked).
import type { ThreadSummary } from '../../src/protocol/shared';
import { Dropdown } from '../ui/toolkit';

export const MAIN_THREAD = 'main';

function label(t: ThreadSummary): string {
  // A sub-agent by what its caller said it does; its id only when the file names no call for it.
  const what =
    t.id === MAIN_THREAD
      ? 'main conversation'
      : t.description
        ? `sub-agent: ${t.description}`
        : `sub-agent ${t.id}`;
  return `${what} · ${t.messages} messages · ${t.replies} replies`;
}

export function ThreadPicker(props: {
  threads: ThreadSummary[];
  thread: string;
  onSelect: (thread: string) => void;
}) {
  return (
    <div className="thread-picker" data-testid="thread-picker">
      <Dropdown
        label="conversation"
        value={props.thread}
        options={props.threads.map((t) => ({ value: t.id, label: label(t) }))}
        onChange={props.onSelect}
      />
    </div>
  );
}
