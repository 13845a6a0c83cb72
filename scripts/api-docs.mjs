#!/usr/bin/env node
// Generates docs/API.md from the TypeScript declarations (js/*.d.ts) with the compiler's API
// (`typescript/unstable/sync`: the TypeScript 7 checker resolves each entry point's exports, the
// `export *` and `export * as ns` chains included). Every export gets its declaration as written
// (signatures, members and their doc comments) and its leading doc comment as prose, grouped by
// entry point, then by declaration file or namespace, in source order.
//
//   node scripts/api-docs.mjs [--out FILE]      (npm run docs)
//
// The output depends only on the declarations (no dates, no absolute paths), so
// tests/js/api-docs.test.js regenerates it and fails when docs/API.md is stale.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { API } from 'typescript/unstable/sync';
import { SyntaxKind } from 'typescript/unstable/ast';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The package's entry points with types, in the order the reference lists them. */
export const ENTRIES = [
  { module: 'nostr-agents', file: 'js/index.d.ts' },
  { module: 'nostr-agents/lite', file: 'js/lite.d.ts', reexportsOf: 'nostr-agents' },
  { module: 'nostr-agents/relay-server', file: 'js/relay-server.d.ts' },
];

// Section titles of the declaration files; a new file falls back to its name, after these.
const FILE_TITLES = {
  'js/index.d.ts': 'Events, keys and errors',
  'js/signer.d.ts': 'Signers',
  'js/relay.d.ts': 'Relay pool and frame codec',
  'js/agents.d.ts': 'NIP-XX agents and clients',
  'js/nip46.d.ts': 'NIP-46 remote signing',
  'js/relay-server.d.ts': 'Dev relay',
};

const SYMBOL_ALIAS = 2097152;
const SYMBOL_VALUE_MODULE = 512;

const KIND_NAMES = new Map([
  [SyntaxKind.FunctionDeclaration, 'function'],
  [SyntaxKind.ClassDeclaration, 'class'],
  [SyntaxKind.InterfaceDeclaration, 'interface'],
  [SyntaxKind.TypeAliasDeclaration, 'type'],
  [SyntaxKind.VariableDeclaration, 'const'],
  [SyntaxKind.EnumDeclaration, 'enum'],
  [SyntaxKind.ModuleDeclaration, 'namespace'],
]);
/** Kinds that exist at run time (the rest are types only). */
export const VALUE_KINDS = new Set(['function', 'class', 'const', 'enum', 'namespace']);

const MEMBER_KINDS = new Map([
  [SyntaxKind.Constructor, 'constructor'],
  [SyntaxKind.MethodDeclaration, 'method'],
  [SyntaxKind.MethodSignature, 'method'],
  [SyntaxKind.PropertyDeclaration, 'property'],
  [SyntaxKind.PropertySignature, 'property'],
  [SyntaxKind.GetAccessor, 'getter'],
  [SyntaxKind.SetAccessor, 'setter'],
  [SyntaxKind.CallSignature, 'call'],
  [SyntaxKind.ConstructSignature, 'new'],
  [SyntaxKind.IndexSignature, 'index'],
]);

const rel = (path) => relative(ROOT, path).split('\\').join('/');

/** The text of a `/** ... *\/` comment without its delimiters and leading asterisks. */
function jsDocText(raw) {
  const body = raw.replace(/^\/\*\*/, '').replace(/\*\/$/, '');
  const lines = body.split('\n').map((line) => (/^\s*\*/.test(line) ? line.replace(/^\s*\* ?/, '') : line.trimStart()).trimEnd());
  while (lines.length && lines[0].trim() === '') lines.shift();
  while (lines.length && lines.at(-1).trim() === '') lines.pop();
  return lines.join('\n');
}

