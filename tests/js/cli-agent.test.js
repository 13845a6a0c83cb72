// The NIP-XX commands and doctor as users run them: `agent serve` + `ask` streaming, Ctrl-C
// sending ai.cancel, handler errors, peer text escaped, `info`, and `doctor` against a live and
// a dead relay. Real child processes against a real dev relay.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startDevRelay } from '../support/relays.js';
import { cli, cliEnv, jsonLines, startCli } from './cli-helpers.js';

describe('cli: NIP-XX agent serve, ask, info', () => {
  let relay;
  let ctx;
  const agents = [];
  const npubs = {};

  // Starts `agent serve` for a new profile; resolves its npub.
  async function serveAgentProfile(profile, args) {
    const made = await cli(['identity', 'new', '--profile', profile, '--json'], { env: ctx.env });
    assert.equal(made.code, 0, made.stderr);
    const npub = JSON.parse(made.stdout).npub;
    const proc = startCli(['agent', 'serve', '--profile', profile, ...args], { env: ctx.env });
    agents.push(proc);
    await proc.waitFor(/serving on/);
    npubs[profile] = { npub, proc };
    return { npub, proc };
  }

  function module(name, text) {
    const file = join(ctx.home, name);
    writeFileSync(file, text);
    return file;
  }

  before(async () => {
    relay = await startDevRelay();
    ctx = cliEnv(relay.url);
    assert.equal((await cli(['identity', 'new', '--profile', 'me'], { env: ctx.env })).code, 0);
  });
  after(async () => {
    for (const p of agents) await p.stop();
    ctx.cleanup();
    await relay.close();
  });

  it('agent serve --echo + ask: streams the answer, a status line and a usage line, exit 0', async () => {
    const { npub } = await serveAgentProfile('echo', ['--echo']);
    const r = await cli(['ask', npub, 'hello over nostr', '--profile', 'me'], { env: ctx.env });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'hello over nostr\n');
    assert.match(r.stderr, /· thinking/);
    assert.match(r.stderr, /usage: 3 input tokens, 3 output tokens/);
    const viaAgent = await cli(['agent', 'ask', npub, 'again', '--profile', 'me', '--session', 'S1'], { env: ctx.env });
    assert.equal(viaAgent.stdout, 'again\n');
    await npubs.echo.proc.waitFor(/session S1/);
    // --model reaches the agent: the echo agent lists no models, so it answers UNSUPPORTED_MODEL
    const model = await cli(['ask', npub, 'hi', '--profile', 'me', '--model', 'M-7', '--json'], { env: ctx.env });
    assert.equal(model.code, 6, model.stderr);
    assert.equal(jsonLines(model.stdout).at(-1).error.code, 'UNSUPPORTED_MODEL');
    assert.match(model.stderr, /model M-7 is not supported/);
  });

  it('ask --json: one JSON object per update, the last one the terminal', async () => {
    const { npub } = await serveAgentProfile('tools', ['--tools']);
    const r = await cli(['ask', npub, 'count these four words', '--profile', 'me', '--json'], { env: ctx.env });
    assert.equal(r.code, 0, r.stderr);
    const lines = jsonLines(r.stdout);
    const tools = lines.filter((l) => l.type === 'tool_call');
    assert.deepEqual(tools.map((t) => [t.name, t.phase]), [['word_count', 'start'], ['word_count', 'result']]);
    assert.deepEqual(tools[1].output, { count: 4 });
    const last = lines.at(-1);
    assert.equal(last.type, 'terminal');
    assert.equal(last.ok, true);
    assert.equal(last.text, 'Your message has 4 words.');
    const text = await cli(['ask', npub, 'two words', '--profile', 'me'], { env: ctx.env });
    assert.match(text.stderr, /⚙ tool word_count started/);
    assert.match(text.stderr, /⚙ tool word_count done/);
  });

  it('info prints ai.info; --json parses; an agent without one exits 7', async () => {
    const { npub } = npubs.tools;
    const r = await cli(['info', npub, '--json'], { env: ctx.env });
    assert.equal(r.code, 0, r.stderr);
    const j = JSON.parse(r.stdout);
    assert.equal(j.found, true);
    assert.deepEqual(j.info.tool_names, ['word_count']);
    const t = await cli(['agent', 'info', npub], { env: ctx.env });
    assert.match(t.stdout, /tools\s+word_count/);
    const me = JSON.parse((await cli(['identity', 'show', '--profile', 'me', '--json'], { env: ctx.env })).stdout).npub;
    const none = await cli(['info', me, '--json'], { env: ctx.env });
    assert.equal(none.code, 7);
    assert.equal(JSON.parse(none.stdout).found, false);
  });

  it('Ctrl-C during ask sends ai.cancel; the agent confirms; exit 130', async () => {
    const slow = module(
      'slow.mjs',
      `export default async function* ({ signal }) {
  signal.addEventListener('abort', () => process.stderr.write('handler saw abort: ' + (signal.reason && signal.reason.code) + '\\n'));
  while (!signal.aborted) { yield 'tick '; await new Promise((r) => setTimeout(r, 50)); }
}
`,
    );
    const { npub, proc: agent } = await serveAgentProfile('slow', ['--handler', slow]);
    const ask = startCli(['ask', npub, 'go on forever', '--profile', 'me'], { env: ctx.env });
    await ask.waitFor(/tick tick/, 'stdout');
    ask.signal('SIGINT');
    const r = await ask.done;
    assert.equal(r.code, 130, r.stderr);
    assert.match(r.stderr, /ai\.cancel sent/);
    assert.match(r.stderr, /cancelled \(the agent confirmed\)/);
    await agent.waitFor(/handler saw abort: CANCELLED/);
    await agent.waitFor(/cancelled by the client/);
  });

  it('handler errors surface as "handler failed" on the agent, INTERNAL_ERROR to the client (exit 6)', async () => {
    const bad = module('bad.mjs', `export default async function* () { yield 'partial '; throw new Error('api key sk-secret123 rejected'); }\n`);
    const { npub, proc: agent } = await serveAgentProfile('bad', ['--handler', bad]);
    const r = await cli(['ask', npub, 'hi', '--profile', 'me', '--json'], { env: ctx.env });
    assert.equal(r.code, 6, r.stderr);
    const last = jsonLines(r.stdout).at(-1);
    assert.equal(last.ok, false);
    assert.equal(last.error.code, 'INTERNAL_ERROR');
    assert.doesNotMatch(r.stdout + r.stderr, /sk-secret123/);
    await agent.waitFor(/handler failed: .*sk-secret123/);
  });

  it("escapes control characters in the agent's answer and tool names", async () => {
    const evil = module(
      'evil.mjs',
      `export const info = { tool_names: ['x\\u001b[31m'] };
export default async function* () {
  yield { type: 'tool_call', name: 'x\\u001b[31m', phase: 'start', arguments: { a: '\\u001b]0;t\\u0007' } };
  yield 'red\\u001b[31m text\\r\\u009b2J\\u202e done';
}
`,
    );
    const { npub } = await serveAgentProfile('evil', ['--handler', evil]);
    const r = await cli(['ask', npub, 'hi', '--profile', 'me'], { env: ctx.env });
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(r.stdout + r.stderr, /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202e]/);
    assert.match(r.stdout, /red\\x1b\[31m text\\r\\x9b2J\\u202e done/);
    assert.match(r.stderr, /tool x\\x1b\[31m started/);
    const j = await cli(['ask', npub, 'hi', '--profile', 'me', '--json'], { env: ctx.env });
    assert.doesNotMatch(j.stdout, /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202e]/);
    assert.equal(jsonLines(j.stdout).at(-1).text, 'red\x1b[31m text\r\u009b2J\u202e done');
  });

  it('bad arguments are usage errors (exit 2)', async () => {
    assert.equal((await cli(['agent', 'serve', '--profile', 'me'], { env: ctx.env })).code, 2, 'no handler chosen');
    assert.equal((await cli(['ask', 'not-a-key', 'hi'], { env: ctx.env })).code, 2);
    assert.equal((await cli(['ask', npubs.echo.npub, 'hi', '--thinking', 'lots'], { env: ctx.env })).code, 2);
    assert.equal((await cli(['nonsense'], { env: ctx.env })).code, 2);
  });
});

