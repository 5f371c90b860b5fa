// Controls: the policy and every constant of SPEC §2–§5. A change is sent at once (no Apply button); the
// host re-analyses and saves it to the contextLens.* settings. Names are the SPEC's setting keys.
import { memo, useEffect, useRef, useState } from 'react';
import type { Policy } from '../../src/core/engine/policy';
import {
  type PolicySettingKey,
  policySetting,
  type SettingKey,
  type SettingValue,
} from '../../src/protocol/settingValues';
import type { ModelPresetSummary, SummarizerName } from '../../src/protocol/shared';
import type { ViewDescriptors } from '../../src/protocol/viewDescriptors';
import { policyOf, settingWarning, useDescriptors } from '../descriptors';
import { NumberField, type NumberLimits } from '../ui/NumberField';
import { Button, Checkbox, Dropdown, type DropdownOption, TextArea } from '../ui/toolkit';
import { GROUPS, type NumberSpec, policyOptions } from './controlGroups';

/** A numeric setting's range, as its descriptor declares it (integers have no upper bound worth showing). */
function rangeOf(d: ViewDescriptors, key: PolicySettingKey): Pick<NumberLimits, 'min' | 'max' | 'integer'> {
  const spec = d.settings.find((s) => s.key === key);
  if (spec?.kind === 'int') return { min: spec.min, max: undefined, integer: undefined };
  if (spec?.kind === 'fraction') return { min: 0, max: 1, integer: false };
  throw new Error(`no numeric setting ${key}`);
}

const TRIGGER_TYPES = [
  { value: 'input_tokens', label: 'input tokens' },
  { value: 'tool_uses', label: 'tool uses' },
];
/** `clear_thinking_20251015` keep: all, or a number of thinking turns (a value set in settings.json is offered too). */
function thinkingKeeps(current: number | 'all'): DropdownOption[] {
  const values = new Set<number | 'all'>(['all', 1, 2, 3, 5, 10, current]);
  return [...values].map((v) => ({
    value: String(v),
    label: v === 'all' ? 'all (keep every thinking block)' : `${v} turn${v === 1 ? '' : 's'}`,
  }));
}
const TRIGGERS = [
  { value: 'auto', label: 'auto (every request of a session)' },
  { value: 'once', label: 'once (if a pass ran now)' },
  { value: 'everyRequest', label: 'every request' },
  { value: 'pressure', label: 'under pressure' },
];
/** The toolbar's shorter labels (its dropdown is as wide as its longest option). */
const TRIGGERS_SHORT = TRIGGERS.map((t) => ({ ...t, label: t.label.replace(/ \(.*\)$/, '') }));
const CACHE_TTLS = [
  { value: 'auto', label: 'auto (from the log)' },
  { value: '5m', label: '5 minutes' },
  { value: '1h', label: '1 hour' },
];
const OPENAI_RETENTIONS = [
  { value: 'auto', label: 'auto (from the log)' },
  { value: 'in_memory', label: 'in memory (10 min)' },
  { value: '24h', label: '24 hours' },
];
const SUMMARIZERS = [
  { value: 'none', label: 'none (head and tail)' },
  { value: 'extractive', label: 'extractive (offline)' },
  { value: 'vscode-lm', label: 'language model (vscode-lm)' },
];

/** A setting chosen from a list, under its setting name (which is also the dropdown's accessible name). */
function SelectField(props: {
  name: SettingKey;
  value: string;
  options: DropdownOption[];
  onChange: (key: SettingKey, value: SettingValue) => void;
  inline?: boolean;
}) {
  return (
    <div className={`select-field${props.inline ? ' compact' : ''}`}>
      <span className="field-name">{props.name}</span>
      <Dropdown
        label={props.name}
        value={props.value}
        options={props.options}
        onChange={(value) => props.onChange(props.name, value)}
      />
    </div>
  );
}

/** A field's name: the key without its section for the SPEC's constants (as the SPEC's tables name them); the
 * providers' keys keep theirs (`contextEditing.keep` is not `observation.keep`). */