function leadingDoc(node, sf) {
  // A `const`'s comment belongs to its statement.
  const docs = node.kind === SyntaxKind.VariableDeclaration ? node.jsDoc ?? node.parent?.parent?.jsDoc : node.jsDoc;
  if (!docs || docs.length === 0) return '';
  const last = docs[docs.length - 1];
  // The comment's own start: the node's range may begin with the file's leading `//` lines.
  return jsDocText(sf.text.slice(sf.text.lastIndexOf('/**', last.end - 2), last.end));
}

/** The `//` comment lines at the top of a file: the file's own description. */
function fileHeader(sf) {
  const out = [];
  for (const line of sf.text.split('\n')) {
    if (!line.startsWith('//')) break;
    out.push(line.replace(/^\/\/ ?/, ''));
  }
  return out.join(' ').trim();
}

/** Removes the indentation the declaration's first line had from every line. */
function dedent(text, column) {
  if (column === 0) return text;
  const pad = new RegExp(`^[ \\t]{0,${column}}`);
  return text.split('\n').map((line, i) => (i === 0 ? line : line.replace(pad, ''))).join('\n');
}

function declarationText(node, sf) {
  let target = node;
  if (node.kind === SyntaxKind.VariableDeclaration) target = node.parent.parent; // the VariableStatement
  const start = target.getStart(sf, false);
  const lineStart = sf.text.lastIndexOf('\n', start - 1) + 1;
  let text = dedent(sf.text.slice(start, target.end), start - lineStart);
  text = text.replace(/^export\s+(default\s+)?/, '').replace(/^declare\s+/, '');
  return text.trim();
}

function memberName(member, sf) {
  if (member.kind === SyntaxKind.Constructor) return 'constructor';
  if (!member.name) return MEMBER_KINDS.get(member.kind) ?? '?';
  return member.name.getText(sf);
}

function members(node, sf) {
  if (!node.members) return [];
  const out = [];
  for (const member of node.members) {
    const kind = MEMBER_KINDS.get(member.kind);
    if (!kind) continue;
    const modifiers = (member.modifiers ?? []).map((m) => m.getText(sf));
    if (modifiers.includes('private') || modifiers.includes('protected')) continue;
    out.push({
      name: memberName(member, sf),
      kind,
      static: modifiers.includes('static'),
      doc: leadingDoc(member, sf),
    });
  }
  return out;
}