describe('cli: doctor', () => {
  let relay;
  let ctx;
  before(async () => {
    relay = await startDevRelay();
    ctx = cliEnv(relay.url);
    assert.equal((await cli(['identity', 'new'], { env: ctx.env })).code, 0);
  });
  after(async () => {
    ctx.cleanup();
    await relay.close();
  });

  it('passes against a live relay: permissions, identity, REQ/EOSE round trip, clock', async () => {
    const r = await cli(['doctor', '--json'], { env: ctx.env });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const report = JSON.parse(r.stdout);
    assert.equal(report.ok, true);
    const by = Object.fromEntries(report.checks.map((c) => [c.name, c]));
    assert.equal(by['key file'].status, 'ok');
    assert.equal(by.identity.status, 'ok');
    assert.equal(by[`relay ${relay.url}`].status, 'ok');
    assert.match(by[`relay ${relay.url}`].detail, /EOSE/);
    assert.equal(by[`clock vs ${relay.url}`].status, 'ok');
    assert.ok(Math.abs(by[`clock vs ${relay.url}`].skew) <= 2);
    const text = await cli(['doctor'], { env: ctx.env });
    assert.match(text.stdout, /all checks passed/);
  });

  it('fails with exit 8 against a dead relay', async () => {
    const dead = await startDevRelay();
    const url = dead.url;
    await dead.close();
    const r = await cli(['doctor', '--relay', url, '--json', '--timeout', '3'], { env: ctx.env });
    assert.equal(r.code, 8);
    const report = JSON.parse(r.stdout);
    assert.equal(report.ok, false);
    assert.equal(report.checks.find((c) => c.name === `relay ${url}`).status, 'fail');
    const text = await cli(['doctor', '--relay', url, '--timeout', '3'], { env: ctx.env });
    assert.equal(text.code, 8);
    assert.match(text.stdout, /FAIL {2}relay/);
  });
});