const shortName = (d: ViewDescriptors, key: string) =>
  d.settings.find((s) => s.key === key)?.provider ? key : key.slice(key.indexOf('.') + 1);

/** The limits of a numeric setting, with the ones another setting sets (SPEC §2: keepRecent ≤ tier1Distance)
 * explained by that setting's name and value: the field says why, and never rewrites what the user typed. */
function limitsOf(d: ViewDescriptors, spec: NumberSpec, policy: Policy): NumberLimits & { warning?: string } {
  const range = rangeOf(d, spec.key);
  const limits: NumberLimits & { warning?: string } = { ...range };
  limits.warning = settingWarning(d, spec.key, policySetting(policy, spec.key));
  const { keepRecent, tier1Distance } = policy.tiered;
  if (spec.key === 'tiered.keepRecent') {
    limits.max = tier1Distance;
    limits.maxReason = `tier1Distance (${tier1Distance})`;
  } else if (spec.key === 'tiered.tier1Distance') {
    limits.min = Math.max(range.min ?? 0, keepRecent);
    limits.minReason = `keepRecent (${keepRecent})`;
  }
  return limits;
}

const specOf = (key: PolicySettingKey): NumberSpec => {
  for (const g of GROUPS) for (const n of g.numbers) if (n.key === key) return n;
  throw new Error(`no numeric setting ${key}`);
};

const TIER_KEYS = ['tiered.keepRecent', 'tiered.tier1Distance'] as const;
/** The few settings people change most, as one compact row: shown while the controls panel is collapsed; the tier
 * constants only where the tiered pass acts (the policy's descriptor says). */
export const QuickControls = memo(function QuickControls(props: {
  policy: Policy;
  offered?: readonly string[];
  onChange: (key: SettingKey, value: SettingValue) => void;
}) {
  const { policy, onChange } = props;
  const d = useDescriptors();
  return (
    <form className="quick-controls" aria-label="Main settings" onSubmit={(e) => e.preventDefault()}>
      <SelectField
        name="policy"
        value={policy.name}
        options={policyOptions(policy.name, props.offered)}
        onChange={onChange}
        inline
      />
      {(policyOf(d, policy.name).tiered ? TIER_KEYS : []).map((key) => {
        const spec = specOf(key);
        return (
          <NumberField
            key={key}
            compact
            name={shortName(d, key)}
            value={policySetting(policy, key) as number}
            {...limitsOf(d, spec, policy)}
            description={spec.description}
            onChange={(value) => onChange(key, value)}
          />
        );
      })}
      <SelectField
        name="replay.trigger"
        value={policy.replay.trigger}
        options={TRIGGERS_SHORT}
        onChange={onChange}
        inline
      />
    </form>
  );
});

