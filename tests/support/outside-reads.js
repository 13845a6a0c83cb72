// Finds paths in the repository's own files (tests, scripts, build files, examples, the package)
// that point outside the repository: a clone of it alone must build and pass its tests, so nothing
// may read a folder beside it (like the vectors folder beside it the tests once read). Static: it
// resolves the path literals each kind of file uses against the base that file resolves them from.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

// Folders that are not ours (third_party, node_modules), built (build, dist) or data (tests/vectors).
const SKIP_DIRS = new Set(['.git', 'node_modules', 'third_party', 'build', 'dist', 'vectors']);
const KINDS = [
  [/\.(m?js|cjs|ts|html)$/, 'js'],
  [/(^|\/)(CMakeLists\.txt|[^/]+\.cmake)$/, 'cmake'],
  [/\.(c|cc|cpp|h|hpp)$/, 'c'],
  [/(\.sh|(^|\/)\.ci\/run)$/, 'sh'],
  [/(^|\/)package\.json$/, 'js'],
];

/** The repository files to check (relative paths), with their kind. */
export function repoFiles(root) {
  const out = [];
  const walk = (dir) => {
    for (const ent of readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = dir ? `${dir}/${ent.name}` : ent.name;
      if (ent.isDirectory()) {
        if (!SKIP_DIRS.has(ent.name)) walk(rel);
      } else {
        const kind = KINDS.find(([re]) => re.test(rel))?.[1];
        if (kind) out.push({ rel, kind });
      }
    }
  };
  walk('');
  return out;
}

const inside = (root, abs) => {
  const r = path.relative(root, abs);
  return r === '' || (!r.startsWith('..') && !path.isAbsolute(r));
};

/**
 * Problems in one file's text: `{ file, line, path, resolved }` for each path that leaves `root`.
 * `rel` is the file's path inside the repository, `kind` one of js, cmake, c, sh.
 */
export function outsidePaths(root, rel, kind, text) {
  const fileDir = path.join(root, path.dirname(rel));
  const problems = [];
  const lineOf = (index) => text.slice(0, index).split('\n').length;
  const check = (base, p, index) => {
    const resolved = path.resolve(base, p);
    if (!inside(root, resolved)) problems.push({ file: rel, line: lineOf(index), path: p, resolved });
  };
  // Absolute paths beside the repository (its parent folder), and the old shared folder by name.
  const parent = path.dirname(root);
  for (const m of text.matchAll(/['"`]((?:\/[\w.@+-]+)+\/?)/g)) {
    if (m[1].startsWith(`${parent}/`) && !inside(root, m[1])) check(root, m[1], m.index);
  }
  for (const m of text.matchAll(/['"`][^'"`\n]*\bshared\/(vectors|seeds)\b/g)) problems.push({ file: rel, line: lineOf(m.index), path: m[0], resolved: '(the folder beside the repository)' });

  if (kind === 'js') {
    // Relative string literals: module specifiers, `new URL(..., import.meta.url)`, fetch paths.
    for (const m of text.matchAll(/['"`](\.\.?\/[^'"`$\s]*)/g)) check(fileDir, m[1], m.index);
    // path.join / path.resolve with '..' segments from the repository root or the file's folder.
    for (const m of text.matchAll(/\b(?:join|resolve)\(\s*([\w.]+|dirname\(fileURLToPath\(import\.meta\.url\)\))\s*,([^()]*)\)/g)) {
      const args = [...m[2].matchAll(/['"]([^'"]*)['"]|([^,\s]+)/g)];
      if (args.some((a) => a[2] !== undefined)) continue; // not only literals: cannot tell
      const segs = args.map((a) => a[1]);
      if (!segs.some((s) => s.split('/').includes('..'))) continue;
      const base = /^(root|ROOT|repoRoot|REPO_ROOT|repo)$/.test(m[1]) ? root : /^(__dirname|here|HERE|dirname\(.*\))$/.test(m[1]) ? fileDir : null;
      if (base) check(base, path.join(...segs), m.index);
    }
  } else if (kind === 'cmake') {
    for (const m of text.matchAll(/\$\{(CMAKE_SOURCE_DIR|PROJECT_SOURCE_DIR|CMAKE_CURRENT_SOURCE_DIR|CMAKE_CURRENT_LIST_DIR)\}([^\s"')]*)/g)) {
      const base = m[1].startsWith('CMAKE_CURRENT') ? fileDir : root;
      check(base, `.${m[2]}`, m.index);
    }
  } else if (kind === 'c') {
    for (const m of text.matchAll(/#\s*include\s*"([^"]+)"/g)) if (m[1].includes('..')) check(fileDir, m[1], m.index);
  } else if (kind === 'sh') {
    // Scripts cd to the repository root first; "$(dirname "$0")" is the script's folder.
    for (const m of text.matchAll(/(\$\(dirname "?\$0"?\))?((?:\/|(?<![\w.\/]))\.\.(?![\w.])(?:\/[\w.-]*)*)/g)) {
      check(m[1] ? fileDir : root, m[1] ? `.${m[2].startsWith('/') ? '' : '/'}${m[2]}` : m[2], m.index);
    }
  }
  return problems;
}

/** Every path in the repository's files that leaves it. */
export function findOutsideReads(root) {
  return repoFiles(root).flatMap(({ rel, kind }) => outsidePaths(root, rel, kind, readFileSync(path.join(root, rel), 'utf8')));
}