describe('cli: relay', () => {
  it('relay --db FILE --agx-policy keeps what agents sent across a restart; bad options exit 2', async () => {
    const ctx = cliEnv('');
    try {
      const db = join(ctx.home, 'relay.sqlite');
      const startRelayCli = async () => {
        const p = startCli(['relay', '--port', '0', '--db', db, '--agx-policy', '--json'], { env: ctx.env });
        await p.waitFor(/\n/, 'stdout');
        await p.waitFor(/agx policy on/);
        assert.match(p.stderr, /storage: SQLite /);
        return { proc: p, url: JSON.parse(p.stdout.split('\n')[0]).url };
      };
      const first = await startRelayCli();
      const made = JSON.parse((await cli(['identity', 'new', '--profile', 'p', '--json'], { env: ctx.env })).stdout);
      const sent = await cli(['send', made.npub, 'kept in sqlite', '--profile', 'p', '--relay', first.url], { env: ctx.env });
      assert.equal(sent.code, 0, sent.stderr);
      assert.equal((await first.proc.stop()).code, 0);
      const second = await startRelayCli();
      try {
        const got = await cli(['serve', '--profile', 'p', '--once', '--no-reply', '--json', '--relay', second.url], { env: ctx.env });
        assert.equal(got.code, 0, got.stderr);
        assert.equal(jsonLines(got.stdout).find((l) => l.type === 'message').text, 'kept in sqlite');
      } finally {
        await second.proc.stop();
      }
      assert.equal((await cli(['relay', '--port', 'many'], { env: ctx.env })).code, 2);
      assert.equal((await cli(['relay', '--bogus'], { env: ctx.env })).code, 2);
    } finally {
      ctx.cleanup();
    }
  });

  it('relay --json prints its URL as JSON, serves doctor, and stops on Ctrl-C with exit 0', async () => {
    const ctx = cliEnv('');
    try {
      assert.equal((await cli(['identity', 'new'], { env: ctx.env })).code, 0);
      const relay = startCli(['relay', '--port', '0', '--memory', '--json'], { env: ctx.env });
      await relay.waitFor(/\n/, 'stdout');
      const ready = JSON.parse(relay.stdout.split('\n')[0]);
      assert.equal(ready.type, 'ready');
      assert.match(ready.url, /^ws:\/\/127\.0\.0\.1:\d+$/);
      const doc = await cli(['doctor', '--relay', ready.url], { env: ctx.env });
      assert.equal(doc.code, 0, doc.stdout);
      const r = await relay.stop();
      assert.equal(r.code, 0);
    } finally {
      ctx.cleanup();
    }
  });
});
