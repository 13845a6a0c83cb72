// `npm run demo`'s script (scripts/demo.sh, which execs web-demo/main.js): starts the relay, the
// demo agent and the page on free ports, answers on each, and stops all of them on SIGINT.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Resolves with the lines printed up to the one matching `re`; rejects if the process exits first. */
function waitForLine(child, re) {
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const onData = (d) => {
      out += d;
      if (re.test(out)) {
        child.stdout.off('data', onData);
        resolve(out);
      }
    };
    child.stdout.setEncoding('utf8').on('data', onData);
    child.stderr.setEncoding('utf8').on('data', (d) => (err += d));
    child.once('exit', (code) => reject(new Error(`demo exited (${code}) before printing its URL:\n${out}\n${err}`)));
  });
}

/** One REQ on the relay: the events it stores for `filter`, until EOSE. */
function req(url, filter) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    const events = [];
    ws.on('error', reject);
    ws.on('open', () => ws.send(JSON.stringify(['REQ', 'q', filter])));
    ws.on('message', (data) => {
      const msg = JSON.parse(data);
      if (msg[0] === 'EVENT') events.push(msg[2]);
      if (msg[0] === 'EOSE') {
        ws.close();
        resolve(events);
      }
    });
  });
}

const exited = (child) =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve({ code: child.exitCode, signal: child.signalCode })
    : new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));

function groupAlive(pgid) {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

test('npm run demo: relay, agent and page start, answer, and stop cleanly on Ctrl-C', { timeout: 60_000 }, async () => {
  const child = spawn('bash', ['scripts/demo.sh', '--port', '0', '--relay-port', '0', '--quiet'], {
    cwd: ROOT,
    env: { ...process.env, NOSTR_DEMO_SKIP_BUILD: '1', NOSTR_AGENTS_LLM_BASE_URL: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true, // its own process group, to check that nothing of it outlives it
  });
  try {
    const out = await waitForLine(child, /^Open (http:\/\/\S+)$/m);
    const pageUrl = /^Open (http:\/\/\S+)$/m.exec(out)[1];
    const relayUrl = /^relay\s+(ws:\/\/\S+)$/m.exec(out)[1];
    const npub = /^agent\s+(npub1[a-z0-9]+)/m.exec(out)[1];
    const page = new URL(pageUrl);
    assert.equal(page.searchParams.get('relay'), relayUrl, 'the page URL carries the relay');
    assert.equal(page.searchParams.get('agent'), npub, 'and the agent');

    const html = await fetch(pageUrl);
    assert.equal(html.status, 200);
    assert.match(html.headers.get('content-type'), /^text\/html/);
    assert.match(await html.text(), /<script type="module" src="app.js">/);
    const root = await fetch(`${page.origin}/?relay=x`, { redirect: 'manual' });
    assert.equal(root.status, 302);
    assert.equal(root.headers.get('location'), '/web-demo/?relay=x');
    const wasm = await fetch(`${page.origin}/dist/core.wasm`);
    assert.equal(wasm.headers.get('content-type'), 'application/wasm');
    assert.deepEqual([...new Uint8Array(await wasm.arrayBuffer()).subarray(0, 4)], [0, 0x61, 0x73, 0x6d]);
    const entry = await fetch(`${page.origin}/dist/index.browser.js`);
    assert.match(entry.headers.get('content-type'), /^text\/javascript/);
    for (const p of ['/package.json', '/web-demo/../package.json', '/node_modules/ws/package.json', '/%2e%2e/package.json'])
      assert.equal((await fetch(`${page.origin}${p}`)).status, 404, `${p} is not served`);

    // The agent's ai.info and Agent Card are on the relay.
    const infos = await req(relayUrl, { kinds: [31340, 11337] });
    assert.deepEqual(infos.map((e) => e.kind).sort(), [11337, 31340]);
    assert.equal(JSON.parse(infos.find((e) => e.kind === 31340).content).default_model, 'demo-1');

    child.kill('SIGINT');
    const { code, signal } = await exited(child);
    assert.equal(signal, null);
    assert.equal(code, 0);
    assert.equal(groupAlive(child.pid), false, 'no process of the demo is left');
    await assert.rejects(fetch(pageUrl), 'the page server is closed');
    await assert.rejects(req(relayUrl, { kinds: [1] }), 'the relay is closed');
  } finally {
    if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid, 'SIGKILL');
  }
});

test('behind a hosted page: the agent alone on given relays, its key kept in a file (same npub next time)', { timeout: 60_000 }, async () => {
  const { startDevRelay } = await import('../support/relays.js');
  const { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const path = await import('node:path');
  const relay = await startDevRelay({ memory: true });
  const dir = mkdtempSync(path.join(tmpdir(), 'demo-key-'));
  const keyFile = path.join(dir, 'agent.key');
  const run = async () => {
    const child = spawn(process.execPath, ['web-demo/main.js', '--relay', relay.url, '--no-page', '--key-file', keyFile, '--quiet'], {
      cwd: ROOT,
      env: { ...process.env, NOSTR_AGENTS_LLM_BASE_URL: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const out = await waitForLine(child, /^Serving as (npub1[a-z0-9]+)/m);
      assert.doesNotMatch(out, /^page /m, 'no page server');
      assert.match(out, new RegExp(`^relay\\s+${relay.url.replace(/[/.]/g, '\\$&')}$`, 'm'));
      return /^Serving as (npub1[a-z0-9]+)/m.exec(out)[1];
    } finally {
      child.kill('SIGINT');
      assert.equal((await exited(child)).code, 0);
    }
  };
  try {
    const npub = await run();
    assert.match(readFileSync(keyFile, 'utf8'), /^[0-9a-f]{64}\n$/);
    assert.equal(statSync(keyFile).mode & 0o777, 0o600);
    assert.equal(await run(), npub, 'the same key the second time');
    const { nip19 } = await import('nostr-agents');
    const infos = await req(relay.url, { kinds: [31340], authors: [nip19.decode(npub).data] });
    assert.equal(infos.length >= 1, true, "the agent's ai.info is on the given relay");
    // A file holding something else is refused, and the key is not echoed.
    writeFileSync(keyFile, 'not a key\n');
    const bad = spawn(process.execPath, ['web-demo/main.js', '--relay', relay.url, '--no-page', '--key-file', keyFile], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    bad.stderr.setEncoding('utf8').on('data', (d) => (err += d));
    assert.equal(await new Promise((resolve) => bad.once('close', resolve)), 1); // 'close': stderr read to its end
    assert.match(err, /neither a 64-hex secret key nor an nsec/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await relay.close();
  }
});
