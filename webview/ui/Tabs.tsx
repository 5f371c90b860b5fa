// Tabs with the ARIA tab pattern: arrow keys move between tabs, only the active panel is rendered.
import { type KeyboardEvent, type ReactNode, useRef } from 'react';

export function Tabs(props: {
  label: string;
  tabs: { id: string; title: string; content: ReactNode }[];
  active: string;
  onSelect: (id: string) => void;
}) {
  const refs = useRef<Record<string, HTMLButtonElement | null>>({});
  const index = Math.max(
    0,
    props.tabs.findIndex((t) => t.id === props.active),
  );
  const onKey = (e: KeyboardEvent) => {
    const delta = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0;
    if (!delta) return;
    e.preventDefault();
    const next = props.tabs[(index + delta + props.tabs.length) % props.tabs.length];
    props.onSelect(next.id);
    refs.current[next.id]?.focus();
  };
  const current = props.tabs[index];
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
            onClick={() => props.onSelect(t.id)}
          >
            {t.title}
          </button>
        ))}
      </div>
      <div
        role="tabpanel"
        id={`panel-${current.id}`}
        aria-labelledby={`tab-${current.id}`}
        className="tab-panel"
      >
        {current.content}
      </div>
    </div>
  );
}
