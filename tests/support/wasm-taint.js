// Which branches, selects and memory addresses of a compiled WASM function depend on its secret
// arguments: a forward taint analysis over wabt's text disassembly (wasm2wat, flat form).
//
// Why selects count: a `select` is a conditional in WASM; the engine compiles it, to a
// conditional move or to a branch as its code generator sees fit (the choice libsecp256k1 0.3.1's
// advisory is about, made by clang on x86). Code that is constant time by construction computes
// masks with arithmetic, so nothing conditional on the secret is left for anyone to lower.
//
// The analysis: abstract values are { t: tainted, fp: offset from the stack pointer or '?' or
// null, c: known i32 constant }. Taint flows through every operation that consumes a tainted
// operand, through locals, and through memory: bytes of the function's stack frame are tracked one
// by one (a volatile spill of a flag is a store and a load of the same slot), other memory as one
// cell (a tainted store taints every later load from it). Control flow is followed structurally
// (block, loop, if) with joins, loops to a fixpoint. A value is never untainted by a branch, so an
// implicit flow cannot hide a violation: the violation is the branch itself.
import { execFileSync } from 'node:child_process';

const UNARY = /^(eqz|clz|ctz|popcnt|neg|abs|sqrt|ceil|floor|trunc|nearest|not|any_true|all_true|bitmask|splat)$|^(wrap|extend|trunc|convert|demote|promote|reinterpret|extadd|extract_lane)/;
const TERNARY = /^(bitselect)$/;
const BINARY_SIMD = /^(replace_lane|shuffle|swizzle|narrow|extmul|dot|q15mulr|avgr)/;
const LOAD = /^(i32|i64|f32|f64|v128)\.load(8|16|32|64)?(_[su]|_splat|_zero|x[0-9]+_[su])?$/;
const LOAD_LANE = /^v128\.load(8|16|32|64)_lane$/;
const STORE = /^(i32|i64|f32|f64|v128)\.store(8|16|32)?$/;
const STORE_LANE = /^v128\.store(8|16|32|64)_lane$/;
const WIDTH = { i32: 4, i64: 8, f32: 4, f64: 8, v128: 16 };

function accessBytes(op) {
  const m = /^(\w+)\.(load|store)(\d+)?/.exec(op);
  if (op.includes('_lane') || op.includes('_splat') || op.includes('_zero')) return Number(m[3]) / 8;
  if (/x\d+_[su]$/.test(op)) return 8; // v128.load8x8_s etc.
  return m[3] ? Number(m[3]) / 8 : WIDTH[m[1]];
}

// ---- parsing wasm2wat's output ----

function parseTypeSig(text) {
  const params = [];
  const results = [];
  for (const m of text.matchAll(/\((param|result)((?:\s+[a-z0-9]+)*)\)/g)) {
    const list = m[2].trim().split(/\s+/).filter(Boolean);
    (m[1] === 'param' ? params : results).push(...list);
  }
  return { params, results };
}

