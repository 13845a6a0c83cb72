// NIP-XX sessions and the local run store: prompt({store}) records the prompt, every applied
// event and the terminal; listSessions/listRuns read them back; resumeRun recovers a run after
// the client process died mid-run (a real child process over a FileRunStore), over a real dev
// relay with a real agent.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { nostr } from './helpers.js';
import { useNipxxRelay } from './nipxx-helpers.js';

const { LocalSigner, serveAgent, prompt, resumeRun, listSessions, listRuns, MemoryRunStore, FileRunStore, bytesToHex } = nostr;

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const INFO = { supported_models: ['m1'], default_model: 'm1', tool_names: [] };

/** A gate the agent's handler waits on, opened by the test. */
function gate() {
  let open;
  const opened = new Promise((r) => (open = r));
  return { opened, open };
}

// The client of the first life: prompts with a FileRunStore, waits for the first delta (stored),
// prints the run id and exits at once, leaving the run open at the agent.
const CHILD = `
import * as n from 'nostr-agents';
await n.init();
const { RELAY, AGENT, SK, DIR } = process.env;
const pool = new n.RelayPool({ relays: [RELAY] });
const signer = new n.LocalSigner(n.hexToBytes(SK));
const store = new n.FileRunStore(DIR);
const run = n.prompt({ pool, signer, store, agent: AGENT, message: 'count to three', session: 'session:counting' });
for await (const u of run) {
  if (u.type === 'delta') break;
}
await store.flush();
process.stdout.write(run.id + '\\n');
process.exit(0);
`;

function runChild(env) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', CHILD], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(out.trim()) : reject(new Error(`child exited ${code}: ${err}`))));
  });
}

