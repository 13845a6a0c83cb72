// The rule-to-test table (agx-conformance.js) names only tests that exist: each JS reference must
// be the exact title of an it()/test() in its file, each native one a TEST(suite, name).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { RULES } from './agx-conformance.js';

const here = new URL('./', import.meta.url);
const native = new URL('../native/', import.meta.url);

function jsTitles(file) {
  const src = readFileSync(new URL(file, here), 'utf8');
  const out = new Set();
  for (const m of src.matchAll(/\b(?:it|test|describe)\(\s*(['"`])((?:\\.|(?!\1).)*)\1/g)) out.add(m[2].replace(/\\(['"`\\])/g, '$1'));
  return out;
}

const nativeNames = new Set();
for (const f of readdirSync(native)) {
  if (!f.endsWith('.cpp')) continue;
  for (const m of readFileSync(new URL(f, native), 'utf8').matchAll(/^TEST\((\w+),\s*(\w+)\)/gm)) nativeNames.add(`${m[1]}.${m[2]}`);
}

test('every entry of the AGX rule-to-test table names existing tests', () => {
  assert.ok(RULES.length >= 40, `${RULES.length} rules`);
  const cache = new Map();
  const missing = [];
  for (const r of RULES) {
    assert.ok(r.rule && r.section && r.level && r.tests.length > 0, JSON.stringify(r));
    for (const ref of r.tests) {
      if (ref.startsWith('native:')) {
        if (!nativeNames.has(ref.slice(7))) missing.push(ref);
        continue;
      }
      const m = ref.match(/^js:([^:]+):(.+)$/s);
      if (!m) {
        missing.push(ref);
        continue;
      }
      if (!cache.has(m[1])) cache.set(m[1], jsTitles(m[1]));
      if (!cache.get(m[1]).has(m[2])) missing.push(ref);
    }
  }
  assert.deepEqual(missing, []);
});

test('every rule of the table has a native (GoogleTest) test', () => {
  const jsOnly = RULES.filter((r) => !r.tests.some((t) => t.startsWith('native:'))).map((r) => r.rule);
  assert.deepEqual(jsOnly, []);
});

test('the checker itself fails on a missing name', () => {
  assert.equal(jsTitles('agx-client.test.js').has('no such test'), false);
  assert.equal(nativeNames.has('agx_envelope_test.no_such_test'), false);
  assert.ok(nativeNames.has('agx_envelope_test.round_trip_alice_to_bob'));
});
