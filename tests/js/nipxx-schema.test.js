// Differential test: the core's NIP-XX payload validation against ajv on the seed's own JSON
// Schemas (read from the seed text, not copied), over generated and mutated payloads.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import Ajv from 'ajv';
import { nostr, prng, vectorsDir } from './helpers.js';

const seed = readFileSync(new URL('nip-xx-ai-agent-messages.md', vectorsDir), 'utf8');
const schemas = {};
for (const [, body] of seed.matchAll(/```json\n([\s\S]*?)```/g)) {
  let s;
  try {
    s = JSON.parse(body);
  } catch {
    continue; // the seed's example payloads with placeholders
  }
  const m = typeof s.$id === 'string' && s.$id.match(/nip-xx-([a-z-]+)\.json$/);
  if (m && m[1] !== 'agent-message') schemas[m[1]] = s; // agent-message: the common fields, part of every kind's schema
}
const KIND_OF = {
  prompt: 25802,
  cancel: 25806,
  response: 25803,
  delta: 25801,
  status: 25800,
  'tool-call': 25804,
  error: 25805,
  info: 31340,
};

// Valid seeds per schema, from which mutations start.
const SEEDS = {
  prompt: [
    { ver: 1, message: 'hi' },
    { ver: 1, message: 'hi', thinking: 'max', provider: 'p', model: 'm', tool_schema_version: 2, fallback_models: ['a'] },
  ],
  cancel: [{ ver: 1, reason: 'user_cancel' }],
  response: [
    { ver: 1, text: '' },
    { ver: 1, text: 'done', timestamp: 5, usage: { input_tokens: 1, output_tokens: 0 } },
  ],
  delta: [
    { ver: 1, text: 'x', seq: 0 },
    { ver: 1, text: '', timestamp: 9 },
  ],
  status: [{ ver: 1, state: 'thinking', progress: 50, info: 'i' }],
  'tool-call': [
    { ver: 1, name: 'calc', phase: 'start', arguments: { expr: '1' } },
    { ver: 1, text: 'event=tool|phase=start|name=x|ts=1' },
    { ver: 1, name: 'calc', phase: 'result', output: {}, success: true, duration_ms: 3, timestamp: 1 },
  ],
  error: [{ ver: 1, code: 'RATE_LIMIT', message: 'slow', retry_after: 1, details: {} }],
  info: [
    { ver: 1, encryption: ['nip44'], tool_names: [] },
    {
      ver: 1,
      supports_streaming: true,
      supports_nip59: false,
      encryption: ['nip04', 'nip44'],
      supported_models: ['a'],
      default_model: 'a',
      tool_names: ['calc'],
      tool_schema_version: 1,
      tool_schemas: { calc: { schema_version: 1, description: 'd', input_schema: {}, requires_approval: true } },
      max_prompt_bytes: 10,
      max_context_tokens: 10,
      pricing_hints: { currency: 'USD' },
    },
  ],
};

const ENUM_VALUES = ['low', 'high', 'max', 'user_cancel', 'policy', 'thinking', 'done', 'start', 'result', 'RATE_LIMIT', 'CANCELLED', 'nip44', 'bogus', ''];
const FIELD_NAMES = ['ver', 'message', 'thinking', 'model', 'provider', 'tool_schema_version', 'fallback_models', 'reason', 'text', 'timestamp', 'usage', 'seq', 'state', 'progress', 'info', 'name', 'phase', 'arguments', 'output', 'success', 'duration_ms', 'code', 'retry_after', 'details', 'encryption', 'tool_names', 'tool_schemas', 'max_prompt_bytes', 'supported_models', 'default_model', 'unknown_field'];

function randomValue(rand, depth = 0) {
  const pick = Math.floor(rand() * 16);
  switch (pick) {
    case 0: return null;
    case 1: return rand() < 0.5;
    case 2: return 0;
    case 3: return 1;
    case 4: return -1;
    case 5: return 100;
    case 6: return 101;
    case 7: return 1.5;
    case 8: return 1e20;
    case 9: return '';
    case 10: return 'x';
    case 11: return ENUM_VALUES[Math.floor(rand() * ENUM_VALUES.length)];
    case 12: return depth > 1 ? [] : [randomValue(rand, depth + 1)];
    case 13: return depth > 1 ? {} : { input_tokens: randomValue(rand, depth + 1), output_tokens: 1 };
    case 14: return ['nip44'];
    default: return depth > 1 ? {} : { schema_version: 1, description: 'd', input_schema: randomValue(rand, depth + 1) };
  }
}

function mutate(obj, rand) {
  const out = structuredClone(obj);
  const n = 1 + Math.floor(rand() * 3);
  for (let i = 0; i < n; i++) {
    const keys = Object.keys(out);
    const r = rand();
    if (r < 0.3 && keys.length) delete out[keys[Math.floor(rand() * keys.length)]];
    else if (r < 0.8 && keys.length) out[keys[Math.floor(rand() * keys.length)]] = randomValue(rand);
    else out[FIELD_NAMES[Math.floor(rand() * FIELD_NAMES.length)]] = randomValue(rand);
  }
  return out;
}

test('the seed has a JSON Schema for every kind', () => {
  assert.deepEqual(Object.keys(schemas).sort(), Object.keys(KIND_OF).sort());
});

test('core validation agrees with ajv on thousands of generated and mutated payloads', () => {
  const ajv = new Ajv({ strict: false, allErrors: false });
  const rand = prng(42);
  let cases = 0;
  let valid = 0;
  for (const [name, schema] of Object.entries(schemas)) {
    const check = ajv.compile(schema);
    for (let i = 0; i < 800; i++) {
      const base = SEEDS[name][i % SEEDS[name].length];
      const payload = i < SEEDS[name].length ? base : mutate(base, rand);
      const expected = check(payload);
      const got = nostr.nipxx.validatePayload(KIND_OF[name], payload);
      assert.equal(got.ok, expected, `${name}: ${JSON.stringify(payload)} ajv=${expected} core=${JSON.stringify(got)}`);
      if (!got.ok) assert.equal(got.code, 'INVALID_SCHEMA', JSON.stringify(payload));
      cases++;
      if (expected) valid++;
    }
  }
  assert.ok(cases >= 6000);
  // The generator must exercise both verdicts substantially, or the comparison proves little.
  assert.ok(valid > cases * 0.1 && valid < cases * 0.9, `valid ${valid} of ${cases}`);
});

test('non-JSON and non-object payloads', () => {
  assert.equal(nostr.nipxx.validatePayload(25802, '{"ver":1,').code, 'PARSE_ERROR');
  assert.equal(nostr.nipxx.validatePayload(25802, '').code, 'PARSE_ERROR');
  assert.equal(nostr.nipxx.validatePayload(25802, '[1]').code, 'INVALID_SCHEMA');
  assert.equal(nostr.nipxx.validatePayload(25802, '{"ver":1.0,"message":"x"}').ok, true);
  assert.throws(() => nostr.nipxx.validatePayload(1, '{}'), { code: 'INVALID_ARGUMENT' });
});