describe('NIP-XX sessions and run stores', () => {
  const env = useNipxxRelay();
  const { newPool } = env;
  const dirs = [];
  const tempDir = () => {
    const d = mkdtempSync(path.join(tmpdir(), 'nostr-agents-runs-'));
    dirs.push(d);
    return d;
  };
  after(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  async function withAgent(handler, fn) {
    const agentSigner = LocalSigner.generate();
    const agent = await serveAgent({ signer: agentSigner, pool: newPool(), info: INFO, handler });
    try {
      await fn(agent);
    } finally {
      await agent.stop();
      agentSigner.dispose();
    }
  }

  it('prompt({store}) records the prompt, every applied event and the terminal; listSessions and listRuns read them', async () => {
    const store = new MemoryRunStore();
    const client = LocalSigner.generate();
    try {
      await withAgent(
        async function* () {
          yield { type: 'status', state: 'thinking', progress: 50 };
          yield 'Hello';
          yield ' there';
        },
        async (agent) => {
          const pool = newPool();
          const one = prompt({ pool, signer: client, store, agent: agent.pubkey, message: 'first question' });
          assert.equal((await one.result).text, 'Hello there');
          const two = prompt({ pool, signer: client, store, agent: agent.pubkey, message: 'second question' });
          await two.result;
          const other = prompt({ pool, signer: client, store, agent: agent.pubkey, message: 'elsewhere', session: 'session:other' });
          await other.result;

          const rec = await store.getRun(one.id);
          assert.equal(rec.message, 'first question');
          assert.equal(rec.session, `sender:${client.publicKey}`);
          assert.equal(rec.sessionTag, null);
          assert.equal(rec.state, 'done');
          assert.equal(typeof rec.terminal.createdAt, 'number');
          assert.deepEqual(rec.terminal, { ok: true, text: 'Hello there', eventId: (await one.result).eventId, createdAt: rec.terminal.createdAt });
          assert.equal(rec.prompt.id, one.id);
          assert.ok(nostr.verifyEvent(rec.prompt));
          // status, two deltas, the response: each with its decrypted content
          assert.deepEqual(rec.events.map((e) => e.event.kind), [25800, 25801, 25801, 25803]);
          assert.deepEqual(JSON.parse(rec.events[1].plaintext), { ver: 1, text: 'Hello', seq: 0 });

          const sessions = await listSessions(store);
          assert.equal(sessions.length, 2);
          const byId = Object.fromEntries(sessions.map((s) => [s.id, s]));
          const mine = byId[`sender:${client.publicKey}`];
          assert.equal(mine.runs, 2);
          assert.equal(mine.agent, agent.pubkey);
          assert.equal(mine.title, 'first question');
          assert.equal(mine.lastRun.message, 'second question');
          assert.equal(byId['session:other'].runs, 1);
          assert.deepEqual((await listRuns(store, mine)).map((r) => r.message), ['first question', 'second question']);
          assert.deepEqual((await listRuns(store, 'session:other')).map((r) => r.id), [other.id]);
          assert.deepEqual(await listSessions(store, { agent: client.publicKey }), []);

          // A finished run resumes from the store alone: same updates, same result, nothing sent.
          const again = await resumeRun({ pool, signer: client, store, id: one.id });
          const updates = [];
          for await (const u of again) updates.push(u.type);
          assert.deepEqual(updates, ['status', 'delta', 'delta', 'terminal']);
          assert.equal((await again.result).text, 'Hello there');
          assert.equal(again.message, 'first question');
        },
      );
    } finally {
      client.dispose();
    }
  });

  it('resumeRun rejects a missing run, a foreign signer and bad arguments', async () => {
    const store = new MemoryRunStore();
    const a = LocalSigner.generate();
    const b = LocalSigner.generate();
    const pool = newPool();
    try {
      await assert.rejects(resumeRun({ pool, signer: a, store, id: 'f'.repeat(64) }), { code: 'NOT_FOUND' });
      await assert.rejects(resumeRun({ pool, signer: a, store, id: 'nope' }), { code: 'INVALID_ARGUMENT' });
      await assert.rejects(resumeRun({ pool, signer: a, store: {}, id: 'f'.repeat(64) }), { code: 'INVALID_ARGUMENT' });
      assert.throws(() => prompt({ pool, signer: a, store: { putRun() {} }, agent: b.publicKey, message: 'x' }), { code: 'INVALID_ARGUMENT' });
      await store.putRun({ id: 'e'.repeat(64), agent: b.publicKey, client: a.publicKey, session: 's', message: 'm', created_at: 1, state: 'open', terminal: null });
      await assert.rejects(resumeRun({ pool, signer: b, store, id: 'e'.repeat(64) }), { code: 'INVALID_ARGUMENT' });
      await assert.rejects(store.appendEvent('d'.repeat(64), { event: {}, plaintext: '' }), { code: 'NOT_FOUND' });
      await assert.rejects(listRuns(store, ''), { code: 'INVALID_ARGUMENT' });
    } finally {
      a.dispose();
      b.dispose();
    }
  });

  it('a client process that dies mid-run recovers the run from its FileRunStore after a restart', { timeout: 60_000 }, async () => {
    const dir = tempDir();
    const sk = nostr.generateSecretKey();
    const release = gate();
    let started = 0;
    await withAgent(
      async function* (c) {
        started++;
        yield 'one, ';
        await release.opened;
        if (c.signal.aborted) return;
        yield 'two, ';
        yield 'three';
      },
      async (agent) => {
        // First life: a separate process, killed (exits) after the first delta.
        const runId = await runChild({ RELAY: env.relay.url, AGENT: agent.pubkey, SK: bytesToHex(sk), DIR: dir });
        assert.match(runId, /^[0-9a-f]{64}$/);
        assert.equal(agent.active, 1, 'the agent is still running the prompt');

        // The store on disk: one file, private, holding the open run and its first delta.
        assert.deepEqual(readdirSync(dir), ['runs.json']);
        assert.equal(statSync(path.join(dir, 'runs.json')).mode & 0o777, 0o600);
        const raw = JSON.parse(readFileSync(path.join(dir, 'runs.json'), 'utf8'));
        assert.equal(raw.runs[runId].record.state, 'open');

        // Second life: a fresh store over the same directory, a fresh pool and signer.
        const store = new FileRunStore(dir);
        const signer = new LocalSigner(sk);
        try {
          const sessions = await listSessions(store);
          assert.equal(sessions.length, 1);
          assert.equal(sessions[0].id, 'session:counting');
          assert.equal(sessions[0].title, 'count to three');
          const runs = await listRuns(store, sessions[0]);
          assert.deepEqual(runs.map((r) => [r.id, r.state]), [[runId, 'open']]);

          const run = await resumeRun({ pool: newPool(), signer, store, id: runId });
          assert.equal(await run.sent, true);
          assert.equal(run.session, 'session:counting');
          const texts = [];
          for await (const u of run) {
            if (u.type === 'delta') {
              texts.push(u.text);
              if (texts.length === 1) release.open(); // the replayed delta came first; now let the agent go on
            }
          }
          assert.deepEqual(texts, ['one, ', 'one, two, ', 'one, two, three']);
          assert.equal((await run.result).text, 'one, two, three');
          assert.equal(started, 1, 'the prompt was not sent again');

          // The terminal is on disk: a third life sees the run done.
          const third = new FileRunStore(dir);
          const rec = await third.getRun(runId);
          assert.equal(rec.state, 'done');
          assert.equal(rec.terminal.text, 'one, two, three');
          assert.deepEqual(rec.events.map((e) => e.event.kind), [25801, 25801, 25801, 25803]);
          assert.equal(statSync(path.join(dir, 'runs.json')).mode & 0o777, 0o600);
          assert.deepEqual(readdirSync(dir), ['runs.json'], 'no temporary file left');
        } finally {
          signer.dispose();
        }
      },
    );
  });

  it('a run without any answer ends RUN_INCOMPLETE after idleTimeout and stays open in the store, resumable', async () => {
    const store = new MemoryRunStore();
    const client = LocalSigner.generate();
    const nobody = LocalSigner.generate(); // no agent behind this key
    try {
      const pool = newPool();
      const run = prompt({ pool, signer: client, store, agent: nobody.publicKey, message: 'anyone?', idleTimeout: 1500 }); // long enough for the publish on a loaded machine
      assert.equal(await run.sent, true);
      await assert.rejects(run.result, { code: 'RUN_INCOMPLETE' });
      assert.equal((await store.getRun(run.id)).state, 'open');
      const again = await resumeRun({ pool, signer: client, store, id: run.id, idleTimeout: 500 });
      await assert.rejects(again.result, { code: 'RUN_INCOMPLETE' });
      assert.throws(() => prompt({ pool, signer: client, agent: nobody.publicKey, message: 'x', idleTimeout: -5 }), { code: 'INVALID_ARGUMENT' });
    } finally {
      client.dispose();
      nobody.dispose();
    }
  });

  it('FileRunStore: a corrupt file is a typed error, not a crash', async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'runs.json'), '{not json');
    await assert.rejects(new FileRunStore(dir).listRuns(), { code: 'STORE_CORRUPT' });
    writeFileSync(path.join(dir, 'runs.json'), '{"version":2,"runs":{}}');
    await assert.rejects(new FileRunStore(dir).listRuns(), { code: 'STORE_CORRUPT' });
    assert.throws(() => new FileRunStore(''), { code: 'INVALID_ARGUMENT' });
    assert.throws(() => new nostr.IndexedDbRunStore('x'), { code: 'NOT_SUPPORTED' });
  });
});
