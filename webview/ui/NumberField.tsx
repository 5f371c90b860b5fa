// A numeric setting. The toolkit has no number field, so this is a native input styled with the editor's
// input colours (media/main.css); it keeps the accessible name equal to the setting's SPEC name
// (e.g. aria-label "keepRecent") so tests and screen readers find it by that name.
import { useEffect, useState } from 'react';

export function NumberField(props: {
  name: string;
  value: number;
  min?: number;
  max?: number;
  step?: number;
  integer?: boolean;
  description?: string;
  onChange: (value: number) => void;
}) {
  const [text, setText] = useState(String(props.value));
  const [invalid, setInvalid] = useState<string | null>(null);
  // Follow the value from outside (settings.json edits, reset, ladder drags) unless the user is mid-edit
  // with an invalid text.
  useEffect(() => {
    setText(String(props.value));
    setInvalid(null);
  }, [props.value]);
  const descId = `desc-${props.name.replace(/\W/g, '-')}`;
  return (
    <label className="number-field">
      <span className="field-name">{props.name}</span>
      <input
        type="number"
        aria-label={props.name}
        aria-describedby={props.description ? descId : undefined}
        aria-invalid={invalid ? true : undefined}
        data-testid={`setting-${props.name}`}
        value={text}
        min={props.min}
        max={props.max}
        step={props.step ?? 1}
        onChange={(e) => {
          const t = e.target.value;
          setText(t);
          const n = Number(t);
          if (t.trim() === '' || !Number.isFinite(n)) return setInvalid('a number is needed');
          if (props.integer !== false && !Number.isInteger(n)) return setInvalid('a whole number is needed');
          if (props.min !== undefined && n < props.min) return setInvalid(`at least ${props.min}`);
          if (props.max !== undefined && n > props.max) return setInvalid(`at most ${props.max}`);
          setInvalid(null);
          if (n !== props.value) props.onChange(n);
        }}
      />
      {invalid ? (
        <span className="field-problem" role="alert">
          {invalid}
        </span>
      ) : null}
      {props.description ? (
        <span id={descId} className="field-description">
          {props.description}
        </span>
      ) : null}
    </label>
  );
}
