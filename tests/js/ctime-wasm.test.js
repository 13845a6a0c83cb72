// The WASM build's constant-time selects and table scans, disassembled: no branch, no select and
// no memory address may depend on a secret (tests/support/wasm-taint.js says why a select counts).
// The probe module (tests/ctime/wasm_probe.c, built by cmake/wasm.cmake into build/wasm/ctime/)
// compiles each select helper of libsecp256k1 (with our patch, patches/) and each table scan (the
// library's ECDH lookup, ours for ECDH with a cached table, our generator multiplication's) as an
// exported function, with the product's compiler, settings and -O3 link.
// NOSTR_CTIME_PROBE_DIR points the test at another build of the probe (e.g. one without the patch,
// which this test fails: the selects of libsecp256k1 0.2.0 read their source address through a
// select on the flag).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { analyzeFunction, disassemble, parseWat } from '../support/wasm-taint.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const probeDir = process.env.NOSTR_CTIME_PROBE_DIR ?? join(root, 'build/wasm/ctime');
const wasmFile = join(probeDir, 'ctime_probe.wasm');
const glueFile = join(probeDir, 'ctime_probe.mjs');

// Which parameters of each probe are secret (tests/ctime/wasm_probe.c).
const PROBES = {
  probe_fe_cmov: [2, 3],
  probe_fe_storage_cmov: [2, 3],
  probe_ge_storage_cmov: [2, 3],
  probe_gej_cmov: [2, 3],
  probe_scalar_cmov: [2, 3],
  probe_int_cmov: [2, 3],
  probe_scalar_cond_negate: [1, 2],
  probe_scalar_cadd_bit: [1, 2],
  probe_memczero: [1, 2],
  probe_ecmult_const_lookup: [2],
  probe_ecdh_table_lookup: [2],
  probe_gen_lookup: [2],
};
const CONTROL = 'probe_control_unpatched_cmov';

function loadProbes() {
  assert.ok(existsSync(wasmFile), `${wasmFile} is missing: run bash scripts/build.sh`);
  const module = parseWat(disassemble(wasmFile));
  // The link minifies export names; the loader it writes maps each C name to its export.
  const glue = readFileSync(glueFile, 'utf8');
  const exportOf = new Map([...glue.matchAll(/Module\["_(probe_\w+)"\]\s*=\s*Module\["asm"\]\["([^"]+)"\]/g)].map((m) => [m[1], m[2]]));
  const fn = (name) => {
    const exp = exportOf.get(name);
    assert.ok(exp, `${name} is not exported by the probe module`);
    const f = module.byRef(module.exports.get(exp));
    assert.ok(f && f.body, `${name}: no function body`);
    return f;
  };
  return { module, fn };
}

const probes = loadProbes();

for (const [name, secret] of Object.entries(PROBES)) {
  test(`${name}: no branch, select or memory address depends on the secret`, () => {
    const f = probes.fn(name);
    assert.ok(f.body.length > 5, `${name} compiled to ${f.body.length} instructions`);
    const violations = analyzeFunction(probes.module, f, secret);
    assert.deepEqual(violations.map((v) => `${v.kind}: ${v.text}`), []);
  });
}

test('the check flags libsecp256k1 0.2.0 unpatched cmov, compiled here by the same compiler', () => {
  // The control is the library's conditional move before the patch: clang 14 turns it into a
  // select of the source address (and so a load from a secret-dependent address).
  const violations = analyzeFunction(probes.module, probes.fn(CONTROL), [2, 3]);
  const kinds = new Set(violations.map((v) => v.kind));
  assert.ok(kinds.has('select'), `expected a select on the flag, got ${JSON.stringify(violations)}`);
});

// ---- the analysis itself, on small functions written here (wabt's wat2wasm, then wasm2wat) ----

function analyzeWat(source, secret) {
  const dir = mkdtempSync(join(tmpdir(), 'wasm-taint-'));
  try {
    writeFileSync(join(dir, 'm.wat'), source);
    execFileSync('wat2wasm', ['--enable-all', join(dir, 'm.wat'), '-o', join(dir, 'm.wasm')]);
    const module = parseWat(disassemble(join(dir, 'm.wasm')));
    return analyzeFunction(module, module.funcs.at(-1), secret).map((v) => v.kind);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('analysis: a branch, a select and an address on the secret are flagged; masks are not', () => {
  const kinds = analyzeWat(
    `(module (memory 1) (global $sp (mut i32) (i32.const 1024))
      (func (param i32 i32) (result i32) (local i32)
        ;; mask arithmetic: clean
        local.get 0 i32.const 1 i32.sub local.get 1 i32.and local.set 2
        ;; select on the secret
        i32.const 1 i32.const 2 local.get 0 select drop
        ;; load from a secret address
        local.get 0 i32.load drop
        ;; branch on the secret
        block local.get 2 i32.eqz br_if 0 end
        ;; a loop over public counters only
        i32.const 0 local.set 1
        loop local.get 1 i32.const 1 i32.add local.tee 1 i32.const 8 i32.ne br_if 0 end
        local.get 2))`,
    [0],
  );
  assert.deepEqual(kinds.sort(), ['br_if', 'load address', 'select']);
});

test('analysis: taint survives a volatile spill through the stack frame and a loop', () => {
  const kinds = analyzeWat(
    `(module (memory 1) (global $__stack_pointer (mut i32) (i32.const 1024))
      (func (param i32) (result i32) (local i32 i32)
        global.get $__stack_pointer i32.const 16 i32.sub local.tee 1
        local.get 0 i32.store offset=12
        ;; an unrelated slot of the frame stays clean
        local.get 1 i32.const 7 i32.store offset=4
        local.get 1 i32.load offset=4 if end
        ;; the secret, reloaded, decides a select
        i32.const 3 i32.const 4 local.get 1 i32.load offset=12 select drop
        ;; a local tainted on the loop's second round decides its exit
        i32.const 0 local.set 2
        loop local.get 2 local.get 1 i32.load offset=12 i32.add local.tee 2 i32.const 100 i32.lt_u br_if 0 end
        local.get 2))`,
    [0],
  );
  assert.deepEqual(kinds.sort(), ['br_if', 'select']);
});
