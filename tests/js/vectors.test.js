// tests/vectors: every file has its source and licence in the folder's README, and the files that
// can prove where they come from do: the NIP-44 vectors by the sum NIP-44 publishes, the NIP-XX
// draft by the signed Nostr event whose content it is.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import * as tools from 'nostr-tools/pure';
import { vectorsDir } from './helpers.js';

const read = (name) => readFileSync(new URL(name, vectorsDir));

test('every file in tests/vectors has a row in its README naming source and licence', () => {
  const readme = read('README.md').toString('utf8');
  const header = readme.split('\n').find((l) => l.startsWith('| file |'));
  assert.ok(header, 'the README has no table');
  const columns = header.split('|').map((c) => c.trim());
  const rows = new Map();
  for (const line of readme.split('\n').filter((l) => /^\| `[^`]+` \|/.test(l))) {
    const cells = line.split(' | ').map((c) => c.replace(/^\| |\s*\|$/g, '').trim());
    rows.set(cells[0].replace(/`/g, ''), Object.fromEntries(columns.slice(1).map((c, i) => [c, cells[i]])));
  }
  const files = readdirSync(vectorsDir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name !== 'README.md')
    .map((e) => e.name);
  assert.ok(files.length >= 7, `only ${files.length} files`);
  for (const f of files) {
    const row = rows.get(f);
    assert.ok(row, `tests/vectors/${f} has no row in tests/vectors/README.md`);
    for (const col of ['source repo', 'commit', 'licence']) assert.ok(row[col] && row[col].length > 2, `${f}: no ${col}`);
  }
  for (const name of rows.keys()) assert.ok(files.includes(name), `README row for ${name}, which is not in tests/vectors`);
});

test('nip44.vectors.json is the file whose sha256 NIP-44 publishes', () => {
  const sum = createHash('sha256').update(read('nip44.vectors.json')).digest('hex');
  assert.equal(sum, '269ed0f69e4c192512cc779e78c555090cebc7c785b609e338a62afc3ce25040');
});

test('the NIP-XX draft is byte for byte the content of its signed kind 30817 event', () => {
  const event = JSON.parse(read('nip-xx-ai-agent-messages.event.json').toString('utf8'));
  const content = read('nip-xx-ai-agent-messages.md').toString('utf8');
  const full = { ...event, content };
  assert.equal(event.kind, 30817);
  assert.equal(tools.getEventHash(full), event.id, 'the .md is not the content the event id commits to');
  assert.equal(tools.verifyEvent(full), true, 'the event signature does not verify');
  // And the check can fail: one byte more is another event.
  assert.notEqual(tools.getEventHash({ ...full, content: `${content} ` }), event.id);
});
