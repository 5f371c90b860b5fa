// The contextLens.* settings the extension declares (package.json) are the policy registry's, entry for entry:
// a setting added to a descriptor and forgotten in the manifest (or the reverse, or a default, range or
// description changed in one place only) fails here.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { MAX_INT, type SettingSpec } from '../../../src/core/engine/policies/descriptor';
import { SETTINGS } from '../../../src/core/engine/policies/registry';
import { DEFAULT_POLICY, POLICY_FIELDS, POLICY_NAMES } from '../../../src/core/engine/policy';
import { SETTING_KEYS } from '../../../src/protocol';

const manifest = JSON.parse(
  readFileSync(join(import.meta.dirname, '..', '..', '..', 'package.json'), 'utf8'),
);
const properties: Record<string, Record<string, unknown>> = manifest.contributes.configuration.properties;

/** The configuration entry a setting's descriptor makes (an integer's maximum only where it has one of its own). */
function configurationEntry(spec: SettingSpec<unknown>): Record<string, unknown> {
  const common = { default: spec.default, markdownDescription: spec.description };
  switch (spec.kind) {
    case 'int':
      return spec.max < MAX_INT
        ? { type: 'integer', minimum: spec.min, maximum: spec.max, ...common }
        : { type: 'integer', minimum: spec.min, ...common };
    case 'fraction':
      return { type: 'number', exclusiveMinimum: 0, maximum: 1, ...common };
    case 'bool':
      return { type: 'boolean', ...common };
    case 'patterns':
    case 'names':
      return { type: 'array', items: { type: 'string' }, ...common };
    case 'enum':
      return { type: 'string', enum: [...spec.values], ...common };
    case 'intOrAll':
      return {
        anyOf: [
          { type: 'integer', minimum: spec.min },
          { type: 'string', enum: ['all'] },
        ],
        ...common,
      };
  }
}

/** Declared settings that are not a section's: the policy's name, the model, the Tier-2 summarizer. */
const OUTSIDE_SECTIONS = ['policy', 'model', 'summarizer'];

test('every setting of the registry is declared in package.json as its descriptor says', () => {
  for (const { key, spec } of SETTINGS)
    assert.deepEqual(properties[`contextLens.${key}`], configurationEntry(spec), `contextLens.${key}`);
});

test('package.json declares no setting the registry does not hold', () => {
  const declared = Object.keys(properties).map((k) => k.replace(/^contextLens\./, ''));
  const known = [...SETTINGS.map((s) => s.key), ...OUTSIDE_SECTIONS];
  assert.deepEqual(
    declared.filter((k) => !known.includes(k)),
    [],
  );
});

test('every setting is validated by the engine and may be changed by the webview, in registry order', () => {
  assert.deepEqual(
    Object.keys(POLICY_FIELDS),
    SETTINGS.map((s) => s.key),
  );
  assert.deepEqual(
    SETTING_KEYS.filter((k) => !OUTSIDE_SECTIONS.includes(k)),
    SETTINGS.map((s) => s.key),
  );
});

test('the declared policy names and default policy are the engine’s', () => {
  assert.deepEqual(properties['contextLens.policy'].enum, [...POLICY_NAMES]);
  assert.equal(properties['contextLens.policy'].default, DEFAULT_POLICY.name);
  assert.equal(properties['contextLens.model'].default, DEFAULT_POLICY.model);
});