/** Parses a module's text into types, functions (with flat instruction lists) and exports. */
export function parseWat(wat) {
  const lines = wat.split('\n');
  const types = [];
  const funcs = [];
  const exports = new Map();
  let stackPointer = null;
  let globalIndex = 0;
  let cur = null;
  for (const raw of lines) {
    const line = raw.replace(/;;.*$/, '').replace(/\(;[^;]*;\)/g, '').trim();
    if (raw.startsWith('  (type ')) {
      types.push(parseTypeSig(raw.slice(raw.indexOf('(func'))));
      continue;
    }
    if (raw.startsWith('  (global ')) {
      const named = /\(global \$(\S+)/.exec(raw);
      if (stackPointer === null && ((named && named[1] === '__stack_pointer') || (!named && /\(mut i32\)/.test(raw))))
        stackPointer = named ? `$${named[1]}` : String(globalIndex);
      globalIndex++;
      continue;
    }
    if (raw.startsWith('  (import ') && raw.includes('(global')) {
      globalIndex++;
      continue;
    }
    if (raw.startsWith('  (import ') && raw.includes('(func')) {
      const sig = /\(type (\d+)\)/.exec(raw);
      funcs.push({ name: (/\(func \$(\S+)/.exec(raw) || [])[1] ?? null, imported: true, sig: types[Number(sig[1])] });
      continue;
    }
    if (raw.startsWith('  (export ')) {
      const m = /\(export "([^"]+)" \(func (\S+)\)\)/.exec(raw);
      if (m) exports.set(m[1], m[2]);
      continue;
    }
    if (raw.startsWith('  (func ')) {
      const typeRef = /\(type (\d+)\)/.exec(raw);
      const own = parseTypeSig(raw);
      const sig = typeRef ? types[Number(typeRef[1])] : own;
      cur = { name: (/\(func \$(\S+)/.exec(raw) || [])[1] ?? null, sig, locals: [...sig.params], body: [] };
      funcs.push(cur);
      continue;
    }
    if (!raw.startsWith('    ') || cur === null) {
      if (raw.startsWith('  (')) cur = null;
      continue;
    }
    if (line.startsWith('(local')) {
      cur.locals.push(...line.replace(/^\(local|\)$/g, '').trim().split(/\s+/).filter(Boolean));
      continue;
    }
    if (line === '' || line === ')') continue;
    let ins = line;
    // the function's closing parenthesis ends its last instruction's line
    while (ins.endsWith(')') && (ins.match(/\)/g) || []).length > (ins.match(/\(/g) || []).length) ins = ins.slice(0, -1).trim();
    const [op, ...rest] = ins.split(/\s+/);
    cur.body.push({ op, imm: rest.join(' '), text: raw.trim() });
  }
  const byRef = (ref) => (/^\d+$/.test(ref) ? funcs[Number(ref)] : funcs.find((f) => `$${f.name}` === ref));
  return { types, funcs, exports, stackPointer, byRef };
}

// Nests the flat list: block/loop/if own their bodies (if: then and else).
function nest(body) {
  let i = 0;
  function seq(stopAt) {
    const out = [];
    while (i < body.length) {
      const ins = body[i++];
      if (ins.op === 'end' || ins.op === 'else') {
        if (!stopAt.includes(ins.op)) throw new Error(`unexpected ${ins.op}`);
        return { out, stop: ins.op };
      }
      if (ins.op === 'block' || ins.op === 'loop' || ins.op === 'if') {
        const node = { ...ins, body: [], else: [] };
        const first = seq(ins.op === 'if' ? ['end', 'else'] : ['end']);
        node.body = first.out;
        if (first.stop === 'else') node.else = seq(['end']).out;
        out.push(node);
      } else {
        out.push(ins);
      }
    }
    return { out, stop: null };
  }
  return seq([]).out;
}

// ---- the analysis ----

const CLEAN = Object.freeze({ t: false, fp: null, c: null });
const tv = (t) => (t ? { t: true, fp: null, c: null } : CLEAN);

function joinValue(a, b) {
  if (a === b) return a;
  return { t: a.t || b.t, fp: a.fp === b.fp ? a.fp : a.fp !== null || b.fp !== null ? '?' : null, c: a.c === b.c ? a.c : null };
}
function sameValue(a, b) {
  return a.t === b.t && a.fp === b.fp && a.c === b.c;
}

class State {
  constructor(locals, stack = [], frame = new Set(), frameAny = false, heap = false) {
    this.locals = locals;
    this.stack = stack;
    this.frame = frame; // tainted frame bytes, as offsets from the stack pointer at entry
    this.frameAny = frameAny;
    this.heap = heap;
  }
  copy() {
    return new State([...this.locals], [...this.stack], new Set(this.frame), this.frameAny, this.heap);
  }
  static join(a, b) {
    if (a === null) return b && b.copy();
    if (b === null) return a.copy();
    if (a.stack.length !== b.stack.length) throw new Error('operand stacks of different heights meet');
    return new State(
      a.locals.map((v, i) => joinValue(v, b.locals[i])),
      a.stack.map((v, i) => joinValue(v, b.stack[i])),
      new Set([...a.frame, ...b.frame]),
      a.frameAny || b.frameAny,
      a.heap || b.heap,
    );
  }
  static equal(a, b) {
    if (a === null || b === null) return a === b;
    return (
      a.heap === b.heap &&
      a.frameAny === b.frameAny &&
      a.frame.size === b.frame.size &&
      [...a.frame].every((x) => b.frame.has(x)) &&
      a.stack.length === b.stack.length &&
      a.locals.every((v, i) => sameValue(v, b.locals[i])) &&
      a.stack.every((v, i) => sameValue(v, b.stack[i]))
    );
  }
}

function blockArity(ins, module) {
  const typeRef = /\(type (\d+)\)/.exec(ins.imm);
  if (typeRef) {
    const t = module.types[Number(typeRef[1])];
    return { params: t.params.length, results: t.results.length };
  }
  return { params: 0, results: parseTypeSig(ins.imm).results.length };
}

/**
 * Analyzes one function. secretParams: indexes of the parameters that are secret.
 * Returns the violations: [{ kind, text }] (kind: the instruction, or 'load address'/'store address').
 */
export function analyzeFunction(module, fn, secretParams) {
  const violations = new Map();
  const flag = (kind, ins) => violations.set(`${kind}@${ins.id}`, { kind, text: ins.text });
  const tree = nest(fn.body.map((ins, id) => ({ ...ins, id })));
  const resultsOf = fn.sig.results.length;
  const pop = (s, n) => s.stack.splice(s.stack.length - n, n);

  function branchTo(labels, depth, s) {
    const label = labels[labels.length - 1 - depth];
    const keep = label.kind === 'loop' ? label.params : label.results;
    const carried = new State(s.locals, s.stack.slice(s.stack.length - keep), s.frame, s.frameAny, s.heap);
    const base = label.height;
    const target = new State(carried.locals, [...label.baseStack.slice(0, base), ...carried.stack], carried.frame, carried.frameAny, carried.heap);
    label.incoming = State.join(label.incoming, target);
  }

  function exec(list, s, labels) {
    for (const ins of list) {
      if (s === null) return null; // unreachable code after br/return/unreachable
      const { op, imm } = ins;
      if (op === 'block' || op === 'loop' || op === 'if') {
        const ar = blockArity(ins, module);
        let cond = null;
        if (op === 'if') {
          [cond] = pop(s, 1);
          if (cond.t) flag('if', ins);
        }
        const height = s.stack.length - ar.params;
        const label = { kind: op, params: ar.params, results: ar.results, height, baseStack: s.stack.slice(0, height), incoming: null };
        if (op === 'loop') {
          let entry = s.copy();
          let out;
          for (let round = 0; ; round++) {
            if (round > 1000) throw new Error('no fixpoint');
            label.incoming = null;
            out = exec(ins.body, entry.copy(), [...labels, label]);
            const next = State.join(entry, label.incoming);
            if (State.equal(next, entry)) break;
            entry = next;
          }
          s = out;
        } else if (op === 'block') {
          const out = exec(ins.body, s.copy(), [...labels, label]);
          s = State.join(out, label.incoming);
        } else {
          const outThen = exec(ins.body, s.copy(), [...labels, label]);
          const outElse = exec(ins.else, s.copy(), [...labels, label]);
          s = State.join(State.join(outThen, outElse), label.incoming);
        }
        continue;
      }
      if (op === 'br') {
        branchTo(labels, Number(imm.split(/\s+/)[0]), s);
        s = null;
        continue;
      }
      if (op === 'br_if') {
        const [c] = pop(s, 1);
        if (c.t) flag('br_if', ins);
        branchTo(labels, Number(imm.split(/\s+/)[0]), s);
        continue;
      }
      if (op === 'br_table') {
        const [c] = pop(s, 1);
        if (c.t) flag('br_table', ins);
        for (const d of imm.split(/\s+/).filter((x) => /^\d+$/.test(x))) branchTo(labels, Number(d), s);
        s = null;
        continue;
      }
      if (op === 'return') {
        pop(s, resultsOf);
        s = null;
        continue;
      }
      if (op === 'unreachable') {
        s = null;
        continue;
      }
      if (op === 'nop') continue;
      if (op === 'drop') {
        pop(s, 1);
        continue;
      }
      if (op === 'local.get') {
        s.stack.push(s.locals[Number(imm)]);
        continue;
      }
      if (op === 'local.set' || op === 'local.tee') {
        const [v] = pop(s, 1);
        s.locals[Number(imm)] = v;
        if (op === 'local.tee') s.stack.push(v);
        continue;
      }
      if (op === 'global.get') {
        s.stack.push(imm === module.stackPointer ? { t: false, fp: 0, c: null } : CLEAN);
        continue;
      }
      if (op === 'global.set') {
        pop(s, 1);
        continue;
      }
      if (/^(i32|i64|f32|f64|v128)\.const$/.test(op)) {
        s.stack.push(op === 'i32.const' ? { t: false, fp: null, c: Number(imm) } : CLEAN);
        continue;
      }
      if (op === 'select') {
        const [a, b, c] = pop(s, 3);
        if (c.t) flag('select', ins);
        s.stack.push(tv(a.t || b.t || c.t));
        continue;
      }
      if (LOAD.test(op) || LOAD_LANE.test(op)) {
        const operands = pop(s, LOAD_LANE.test(op) ? 2 : 1);
        const addr = operands[0];
        if (addr.t) flag('load address', ins);
        const offset = Number((/offset=(\d+)/.exec(imm) || [0, 0])[1]);
        let t = addr.t || operands.some((v) => v.t);
        if (addr.fp === null) t = t || s.heap;
        else if (addr.fp === '?') t = t || s.frameAny || s.frame.size > 0;
        else {
          t = t || s.frameAny;
          for (let k = 0; k < accessBytes(op); k++) t = t || s.frame.has(addr.fp + offset + k);
        }
        s.stack.push(tv(t));
        continue;
      }
      if (STORE.test(op) || STORE_LANE.test(op)) {
        const [addr, value] = pop(s, 2);
        if (addr.t) flag('store address', ins);
        const t = addr.t || value.t;
        const offset = Number((/offset=(\d+)/.exec(imm) || [0, 0])[1]);
        if (addr.fp === null) s.heap = s.heap || t;
        else if (addr.fp === '?') s.frameAny = s.frameAny || t;
        else
          for (let k = 0; k < accessBytes(op); k++) {
            if (t) s.frame.add(addr.fp + offset + k);
            else s.frame.delete(addr.fp + offset + k); // an exact slot overwritten
          }
        continue;
      }
      if (op === 'call' || op === 'call_indirect') {
        let sig;
        if (op === 'call') sig = module.byRef(imm.split(/\s+/)[0]).sig;
        else sig = module.types[Number(/\(type (\d+)\)/.exec(imm)[1])];
        if (op === 'call_indirect') {
          const [index] = pop(s, 1);
          if (index.t) flag('call_indirect', ins);
        }
        const args = pop(s, sig.params.length);
        // A callee is not followed: it may read and write any memory it is given.
        const t = args.some((v) => v.t) || s.heap || s.frameAny || s.frame.size > 0;
        if (t) s.heap = true;
        for (let k = 0; k < sig.results.length; k++) s.stack.push(tv(t));
        continue;
      }
      if (op === 'memory.size') {
        s.stack.push(CLEAN);
        continue;
      }
      if (op === 'memory.grow') {
        pop(s, 1);
        s.stack.push(CLEAN);
        continue;
      }
      if (op === 'memory.fill' || op === 'memory.copy') {
        const [dst, x, n] = pop(s, 3);
        if (dst.t || n.t || (op === 'memory.copy' && x.t)) flag(`${op} address`, ins);
        if (x.t || (op === 'memory.copy' && (s.heap || s.frame.size > 0 || s.frameAny))) {
          s.heap = true;
          s.frameAny = true;
        }
        continue;
      }
      // Numeric and SIMD operations: the result depends on every operand.
      const m = /^(i32|i64|f32|f64|v128|i8x16|i16x8|i32x4|i64x2|f32x4|f64x2)\.(\w+)$/.exec(op);
      if (!m) throw new Error(`wasm-taint: unknown instruction ${ins.text}`);
      const name = m[2];
      const arity = TERNARY.test(name) ? 3 : UNARY.test(name) ? 1 : BINARY_SIMD.test(name) ? 2 : 2;
      const operands = pop(s, arity);
      const t = operands.some((v) => v.t);
      const [a, b] = operands;
      let out = tv(t);
      if (!t && op === 'i32.sub' && a.fp !== null && a.fp !== '?' && b.c !== null) out = { t: false, fp: a.fp - b.c, c: null };
      else if (!t && op === 'i32.add' && a.fp !== null && a.fp !== '?' && b.c !== null) out = { t: false, fp: a.fp + b.c, c: null };
      else if (!t && op === 'i32.add' && b.fp !== null && b.fp !== '?' && a.c !== null) out = { t: false, fp: b.fp + a.c, c: null };
      else if (!t && (a?.fp != null || b?.fp != null)) out = { t: false, fp: '?', c: null };
      s.stack.push(out);
    }
    return s;
  }

  const locals = fn.locals.map((_, i) => (secretParams.includes(i) ? tv(true) : CLEAN));
  exec(tree, new State(locals), [{ kind: 'block', params: 0, results: resultsOf, height: 0, baseStack: [], incoming: null }]);
  return [...violations.values()];
}

/** wasm2wat's text of a module file (wabt, a Debian package that scripts/setup.sh installs). */
export function disassemble(wasmFile) {
  return execFileSync('wasm2wat', [wasmFile], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
}
