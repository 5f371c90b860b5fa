// The contextLens.* settings the extension declares (package.json) and the keys the engine validates are one list,
// with the same defaults: a key added to the policy and forgotten in the manifest (or the reverse) fails here.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { DEFAULT_POLICY, POLICY_FIELDS, POLICY_NAMES } from '../../../src/core/engine/policy';
import { SETTING_KEYS } from '../../../src/protocol';

const manifest = JSON.parse(
  readFileSync(join(import.meta.dirname, '..', '..', '..', 'package.json'), 'utf8'),
);
const properties: Record<string, { default?: unknown; enum?: unknown[] }> =
  manifest.contributes.configuration.properties;

test('every policy key is a declared setting, a webview key and a CLI --set key, with the SPEC default', () => {
  const declared = Object.keys(properties).map((k) => k.replace(/^contextLens\./, ''));
  for (const key of Object.keys(POLICY_FIELDS)) {
    assert.ok(declared.includes(key), `package.json declares contextLens.${key}`);
    assert.ok((SETTING_KEYS as readonly string[]).includes(key), `the webview may change ${key}`);
    const [section, field] = key.split('.');
    const value = (DEFAULT_POLICY as unknown as Record<string, Record<string, unknown>>)[section][field];
    // Tool-name lists get the agent's preset added at run time; the declared default is the SPEC's list.
    assert.deepEqual(properties[`contextLens.${key}`].default, value, `default of ${key}`);
  }
  for (const key of declared)
    assert.ok(
      key in POLICY_FIELDS || ['policy', 'model', 'summarizer'].includes(key),
      `contextLens.${key} is validated by the engine`,
    );
});

test('the declared policy names are the engine’s', () => {
  assert.deepEqual(properties['contextLens.policy'].enum, [...POLICY_NAMES]);
});
