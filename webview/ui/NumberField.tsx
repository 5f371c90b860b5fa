// A numeric setting. The toolkit has no number field, so this is a native input styled with the editor's
// input colours (media/main.css); its accessible name is the setting's SPEC name (e.g. "keepRecent"), so tests
// and screen readers find it by that name.
//
// A value is committed on Enter, on leaving the field, or on a step (arrow keys, the spin buttons, the wheel),
// never on each keystroke: typing "15" must not save "1" on the way. A value out of range stays in the field as
// typed, marked invalid with the reason and the allowed range, and nothing is committed until it is fixed;
// Escape puts back the value in force.
import { type ChangeEvent, type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';

export interface NumberLimits {
  min?: number;
  max?: number;
  /** Why `min` / `max` is what it is when another setting sets it, e.g. "keepRecent (8)". */
  minReason?: string;
  maxReason?: string;
  integer?: boolean;
}

/** Why `text` is not an allowed value, or null when it is. Says the allowed range. */
export function numberProblem(text: string, limits: NumberLimits): string | null {
  const n = Number(text);
  const range = rangeText(limits);
  if (text.trim() === '' || !Number.isFinite(n)) return `a number is needed (${range})`;
  if (limits.integer !== false && !Number.isInteger(n)) return `a whole number is needed (${range})`;
  if (limits.min !== undefined && n < limits.min)
    return limits.minReason
      ? `must be at least ${limits.minReason}: allowed ${range}`
      : `too small: allowed ${range}`;
  if (limits.max !== undefined && n > limits.max)
    return limits.maxReason
      ? `must be at most ${limits.maxReason}: allowed ${range}`
      : `too large: allowed ${range}`;
  return null;
}

function rangeText({ min, max }: NumberLimits): string {
  if (min !== undefined && max !== undefined) return `${min} to ${max}`;
  if (min !== undefined) return `${min} or more`;
  if (max !== undefined) return `${max} or less`;
  return 'any number';
}

export function NumberField(
  props: NumberLimits & {
    name: string;
    value: number;
    step?: number;
    description?: string;
    /** What the value in force risks, said beside it (also in the compact form). */
    warning?: string;
    /** The compact toolbar's form: the name beside the field, no description line. */
    compact?: boolean;
    testId?: string;
    onChange: (value: number) => void;
  },
) {
  const [text, setText] = useState(String(props.value));
  const [problem, setProblem] = useState<string | null>(null);
  const id = useId();
  // The value in force, read by the commit of a blur that happens during a re-render.
  const value = useRef(props.value);
  value.current = props.value;
  // A value from outside (settings.json edits, reset, a ladder drag, the other copy of this field) replaces
  // what the field shows, and any complaint about the text it replaces.
  useEffect(() => {
    setText(String(props.value));
    setProblem(null);
  }, [props.value]);

  const commit = (t: string) => {
    const p = numberProblem(t, props);
    setProblem(p);
    if (p) return;
    const n = Number(t);
    if (n !== value.current) props.onChange(n);
    else setText(String(n));
  };
  const onChange = (e: ChangeEvent<HTMLInputElement>) => {
    const t = e.target.value;
    setText(t);
    // Typing and pasting carry an inputType; a step (spin button, wheel, arrow key) does not: commit it.
    const inputType = (e.nativeEvent as InputEvent).inputType;
    if (!inputType) commit(t);
    else if (problem && !numberProblem(t, props)) setProblem(null); // fixed: the complaint goes at once
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      commit(text);
    } else if (e.key === 'Escape' && (text !== String(props.value) || problem)) {
      e.preventDefault();
      e.stopPropagation();
      setText(String(props.value));
      setProblem(null);
    }
  };
  const descId = `${id}-desc`;
  const problemId = `${id}-problem`;
  const warnId = `${id}-warning`;
  const describedBy = [
    problem ? problemId : null,
    props.warning ? warnId : null,
    props.description ? descId : null,
  ].filter(Boolean);
  return (
    <label className={`number-field${props.compact ? ' compact' : ''}`}>
      <span className="field-name">{props.name}</span>
      <input
        type="number"
        aria-label={props.name}
        aria-describedby={describedBy.length ? describedBy.join(' ') : undefined}
        aria-invalid={problem ? true : undefined}
        aria-errormessage={problem ? problemId : undefined}
        data-testid={props.testId ?? `setting-${props.name}`}
        value={text}
        min={props.min}
        max={props.max}
        step={props.step ?? 1}
        onChange={onChange}
        onKeyDown={onKeyDown}
        onBlur={() => {
          if (text !== String(props.value) || problem) commit(text);
        }}
      />
      {problem ? (
        <span id={problemId} className="field-problem" role="alert" data-testid="field-problem">
          {problem}
        </span>
      ) : null}
      {props.warning ? (
        <span id={warnId} className="field-warning" title={props.warning} data-testid="field-warning">
          ⚠ {props.compact ? 'risky' : props.warning}
        </span>
      ) : null}
      {props.description && !props.compact ? (
        <span id={descId} className="field-description">
          {props.description}
        </span>
      ) : null}
    </label>
  );
}
