// The only module that imports @vscode/webview-ui-toolkit. The toolkit is archived upstream; keeping every
// use behind these wrappers means a move to another component set touches this folder alone.
import {
  VSCodeButton,
  VSCodeCheckbox,
  VSCodeDropdown,
  VSCodeOption,
  VSCodeProgressRing,
} from '@vscode/webview-ui-toolkit/react';
import type { ReactNode } from 'react';

export function Button(props: {
  children: ReactNode;
  onClick: () => void;
  ariaLabel?: string;
  secondary?: boolean;
  disabled?: boolean;
  testId?: string;
  title?: string;
}) {
  return (
    <VSCodeButton
      appearance={props.secondary ? 'secondary' : 'primary'}
      aria-label={props.ariaLabel}
      disabled={props.disabled}
      data-testid={props.testId}
      title={props.title}
      onClick={props.onClick}
    >
      {props.children}
    </VSCodeButton>
  );
}

export interface DropdownOption {
  value: string;
  label: string;
}

/** A select. `label` becomes the accessible name and names the test id (`setting-<label>`). */
export function Dropdown(props: {
  label: string;
  value: string;
  options: DropdownOption[];
  onChange: (value: string) => void;
  id?: string;
}) {
  return (
    <VSCodeDropdown
      id={props.id}
      aria-label={props.label}
      data-testid={`setting-${props.label}`}
      value={props.value}
      onChange={(e: Event | React.FormEvent) => {
        const value = (e.target as HTMLSelectElement).value;
        if (value !== props.value) props.onChange(value);
      }}
    >
      {props.options.map((o) => (
        <VSCodeOption key={o.value} value={o.value} selected={o.value === props.value}>
          {o.label}
        </VSCodeOption>
      ))}
    </VSCodeDropdown>
  );
}

export function Checkbox(props: { label: string; checked: boolean; onChange: (checked: boolean) => void }) {
  return (
    <VSCodeCheckbox
      aria-label={props.label}
      data-testid={`setting-${props.label}`}
      checked={props.checked}
      onChange={(e: Event | React.FormEvent) => {
        const checked = (e.target as HTMLInputElement).checked;
        if (checked !== props.checked) props.onChange(checked);
      }}
    >
      {props.label}
    </VSCodeCheckbox>
  );
}

/** A multi-line text field; `onInput` gets the whole text on every edit. A native textarea styled like the
 * editor's inputs: the toolkit's text area replaces the accessible name with "Text area". */
export function TextArea(props: {
  label: string;
  value: string;
  rows?: number;
  onInput: (value: string) => void;
}) {
  return (
    <textarea
      className="text-area"
      aria-label={props.label}
      data-testid={`setting-${props.label}`}
      value={props.value}
      rows={props.rows ?? 3}
      onChange={(e) => props.onInput(e.target.value)}
    />
  );
}

export function ProgressRing(props: { label: string }) {
  return <VSCodeProgressRing aria-label={props.label} />;
}
