// docs/API.md is generated from the declarations (scripts/api-docs.mjs, `npm run docs`): it must
// be up to date, and it must document exactly what the package exports at run time.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const API_MD = join(ROOT, 'docs', 'API.md');
const VALUE_KINDS = new Set(['function', 'class', 'const', 'enum', 'namespace']);

/**
 * What docs/API.md documents, read back from the Markdown: module -> namespace ('' for the module
 * itself) -> Map(name -> kind). The kind is the first word of the item's declaration block.
 */
function documented(markdown) {
  const modules = new Map();
  let mod = null;
  let inExports = false;
  let pending = null; // an item heading waiting for its code block
  let inCode = false;
  const add = (ns, name, kind) => {
    if (!mod.has(ns)) mod.set(ns, new Map());
    assert.ok(!mod.get(ns).has(name), `documented twice: ${ns ? ns + '.' : ''}${name}`);
    mod.get(ns).set(name, kind);
  };
  for (const line of markdown.split('\n')) {
    if (pending && !inCode && line !== '' && line !== '```ts') assert.fail(`no declaration block right under #### ${pending}`);
    if (line.startsWith('```')) {
      if (!inCode && line === '```ts' && pending) {
        inCode = 'first';
        continue;
      }
      inCode = false;
      continue;
    }
    if (inCode === 'first') {
      const kind = line.replace(/^(abstract|async)\s+/, '').split(/[\s<(]/)[0];
      const dot = pending.lastIndexOf('.');
      add(dot < 0 ? '' : pending.slice(0, dot), dot < 0 ? pending : pending.slice(dot + 1), kind);
      pending = null;
      inCode = true;
      continue;
    }
    if (inCode) continue;
    let m;
    if ((m = /^## (nostr-agents\S*)$/.exec(line))) {
      mod = new Map([['', new Map()]]);
      modules.set(m[1], mod);
      inExports = false;
    } else if (mod && (m = /^### namespace (\S+)$/.exec(line))) {
      add('', m[1], 'namespace');
      mod.set(m[1], new Map());
      inExports = false;
    } else if (mod && line === '### Exports') {
      inExports = true;
    } else if (mod && (m = /^#### (\S+)$/.exec(line))) {
      assert.equal(pending, null, `no declaration block under ${pending}`);
      pending = m[1];
    } else if (mod && inExports && (m = /^- \[?`([^`]+)`/.exec(line))) {
      add('', m[1], 're-export');
    }
  }
  assert.equal(pending, null, `no declaration block under ${pending}`);
  return modules;
}

// Run-time exports that are not API: package internals that `export * as ns` exposes. Each entry
// says why; remove it once the module stops exporting the name.
const INTERNAL = {};
// Documented methods that are not on the prototype because the constructor assigns them.
const PER_INSTANCE = {
  // db.transaction(...) wrappers, bound per database.
  'nostr-agents/relay-server SqliteStore': ['put', 'applyDeletion'],
};

const runtimeNames = (object) => Object.keys(object).sort();

function compare(where, runtime, docs, kindOf = (name) => docs.get(name)) {
  const values = [...docs.keys()].filter((name) => VALUE_KINDS.has(kindOf(name))).sort();
  const internal = INTERNAL[where] ?? [];
  const undocumented = runtime.filter((name) => !docs.has(name) && !internal.includes(name));
  const missing = values.filter((name) => !runtime.includes(name));
  assert.deepEqual(
    { undocumented, documentedButNotExported: missing },
    { undocumented: [], documentedButNotExported: [] },
    `${where}: exports and docs/API.md disagree`,
  );
}

test('docs/API.md is what `npm run docs` generates from js/*.d.ts', () => {
  const dir = mkdtempSync(join(tmpdir(), 'api-docs-test-'));
  try {
    const out = join(dir, 'API.md');
    execFileSync(process.execPath, [join(ROOT, 'scripts', 'api-docs.mjs'), '--out', out], { cwd: ROOT, stdio: 'pipe' });
    const fresh = readFileSync(out, 'utf8');
    const committed = readFileSync(API_MD, 'utf8');
    if (fresh !== committed) {
      const a = committed.split('\n'), b = fresh.split('\n');
      const i = a.findIndex((line, k) => line !== b[k]);
      assert.fail(`docs/API.md is stale (first difference at line ${i + 1}: ${JSON.stringify(a[i])} vs ${JSON.stringify(b[i])}); run npm run docs`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('every run-time export of nostr-agents and of its namespaces is documented, and nothing else', async () => {
  const docs = documented(readFileSync(API_MD, 'utf8')).get('nostr-agents');
  assert.ok(docs, 'docs/API.md has a "## nostr-agents" section');
  const pkg = await import('nostr-agents');
  compare('nostr-agents', runtimeNames(pkg), docs.get(''));
  const namespaces = [...docs.get('')].filter(([, kind]) => kind === 'namespace').map(([name]) => name);
  assert.ok(namespaces.length >= 7, `namespaces documented: ${namespaces}`);
  for (const ns of namespaces) {
    assert.equal(typeof pkg[ns], 'object', `nostr-agents exports the namespace ${ns}`);
    compare(`nostr-agents ${ns}`, runtimeNames(pkg[ns]), docs.get(ns) ?? new Map());
  }
});

test('nostr-agents/lite and nostr-agents/relay-server are documented export for export', async () => {
  const all = documented(readFileSync(API_MD, 'utf8'));
  const main = all.get('nostr-agents').get('');
  const lite = all.get('nostr-agents/lite')?.get('');
  assert.ok(lite && lite.size > 0, 'docs/API.md lists the exports of nostr-agents/lite');
  for (const name of lite.keys()) assert.ok(main.has(name), `lite re-exports ${name}, documented in the main entry`);
  compare('nostr-agents/lite', runtimeNames(await import('nostr-agents/lite')), lite, (name) => main.get(name));
  const server = all.get('nostr-agents/relay-server')?.get('');
  assert.ok(server && server.size > 0, 'docs/API.md documents nostr-agents/relay-server');
  compare('nostr-agents/relay-server', runtimeNames(await import('nostr-agents/relay-server')), server);
});

test('the checker finds a wrong declaration: the comparison fails on a missing or extra export', () => {
  // The comparison itself, on a made-up module, so a broken parser cannot pass silently.
  const docs = documented('## nostr-agents\n\n#### a\n\n```ts\nfunction a(): void;\n```\n\n#### T\n\n```ts\ninterface T {}\n```\n').get('nostr-agents').get('');
  assert.deepEqual([...docs], [['a', 'function'], ['T', 'interface']]);
  compare('ok', ['a'], docs);
  assert.throws(() => compare('extra', ['a', 'b'], docs), /undocumented/);
  assert.throws(() => compare('missing', [], docs), /documentedButNotExported/);
});

test('public methods of the documented classes exist at run time, and the run-time ones are documented', async () => {
  const { collect } = await import('../../scripts/api-docs.mjs');
  const modules = collect();
  const classes = []; // [where, runtime class, documented item]
  const problems = [];
  for (const mod of modules) {
    if (mod.reexportsOf) continue;
    const runtime = await import(mod.module);
    const items = [
      ...mod.groups.flatMap((g) => g.items.map((item) => [runtime[item.name], item])),
      ...mod.namespaces.flatMap((ns) => ns.items.map((item) => [ns.name.split('.').reduce((o, k) => o?.[k], runtime)?.[item.name.slice(ns.name.length + 1)], item])),
    ];
    for (const [cls, item] of items) {
      if (item.kind !== 'class') continue;
      if (typeof cls !== 'function') problems.push(`${mod.module} ${item.name}: not a class at run time`);
      else classes.push([`${mod.module} ${item.name}`, cls, item]);
    }
  }
  assert.ok(classes.length >= 20, `classes checked: ${classes.length}`);
  // A member is documented on the class or on what it extends or implements, by its declaration
  // (`class FileSeenStore extends MemorySeenStore`) or at run time.
  const documentedOf = new Map(classes.map(([, cls, item]) => [cls, item]));
  const byName = new Map();
  for (const mod of modules) {
    for (const item of [...mod.groups.flatMap((g) => g.items), ...mod.namespaces.flatMap((ns) => ns.items)]) {
      byName.set(`${mod.module} ${item.name}`, item);
    }
  }
  const heritage = (where, item) => {
    const head = item.code.split('{')[0];
    const names = [...head.matchAll(/\b(?:extends|implements)\s+([\w.,\s]+?)(?=\s+(?:extends|implements)\b|$)/g)]
      .flatMap((m) => m[1].split(',').map((n) => n.trim()).filter(Boolean));
    const [module, full] = where.split(' ');
    const ns = full.includes('.') ? full.slice(0, full.lastIndexOf('.') + 1) : '';
    return names.map((n) => [`${module} ${ns}${n}`, byName.get(`${module} ${ns}${n}`)]).filter(([, it]) => it);
  };
  const declared = (where, cls, isStatic) => {
    const names = new Set();
    const seen = new Set();
    const visit = (w, item) => {
      if (!item || seen.has(item)) return;
      seen.add(item);
      for (const m of item.members) if (m.static === isStatic && m.kind !== 'constructor') names.add(m.name);
      for (const [w2, it] of heritage(w, item)) visit(w2, it);
    };
    visit(where, documentedOf.get(cls));
    for (let c = Object.getPrototypeOf(cls); c && c !== Function.prototype; c = Object.getPrototypeOf(c)) {
      const entry = classes.find(([, k]) => k === c);
      if (entry) visit(entry[0], entry[2]);
    }
    return names;
  };
  const key = (name) => {
    const m = /^\[Symbol\.(\w+)\]$/.exec(name);
    return m ? Symbol[m[1]] : name;
  };
  for (const [where, cls, item] of classes) {
    for (const isStatic of [false, true]) {
      const names = declared(where, cls, isStatic);
      const target = isStatic ? cls : cls.prototype;
      const at = `${where}${isStatic ? ' (static)' : ''}`;
      for (const name of Object.getOwnPropertyNames(target)) {
        if (name.startsWith('_') || ['constructor', 'length', 'name', 'prototype'].includes(name)) continue;
        const desc = Object.getOwnPropertyDescriptor(target, name);
        if (typeof desc.value !== 'function' && !desc.get && !desc.set) continue;
        if (!names.has(name)) problems.push(`${at}: ${name} exists but is not documented`);
      }
      const perInstance = PER_INSTANCE[where] ?? [];
      for (const member of item.members) {
        if (member.static !== isStatic || member.kind !== 'method' || perInstance.includes(member.name)) continue;
        if (!(key(member.name) in target)) problems.push(`${at}: documented method ${member.name} does not exist`);
      }
    }
  }
  assert.deepEqual(problems, []);
});

test('every export has a doc comment in its declaration', async () => {
  const { collect, undocumented } = await import('../../scripts/api-docs.mjs');
  assert.deepEqual(undocumented(collect()), [], 'add a /** ... */ comment above each of these in js/*.d.ts, then npm run docs');
});