/** Collects the documented model of every entry point. */
export function collect({ root = ROOT } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'api-docs-'));
  const api = new API({ cwd: root });
  try {
    const config = join(dir, 'tsconfig.json');
    writeFileSync(config, JSON.stringify({
      compilerOptions: {
        strict: true, noEmit: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022',
        types: ['node'], typeRoots: [join(root, 'node_modules', '@types')], skipLibCheck: true,
      },
      files: ENTRIES.map((e) => join(root, e.file)),
    }));
    const snapshot = api.updateSnapshot({ openProject: config });
    const project = snapshot.getProjects()[0];
    const { program, checker } = project;
    const sourceFiles = new Map();
    const sourceFile = (path) => {
      if (!sourceFiles.has(path)) sourceFiles.set(path, program.getSourceFile(path));
      return sourceFiles.get(path);
    };

    // One documented export: its declarations, as written, and their doc comments.
    const describe = (name, symbol) => {
      const decls = [];
      for (const handle of symbol.declarations) {
        const sf = sourceFile(handle.path);
        const node = handle.resolve(project);
        if (!node || !sf) continue;
        decls.push({ node, sf });
      }
      decls.sort((a, b) => (a.sf.fileName === b.sf.fileName ? a.node.pos - b.node.pos : a.sf.fileName < b.sf.fileName ? -1 : 1));
      const kinds = decls.map((d) => KIND_NAMES.get(d.node.kind) ?? 'declaration');
      const kind = kinds.find((k) => VALUE_KINDS.has(k)) ?? kinds[0] ?? 'declaration';
      const docs = [...new Set(decls.map((d) => leadingDoc(d.node, d.sf)).filter(Boolean))];
      return {
        name,
        kind,
        file: decls[0] ? rel(decls[0].sf.fileName) : '',
        pos: decls[0] ? decls[0].node.pos : 0,
        doc: docs.join('\n\n'),
        code: decls.map((d) => declarationText(d.node, d.sf)).join('\n'),
        members: decls.flatMap((d) => members(d.node, d.sf)),
      };
    };

    const exportsOf = (moduleSymbol, prefix) => {
      const items = [];
      const namespaces = [];
      for (const exported of checker.getExportsOfModule(moduleSymbol)) {
        let symbol = exported;
        if (symbol.flags & SYMBOL_ALIAS) symbol = checker.getAliasedSymbol(symbol);
        const name = prefix + exported.name;
        if (symbol.flags & SYMBOL_VALUE_MODULE && symbol.declarations.some((d) => d.kind === SyntaxKind.SourceFile)) {
          const file = symbol.declarations.find((d) => d.kind === SyntaxKind.SourceFile).path;
          const sf = sourceFile(file);
          const inner = exportsOf(symbol, `${name}.`);
          namespaces.push({ name, file: rel(sf.fileName), intro: fileHeader(sf), ...inner });
        } else {
          items.push(describe(name, symbol));
        }
      }
      items.sort((a, b) => (a.file === b.file ? a.pos - b.pos : 0));
      return { items, namespaces: namespaces.flatMap((ns) => [ns, ...ns.namespaces]) };
    };

    const modules = [];
    for (const entry of ENTRIES) {
      const sf = sourceFile(join(root, entry.file));
      const moduleSymbol = checker.getSymbolAtLocation(sf);
      const { items, namespaces } = exportsOf(moduleSymbol, '');
      // Groups: one per declaration file, in the order of FILE_TITLES, then the rest by name.
      const order = Object.keys(FILE_TITLES);
      const files = [...new Set(items.map((i) => i.file))].sort((a, b) => {
        const ia = order.indexOf(a), ib = order.indexOf(b);
        if (ia !== ib) return (ia < 0 ? order.length : ia) - (ib < 0 ? order.length : ib);
        return a < b ? -1 : a > b ? 1 : 0;
      });
      const groups = files.map((file) => {
        const fsf = sourceFile(join(root, file));
        return {
          title: FILE_TITLES[file] ?? file, file, intro: fileHeader(fsf),
          items: items.filter((i) => i.file === file),
        };
      });
      for (const ns of namespaces) ns.items.sort((a, b) => (a.file === b.file ? a.pos - b.pos : a.file < b.file ? -1 : 1));
      modules.push({ ...entry, intro: fileHeader(sf), groups, namespaces: namespaces.map(({ namespaces: _n, ...ns }) => ns) });
    }
    return modules;
  } finally {
    api.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to dashes, -1, -2 for repeats. */
function slugger() {
  const seen = new Map();
  return (heading) => {
    const base = heading.toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').trim().replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    return n === 0 ? base : `${base}-${n}`;
  };
}

/** Doc text as Markdown prose: `<` outside code spans would start an HTML tag, so it is escaped. */
function prose(text) {
  return text.split('`').map((part, i) => (i % 2 ? part : part.replace(/</g, '&lt;'))).join('`');
}

function renderItem(item, out, heading) {
  // The declaration first: tests/js/api-docs.test.js reads an item's kind from the block right
  // under its heading (a doc comment may hold code blocks of its own).
  out.push(`#### ${heading}`, '');
  out.push('```ts', item.code, '```', '');
  if (item.doc) out.push(prose(item.doc), '');
}

/** The Markdown of the reference. */
export function render(modules) {
  const slug = slugger();
  const head = [];
  const body = [];
  const anchors = new Map(); // "module name" -> anchor, for cross-links from re-exporting entries

  head.push(
    '# API reference',
    '',
    '<!-- Generated by `npm run docs` (scripts/api-docs.mjs) from the TypeScript declarations in js/*.d.ts. Do not edit by hand: tests/js/api-docs.test.js fails when this file is stale. -->',
    '',
    'Every export of each entry point, with its declaration as written in `js/*.d.ts` (signatures,',
    'members and their doc comments) and its doc comment. `nostr-agents/single` has the same API as',
    '`nostr-agents` (it embeds the WASM). Errors are `NostrError` with a stable `code`; see',
    '[errors.md](errors.md).',
    '',
    '## Contents',
    '',
  );
  slug('API reference');
  slug('Contents');

  for (const mod of modules) {
    const modAnchor = slug(mod.module);
    head.push(`- [${mod.module}](#${modAnchor})`);
    body.push(`## ${mod.module}`, '');
    if (mod.intro && !mod.groups.some((g) => g.intro === mod.intro)) body.push(prose(mod.intro), '');
    if (mod.reexportsOf) {
      const exportsAnchor = slug('Exports');
      head.push(`  - [Exports](#${exportsAnchor})`);
      body.push('### Exports', '');
      body.push(`Re-exports these declarations of \`${mod.reexportsOf}\`:`, '');
      const names = [...mod.groups.flatMap((g) => g.items.map((i) => i.name)), ...mod.namespaces.map((n) => n.name)];
      for (const name of names) {
        const target = anchors.get(`${mod.reexportsOf} ${name}`);
        body.push(target ? `- [\`${name}\`](#${target})` : `- \`${name}\``);
      }
      body.push('');
      continue;
    }
    for (const group of mod.groups) {
      const groupAnchor = slug(group.title);
      body.push(`### ${group.title}`, '');
      body.push(`From \`${group.file}\`.${group.intro ? ' ' + prose(group.intro) : ''}`, '');
      const links = [];
      for (const item of group.items) {
        const heading = item.name;
        const anchor = slug(heading);
        anchors.set(`${mod.module} ${item.name}`, anchor);
        links.push(`[${item.name}](#${anchor})`);
        renderItem(item, body, heading);
      }
      head.push(`  - [${group.title}](#${groupAnchor}): ${links.join(', ')}`);
    }
    for (const ns of mod.namespaces) {
      const title = `namespace ${ns.name}`;
      const nsAnchor = slug(title);
      anchors.set(`${mod.module} ${ns.name}`, nsAnchor);
      body.push(`### ${title}`, '');
      body.push(`\`import { ${ns.name.split('.')[0]} } from '${mod.module}'\`, from \`${ns.file}\`.${ns.intro ? ' ' + prose(ns.intro) : ''}`, '');
      const links = [];
      for (const item of ns.items) {
        const anchor = slug(item.name);
        links.push(`[${item.name.slice(ns.name.length + 1)}](#${anchor})`);
        renderItem(item, body, item.name);
      }
      head.push(`  - [${title}](#${nsAnchor}): ${links.join(', ')}`);
    }
  }
  return [...head, '', ...body].join('\n').replace(/\n{3,}/g, '\n\n').trimEnd() + '\n';
}

/** Exported things without a doc comment (the generator warns about them). */
export function undocumented(modules) {
  const out = [];
  for (const mod of modules) {
    if (mod.reexportsOf) continue;
    for (const item of [...mod.groups.flatMap((g) => g.items), ...mod.namespaces.flatMap((n) => n.items)]) {
      if (!item.doc) out.push(`${mod.module} ${item.name} (${item.file})`);
    }
  }
  return out;
}

export function generate(out = join(ROOT, 'docs', 'API.md')) {
  const modules = collect();
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, render(modules));
  return modules;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const i = process.argv.indexOf('--out');
  const out = i > 0 ? resolve(process.argv[i + 1]) : join(ROOT, 'docs', 'API.md');
  const modules = generate(out);
  const missing = undocumented(modules);
  if (missing.length) process.stderr.write(`api-docs: ${missing.length} exports without a doc comment:\n  ${missing.join('\n  ')}\n`);
  process.stdout.write(`api-docs: wrote ${rel(out)}\n`);
}