/** Memoized: an analysis arrives on every change, and the controls need not re-render for it. */
export const Controls = memo(function Controls(props: {
  policy: Policy;
  offered?: readonly string[];
  /** The session's provider, where known: only its own cache setting is shown. */
  provider?: 'anthropic' | 'openai';
  summarizer: SummarizerName;
  models: ModelPresetSummary[];
  scope: 'workspace' | 'global';
  problem: string | null;
  onChange: (key: SettingKey, value: SettingValue) => void;
  onReset: () => void;
}) {
  const { policy, onChange } = props;
  const d = useDescriptors();
  const models = props.models.length > 0 ? props.models : [{ id: policy.model, label: policy.model }];
  return (
    <form className="controls" aria-label="Policy settings" onSubmit={(e) => e.preventDefault()}>
      <div className="control-row">
        <SelectField
          name="policy"
          value={policy.name}
          options={policyOptions(policy.name, props.offered)}
          onChange={onChange}
        />
        <SelectField
          name="replay.trigger"
          value={policy.replay.trigger}
          options={TRIGGERS}
          onChange={onChange}
        />
        {/* Each provider's cache lifetime, for its own sessions (both where the provider is not known). */}
        {props.provider !== 'openai' ? (
          <SelectField
            name="replay.cacheTtl"
            value={policy.replay.cacheTtl}
            options={CACHE_TTLS}
            onChange={onChange}
          />
        ) : null}
        {props.provider !== 'anthropic' ? (
          <SelectField
            name="replay.openaiCacheRetention"
            value={policy.replay.openaiCacheRetention}
            options={OPENAI_RETENTIONS}
            onChange={onChange}
          />
        ) : null}
        <SelectField
          name="model"
          value={policy.model}
          options={models.map((m) => ({ value: m.id, label: m.label }))}
          onChange={onChange}
        />
        <SelectField name="summarizer" value={props.summarizer} options={SUMMARIZERS} onChange={onChange} />
      </div>
      {props.problem ? (
        <p className="settings-problem" role="alert" data-testid="settings-problem">
          {props.problem}
        </p>
      ) : null}
      {GROUPS.map((g) => (
        <fieldset key={g.title}>
          <legend>{g.title}</legend>
          {g.note ? <p className="field-description group-note">{g.note}</p> : null}
          <div className="number-grid">
            {g.numbers.map((n) => (
              <NumberField
                key={n.key}
                name={shortName(d, n.key)}
                value={policySetting(policy, n.key) as number}
                {...limitsOf(d, n, policy)}
                step={n.step}
                description={n.description}
                onChange={(value) => onChange(n.key, value)}
              />
            ))}
            {g.title === 'Live zone' ? (
              <Checkbox
                label="ccr"
                checked={policy.liveZone.ccr}
                onChange={(c) => onChange('liveZone.ccr', c)}
              />
            ) : null}
            {g.title === 'Anthropic context editing' ? (
              <>
                <SelectField
                  name="contextEditing.triggerType"
                  value={policy.contextEditing.triggerType}
                  options={TRIGGER_TYPES}
                  onChange={onChange}
                />
                <SelectField
                  name="contextEditing.clearThinkingKeep"
                  value={String(policy.contextEditing.clearThinkingKeep)}
                  options={thinkingKeeps(policy.contextEditing.clearThinkingKeep)}
                  onChange={(key, value) => onChange(key, value === 'all' ? 'all' : Number(value))}
                />
                <Checkbox
                  label="clearToolInputs"
                  checked={policy.contextEditing.clearToolInputs}
                  onChange={(c) => onChange('contextEditing.clearToolInputs', c)}
                />
              </>
            ) : null}
          </div>
          {g.lists.map((l) => (
            <ToolList
              key={l.key}
              name={shortName(d, l.key)}
              description={l.description}
              value={policySetting(policy, l.key) as string[]}
              onChange={(value) => onChange(l.key, value)}
            />
          ))}
        </fieldset>
      ))}
      <div className="control-row">
        <Button secondary ariaLabel="Reset to defaults" testId="reset-defaults" onClick={props.onReset}>
          Reset to defaults
        </Button>
        <span className="scope-note">
          Saved to {props.scope === 'workspace' ? 'workspace' : 'user'} settings (contextLens.*)
        </span>
      </div>
    </form>
  );
});

/** Tool names, one per line or comma-separated. Sent after a short pause in typing, not on every key. */
function ToolList(props: {
  /** As the field shows it (`shortName`). */
  name: string;
  description: string;
  value: string[];
  onChange: (v: string[]) => void;
}) {
  const joined = props.value.join('\n');
  const [text, setText] = useState(joined);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => setText(joined), [joined]);
  useEffect(() => () => clearTimeout(timer.current), []);
  return (
    <div className="tool-list">
      <span className="field-name">{props.name}</span>
      <TextArea
        label={props.name}
        value={text}
        rows={3}
        onInput={(t) => {
          setText(t);
          clearTimeout(timer.current);
          timer.current = setTimeout(() => {
            const list = t
              .split(/[\n,]/)
              .map((s) => s.trim())
              .filter((s) => s.length > 0);
            if (list.join('\n') !== joined) props.onChange(list);
          }, 300);
        }}
      />
      <span className="field-description">{props.description}</span>
    </div>
  );
}
