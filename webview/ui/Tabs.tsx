// Tabs with the ARIA tab pattern: arrow keys move between tabs, only the active panel is rendered.
import { type KeyboardEvent, type ReactNode, useLayoutEffect, useRef } from 'react';

export function Tabs(props: {
  label: string;
  tabs: { id: string; title: string; content: ReactNode }[];
  active: string;
  onSelect: (id: string) => void;
}) {
  const refs = useRef<Record<string, HTMLButtonElement | null>>({});
  const panel = useRef<HTMLDivElement>(null);
  // Focus inside a panel that a tab switch removes would fall to the page (and out of the webview on the next
  // Tab): it goes to the new tab instead.
  const focusWasInPanel = useRef(false);
  const select = (id: string) => {
    focusWasInPanel.current = !!panel.current?.contains(document.activeElement);
    props.onSelect(id);
  };
  const index = Math.max(
    0,
    props.tabs.findIndex((t) => t.id === props.active),
  );
  const onKey = (e: KeyboardEvent) => {
    const delta = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0;
    if (!delta) return;
    e.preventDefault();
    const next = props.tabs[(index + delta + props.tabs.length) % props.tabs.length];
    select(next.id);
    refs.current[next.id]?.focus();
  };
  const current = props.tabs[index];
  useLayoutEffect(() => {
    const lost = document.activeElement === null || document.activeElement === document.body;
    if (focusWasInPanel.current && lost) refs.current[current.id]?.focus();
    focusWasInPanel.current = false;
  }, [current.id]);
  return (
    <div className="tabs">
      <div role="tablist" aria-label={props.label} onKeyDown={onKey}>
        {props.tabs.map((t) => (
          <button
            key={t.id}
            ref={(el) => {
              refs.current[t.id] = el;
            }}
            type="button"
            role="tab"
            id={`tab-${t.id}`}
            aria-selected={t.id === current.id}
            aria-controls={`panel-${t.id}`}
            tabIndex={t.id === current.id ? 0 : -1}
            className="tab"
            onClick={() => select(t.id)}
          >
            {t.title}
          </button>
        ))}
      </div>
      <div
        ref={panel}
        role="tabpanel"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: the WAI-ARIA tabs pattern makes a panel focusable, so Tab goes from the tabs into a panel without controls
        tabIndex={0}
        id={`panel-${current.id}`}
        aria-labelledby={`tab-${current.id}`}
        className="tab-panel"
      >
        {current.content}
      </div>
    </div>
  );
}
