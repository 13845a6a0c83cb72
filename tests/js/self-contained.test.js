// A clone of the repository alone builds and passes its tests: no test, script, build file,
// example or package module reads a path outside the repository (a folder beside it, an absolute
// path next to it). tests/support/outside-reads.js resolves each file's path literals.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { findOutsideReads, outsidePaths, repoFiles } from '../support/outside-reads.js';
import { repoRoot } from '../support/package.js';

const root = repoRoot.replace(/\/$/, '');

test('no test, script or build file of the repository reads outside it', () => {
  const files = repoFiles(root).map((f) => f.rel);
  // The scan covers what it must: the test helpers, the build, the scripts, CI.
  for (const f of ['CMakeLists.txt', 'tests/js/helpers.js', 'tests/support/secrets-check.mjs', 'tests/fuzz/seed.mjs', 'scripts/test.sh', '.ci/run', 'package.json'])
    assert.ok(files.includes(f), `${f} is not scanned`);
  const problems = findOutsideReads(root);
  assert.deepEqual(
    problems.map((p) => `${p.file}:${p.line}: ${p.path} -> ${p.resolved}`),
    [],
    'paths outside the repository (third-party data belongs in tests/vectors, with its source in the README there)',
  );
});

test('the scan finds each way a file can point outside the repository', () => {
  // Built from parts, so that this file's own text holds no such path.
  const q = "'";
  const shared = ['shared', 'vectors'].join('/');
  const parent = root.slice(0, root.lastIndexOf('/'));
  const leaves = (rel, kind, text) => outsidePaths(root, rel, kind, text).length > 0;
  // What the tests read before the vectors moved in.
  assert.ok(leaves('tests/js/helpers.js', 'js', `new URL(${q}../../../${shared}/${q}, import.meta.url)`));
  assert.ok(leaves('tests/js/x.test.js', 'js', `readFileSync(new URL(${q}../../../other/seed.md${q}, import.meta.url))`));
  assert.ok(leaves('tests/fuzz/seed.mjs', 'js', `const dir = join(root, ${q}..${q}, ${q}other${q});`));
  assert.ok(leaves('tests/x.js', 'js', `readFileSync(${q}${parent}/other/file.json${q})`));
  assert.ok(leaves('CMakeLists.txt', 'cmake', 'NOSTR_VECTORS_DIR="${CMAKE_SOURCE_DIR}/../other"'));
  assert.ok(leaves('cmake/x.cmake', 'cmake', '${CMAKE_CURRENT_LIST_DIR}/../../other'));
  assert.ok(leaves('tests/native/x.cpp', 'c', '#include \x22../../../other.h\x22'));
  assert.ok(leaves('scripts/x.sh', 'sh', 'cat ../other/file'));
  assert.ok(leaves('scripts/x.sh', 'sh', 'cd "$(dirname "$0")/../.."'));
  // And paths that stay inside pass.
  assert.ok(!leaves('tests/js/x.test.js', 'js', `new URL(${q}../vectors/${q}, import.meta.url); import ${q}../../js/core.js${q};`));
  assert.ok(!leaves('tests/fuzz/seed.mjs', 'js', `join(root, ${q}tests${q}, ${q}vectors${q})`));
  assert.ok(!leaves('scripts/x.sh', 'sh', 'cd "$(dirname "$0")/.."  # usage: x [target...]'));
  assert.ok(!leaves('CMakeLists.txt', 'cmake', 'NOSTR_VECTORS_DIR="${CMAKE_SOURCE_DIR}/tests/vectors"'));
});
