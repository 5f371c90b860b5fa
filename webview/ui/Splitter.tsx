// The handle between two panes: drag it, or focus it and use the arrow keys (Home/End: the limits). The value is
// the first pane's share of the two, kept between MIN_SPLIT and MAX_SPLIT so neither pane disappears.
import { type KeyboardEvent, type PointerEvent, useRef } from 'react';

export const MIN_SPLIT = 0.2;
export const MAX_SPLIT = 0.8;
export const clampSplit = (f: number) =>
  Number.isFinite(f) ? Math.min(MAX_SPLIT, Math.max(MIN_SPLIT, f)) : 0.5;

export function Splitter(props: {
  label: string;
  /** Panes side by side: a vertical handle moved left and right; stacked: a horizontal one. */
  orientation: 'vertical' | 'horizontal';
  value: number;
  /** The two panes' box (first pane start to second pane end), read when a drag starts. */
  span: () => { start: number; size: number } | null;
  onChange: (value: number) => void;
  /** At the end of a drag or a key press: the value to keep. */
  onCommit: (value: number) => void;
}) {
  const drag = useRef<{ start: number; size: number; last: number } | null>(null);
  const at = (e: PointerEvent) => (props.orientation === 'vertical' ? e.clientX : e.clientY);
  const onKeyDown = (e: KeyboardEvent) => {
    const step = e.shiftKey ? 0.1 : 0.02;
    const next: Record<string, number> = {
      ArrowLeft: props.value - step,
      ArrowUp: props.value - step,
      ArrowRight: props.value + step,
      ArrowDown: props.value + step,
      Home: MIN_SPLIT,
      End: MAX_SPLIT,
    };
    if (!(e.key in next)) return;
    e.preventDefault();
    const v = clampSplit(next[e.key]);
    props.onChange(v);
    props.onCommit(v);
  };
  return (
    // biome-ignore lint/a11y/useSemanticElements: a focusable, movable separator (WAI-ARIA window splitter), not an <hr>
    <div
      className={`splitter splitter-${props.orientation}`}
      role="separator"
      tabIndex={0}
      aria-label={props.label}
      aria-orientation={props.orientation}
      aria-valuenow={Math.round(props.value * 100)}
      aria-valuemin={MIN_SPLIT * 100}
      aria-valuemax={MAX_SPLIT * 100}
      data-testid="splitter"
      onKeyDown={onKeyDown}
      onPointerDown={(e) => {
        const span = props.span();
        if (!span) return;
        e.preventDefault();
        e.currentTarget.setPointerCapture?.(e.pointerId);
        drag.current = { ...span, last: props.value };
      }}
      onPointerMove={(e) => {
        const d = drag.current;
        if (!d) return;
        d.last = clampSplit((at(e) - d.start) / d.size);
        props.onChange(d.last);
      }}
      onPointerUp={() => {
        if (drag.current) props.onCommit(drag.current.last);
        drag.current = null;
      }}
      onPointerCancel={() => {
        drag.current = null;
      }}
    />
  );
}
