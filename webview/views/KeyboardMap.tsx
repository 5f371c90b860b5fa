// The keyboard map (press "?"): every key the view answers, where it applies. A modal dialog: Escape or the
// button closes it and focus returns where it was.
import { useEffect, useRef } from 'react';

/** [keys, what they do], by where they apply. The README's keyboard section lists the same. */
export const KEYBOARD_MAP: { where: string; keys: [string, string][] }[] = [
  {
    where: 'Anywhere (outside a text field)',
    keys: [
      ['?', 'show this keyboard map'],
      ['L', 'focus the message list'],
      ['D', 'focus the details'],
      ['C', 'open or close the controls panel'],
      ['Tab', 'header → list → details → ladder → controls'],
    ],
  },
  {
    where: 'Message list',
    keys: [
      ['↑ ↓', 'previous / next message'],
      ['Page Up / Page Down', 'a page up / down'],
      ['Home / End', 'first / last message'],
      ['Enter', 'open or close the group above the selection (earlier segment, bookkeeping records)'],
    ],
  },
  {
    where: 'Ladder edge (keepRecent, tier1Distance)',
    keys: [
      ['← →', 'one result older / newer'],
      ['Shift + ← →', 'five results'],
    ],
  },
  {
    where: 'Number field',
    keys: [
      ['Enter', 'apply the typed value'],
      ['↑ ↓', 'step and apply'],
      ['Escape', 'put back the value in force'],
    ],
  },
  {
    where: 'Tabs, list/details divider',
    keys: [
      ['← →', 'next tab / move the divider'],
      ['Home / End', 'divider to its limits'],
    ],
  },
];

export function KeyboardMap(props: { onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    const before = document.activeElement as HTMLElement | null;
    if (dialog && typeof dialog.showModal === 'function' && !dialog.open) dialog.showModal();
    return () => before?.focus?.();
  }, []);
  return (
    <dialog
      ref={ref}
      className="keyboard-map"
      aria-labelledby="keyboard-map-title"
      data-testid="keyboard-map"
      onClose={props.onClose}
      onCancel={(e) => {
        e.preventDefault();
        props.onClose();
      }}
    >
      <h2 id="keyboard-map-title">Keyboard</h2>
      {KEYBOARD_MAP.map((group) => (
        <table key={group.where} className="keys">
          <caption>{group.where}</caption>
          <tbody>
            {group.keys.map(([k, what]) => (
              <tr key={k}>
                <th scope="row">
                  <kbd>{k}</kbd>
                </th>
                <td>{what}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ))}
      <button type="button" className="plain-button" onClick={props.onClose}>
        Close
      </button>
    </dialog>
  );
}
