// The command line as users run it: `node js/cli.js ...` child processes against a real dev
// relay. Identity lifecycle and permissions, the AGX overview's quickstart step by step (allow,
// serve, request, send, serve --once --no-reply), the denied path, handler errors, --json, the
// Agent Card, and peer text sanitized before it reaches the terminal.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startDevRelay } from '../support/relays.js';
import { CLI, cli, cliEnv, jsonLines, startCli } from './cli-helpers.js';
import { sanitizeLine, sanitizeText, safeJson } from '../../js/cli/sanitize.js';

const mode = (p) => statSync(p).mode & 0o777;
// The package as the CLI loads it (the same module instance, so AgxPublicError is recognized).
const PACKAGE_URL = new URL('../../js/index.node.js', import.meta.url).href;

describe('cli: sanitizing peer text', () => {
  it('escapes C0, DEL, C1, CR, bidi controls and lone surrogates; keeps newlines and tabs in text', () => {
    const evil = 'a\x1b]0;title\x07b\x1b[2Jc\rd\x7fe\u009bf\u202eg\ud800h\n\ti';
    const t = sanitizeText(evil);
    assert.equal(t, 'a\\x1b]0;title\\x07b\\x1b[2Jc\\rd\\x7fe\\x9bf\\u202eg\ufffdh\n\ti');
    assert.doesNotMatch(t, /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202e]/);
    assert.equal(sanitizeLine('x\ny\tz'), 'x\\ny\\tz');
    assert.equal(sanitizeText('plain, ünïcode and emoji 🙂'), 'plain, ünïcode and emoji 🙂');
  });

  it('safeJson escapes what JSON.stringify leaves raw and still parses to the same value', () => {
    const value = { s: 'a\u009b[31m\u2028\u202e\x1b', n: 1 };
    const text = safeJson(value);
    assert.doesNotMatch(text, /[\x00-\x1f\x7f-\x9f\u2028\u202e]/);
    assert.deepEqual(JSON.parse(text), value);
  });
});

describe('cli: one program, two names', () => {
  it('package.json installs nostr-agents and agx; each names itself in usage and errors (exit 2)', async () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    assert.deepEqual(pkg.bin, { 'nostr-agents': 'js/cli.js', agx: 'js/cli.js' });
    const ctx = cliEnv('ws://127.0.0.1:9');
    try {
      const link = join(ctx.home, 'agx');
      symlinkSync(CLI, link);
      const help = await new Promise((resolve) => execFile(process.execPath, [link, '--help'], { env: ctx.env }, (e, stdout) => resolve({ code: e ? e.code : 0, stdout })));
      assert.equal(help.code, 0);
      assert.match(help.stdout, /^usage: agx <command>/);
      assert.match(help.stdout, /serve .*\n.*request/s);
      const wrong = await new Promise((resolve) => execFile(process.execPath, [link, 'frob'], { env: ctx.env }, (e, stdout, stderr) => resolve({ code: e ? e.code : 0, stderr })));
      assert.equal(wrong.code, 2);
      assert.match(wrong.stderr, /^agx: unknown command "frob"/);
      const plain = await cli(['--help'], { env: ctx.env });
      assert.match(plain.stdout, /^usage: nostr-agents <command>/);
      assert.equal((await cli([], { env: ctx.env })).code, 2);
    } finally {
      ctx.cleanup();
    }
  });
});

describe('cli: identity', () => {
  let ctx;
  before(() => (ctx = cliEnv('ws://127.0.0.1:9')));
  after(() => ctx.cleanup());

  it('new, show, export, import: folders 0700, files 0600, the nsec only from export', async () => {
    const made = await cli(['identity', 'new', '--profile', 'a', '--json'], { env: ctx.env });
    assert.equal(made.code, 0, made.stderr);
    const a = JSON.parse(made.stdout);
    assert.match(a.npub, /^npub1/);
    assert.match(a.pubkey, /^[0-9a-f]{64}$/);
    assert.equal(mode(ctx.agxHome), 0o700);
    assert.equal(mode(join(ctx.agxHome, 'a')), 0o700);
    assert.equal(mode(join(ctx.agxHome, 'a', 'key')), 0o600);
    assert.doesNotMatch(made.stdout + made.stderr, /nsec1/);

    const shown = await cli(['identity', 'show', '--profile', 'a', '--json'], { env: ctx.env });
    assert.equal(shown.code, 0);
    assert.equal(JSON.parse(shown.stdout).npub, a.npub);
    assert.doesNotMatch(shown.stdout + shown.stderr, /nsec1/);
    const text = await cli(['identity', 'show', '--profile', 'a'], { env: ctx.env });
    assert.match(text.stdout, new RegExp(a.npub));

    const again = await cli(['identity', 'new', '--profile', 'a'], { env: ctx.env });
    assert.equal(again.code, 3, 'an existing identity is not overwritten without --force');
    assert.match(again.stderr, /already has an identity/);
    assert.equal(JSON.parse((await cli(['identity', 'show', '--profile', 'a', '--json'], { env: ctx.env })).stdout).npub, a.npub);

    const exported = await cli(['identity', 'export', '--profile', 'a'], { env: ctx.env });
    assert.equal(exported.code, 0);
    const nsec = exported.stdout.trim();
    assert.match(nsec, /^nsec1[0-9a-z]+$/);

    // import from stdin (keeps the key out of the shell history) into another profile
    const imported = await cli(['identity', 'import', '--profile', 'copy', '--json'], { env: ctx.env, input: nsec + '\n' });
    assert.equal(imported.code, 0, imported.stderr);
    assert.equal(JSON.parse(imported.stdout).npub, a.npub);
    assert.equal(mode(join(ctx.agxHome, 'copy', 'key')), 0o600);
    assert.doesNotMatch(imported.stdout + imported.stderr, /nsec1/);
    const bad = await cli(['identity', 'import', 'nsec1notakey', '--profile', 'bad'], { env: ctx.env });
    assert.equal(bad.code, 2);
    assert.doesNotMatch(bad.stderr, /nsec1notakey/, 'a rejected secret is not echoed');

    // AGX_PROFILE selects the profile when --profile is absent
    const byEnv = await cli(['identity', 'show', '--json'], { env: { ...ctx.env, AGX_PROFILE: 'copy' } });
    assert.equal(JSON.parse(byEnv.stdout).profile, 'copy');
  });

  it('refuses a key file others can read, and says how to fix it', async () => {
    await cli(['identity', 'new', '--profile', 'loose'], { env: ctx.env });
    const key = join(ctx.agxHome, 'loose', 'key');
    chmodSync(key, 0o644);
    const r = await cli(['identity', 'show', '--profile', 'loose'], { env: ctx.env });
    assert.equal(r.code, 3);
    assert.match(r.stderr, /chmod 600/);
    const doc = await cli(['doctor', '--profile', 'loose', '--json'], { env: ctx.env });
    assert.equal(doc.code, 8);
    const report = JSON.parse(doc.stdout);
    assert.equal(report.ok, false);
    assert.ok(report.checks.some((c) => c.name === 'key file' && c.status === 'fail' && /chmod 600/.test(c.detail)));
    chmodSync(key, 0o600);
    chmodSync(join(ctx.agxHome, 'loose'), 0o755);
    const dir = JSON.parse((await cli(['doctor', '--profile', 'loose', '--json'], { env: ctx.env })).stdout);
    assert.ok(dir.checks.some((c) => c.name === 'profile folder' && c.status === 'fail' && /chmod 700/.test(c.detail)));
    assert.equal(dir.checks.find((c) => c.name === 'key file').status, 'ok');
  });

  it('allow, list, deny: allow.json is 0600; bad input is a usage error with parseable --json', async () => {
    const other = JSON.parse((await cli(['identity', 'new', '--profile', 'peer', '--json'], { env: ctx.env })).stdout);
    const added = await cli(['identity', 'allow', other.npub, '--profile', 'a', '--json'], { env: ctx.env });
    assert.equal(added.code, 0, added.stderr);
    assert.equal(JSON.parse(added.stdout).added, true);
    assert.equal(mode(join(ctx.agxHome, 'a', 'allow.json')), 0o600);
    const list = JSON.parse((await cli(['identity', 'allow', '--profile', 'a', '--json'], { env: ctx.env })).stdout);
    assert.deepEqual(list.allow.map((e) => [e.npub, e.capability]), [[other.npub, '*']]);
    const denied = await cli(['identity', 'deny', other.pubkey, '--profile', 'a', '--json'], { env: ctx.env });
    assert.equal(JSON.parse(denied.stdout).removed, 1);
    assert.equal(JSON.parse((await cli(['identity', 'allow', '--profile', 'a', '--json'], { env: ctx.env })).stdout).allow.length, 0);

    const bad = await cli(['identity', 'allow', 'npub1nope', '--profile', 'a', '--json'], { env: ctx.env });
    assert.equal(bad.code, 2);
    const err = JSON.parse(bad.stdout);
    assert.equal(err.ok, false);
    assert.equal(err.exitCode, 2);
    const unknown = await cli(['identity', 'frobnicate'], { env: ctx.env });
    assert.equal(unknown.code, 2);
    const badProfile = await cli(['identity', 'show', '--profile', '../etc'], { env: ctx.env });
    assert.equal(badProfile.code, 2);
  });

  it('config set/show: relays from the config file, AGX_RELAY over it, --relay over both', async () => {
    const set = await cli(['config', 'set', 'relays', 'ws://127.0.0.1:1111,ws://127.0.0.1:2222', '--profile', 'a'], { env: { ...ctx.env, AGX_RELAY: '' } });
    assert.equal(set.code, 0, set.stderr);
    assert.equal(mode(join(ctx.agxHome, 'a', 'config.json')), 0o600);
    const noEnv = { ...ctx.env, AGX_RELAY: '' };
    let s = JSON.parse((await cli(['config', 'show', '--profile', 'a', '--json'], { env: noEnv })).stdout);
    assert.deepEqual(s.relays, ['ws://127.0.0.1:1111', 'ws://127.0.0.1:2222']);
    assert.equal(s.relaySource, 'config');
    s = JSON.parse((await cli(['config', 'show', '--profile', 'a', '--json'], { env: { ...noEnv, AGX_RELAY: 'ws://127.0.0.1:3333' } })).stdout);
    assert.deepEqual([s.relays, s.relaySource], [['ws://127.0.0.1:3333'], 'AGX_RELAY']);
    s = JSON.parse((await cli(['config', 'show', '--profile', 'a', '--relay', 'ws://127.0.0.1:4444', '--json'], { env: { ...noEnv, AGX_RELAY: 'ws://127.0.0.1:3333' } })).stdout);
    assert.deepEqual([s.relays, s.relaySource], [['ws://127.0.0.1:4444'], 'flag']);
    const bad = await cli(['config', 'show', '--relay', 'http://example.com'], { env: noEnv });
    assert.equal(bad.code, 2);
  });
});

describe('cli: the AGX quickstart against a dev relay', () => {
  let relay;
  let ctx;
  let A;
  let B;
  let serveA;
  before(async () => {
    relay = await startDevRelay({ agxPolicy: true });
    ctx = cliEnv(relay.url);
    for (const p of ['a', 'b', 'c']) {
      const r = await cli(['identity', 'new', '--profile', p], { env: ctx.env });
      assert.equal(r.code, 0, r.stderr);
    }
    B = JSON.parse((await cli(['identity', 'show', '--profile', 'b', '--json'], { env: ctx.env })).stdout).npub;
    A = JSON.parse((await cli(['identity', 'show', '--profile', 'a', '--json'], { env: ctx.env })).stdout).npub;
    const allowed = await cli(['identity', 'allow', B, '--profile', 'a'], { env: ctx.env });
    assert.equal(allowed.code, 0);
    serveA = startCli(['serve', '--profile', 'a'], { env: ctx.env });
    await serveA.waitFor(/serving npub1/);
  });
  after(async () => {
    if (serveA) await serveA.stop();
    ctx.cleanup();
    await relay.close();
  });

  it('says that the built-in invoice.review stand-in answers when there is no --handler', () => {
    assert.match(serveA.stderr, /no --handler: answering invoice\.review with a built-in stand-in/);
  });

  it('request waits for and prints the result', async () => {
    const r = await cli(['request', A, 'invoice.review', '--payload', '{"amount":4200}', '--profile', 'b'], { env: ctx.env });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), { approved: true, flags: [], standIn: true });
    const j = await cli(['request', A, 'invoice.review', '--payload', '{"amount":12000}', '--profile', 'b', '--json'], { env: ctx.env });
    assert.equal(j.code, 0, j.stderr);
    const res = JSON.parse(j.stdout);
    assert.equal(res.ok, true);
    assert.equal(res.output.approved, false);
    assert.match(serveA.stderr, /task invoice\.review completed/);
  });

  it('a payload or message too large for a wrap is refused before sending (exit 2)', async () => {
    const big = 'x'.repeat(40000);
    const r = await cli(['request', A, 'invoice.review', '--payload', JSON.stringify({ big }), '--profile', 'b', '--json'], { env: ctx.env });
    assert.equal(r.code, 2, r.stderr);
    assert.equal(JSON.parse(r.stdout.trim().split('\n').at(-1)).error.code, 'AGX_TOO_LARGE');
    const s = await cli(['send', A, big, '--profile', 'b'], { env: ctx.env });
    assert.equal(s.code, 2, s.stderr);
    assert.match(s.stderr, /AGX_TOO_LARGE/);
  });

  it('send only publishes; serve --once --no-reply collects the reply', async () => {
    const sent = await cli(['send', A, 'Please review invoice 1234.', '--profile', 'b', '--subject', 'Invoice 1234', '--json'], { env: ctx.env });
    assert.equal(sent.code, 0, sent.stderr);
    const s = JSON.parse(sent.stdout);
    assert.match(s.wrapId, /^[0-9a-f]{64}$/);
    assert.deepEqual(s.accepted, [relay.url]);
    await serveA.waitFor(/Please review invoice 1234\./, 'stdout');
    assert.match(serveA.stdout, /\[Invoice 1234\]/);

    const collected = await cli(['serve', '--profile', 'b', '--once', '--no-reply', '--json'], { env: ctx.env });
    assert.equal(collected.code, 0, collected.stderr);
    const lines = jsonLines(collected.stdout);
    const msg = lines.find((l) => l.type === 'message');
    assert.ok(msg, collected.stdout);
    assert.equal(msg.npub, A);
    assert.equal(msg.subject, 'Re: Invoice 1234');
    assert.match(msg.text, /Received your message "Invoice 1234"/);
    assert.equal(msg.autoDepth, 1, 'an automated reply carries depth inbound + 1');
    // collected once: a second collection does not show it again (the profile's seen store)
    const again = await cli(['serve', '--profile', 'b', '--once', '--no-reply', '--json', '--timeout', '2'], { env: ctx.env });
    assert.equal(again.code, 5, 'nothing new: --once times out with the documented code');
    assert.equal(jsonLines(again.stdout).filter((l) => l.type === 'message').length, 0);
  });

  it('without allow: no reply, and the serving side logs why', async () => {
    const C = JSON.parse((await cli(['identity', 'show', '--profile', 'c', '--json'], { env: ctx.env })).stdout).npub;
    const r = await cli(['request', A, 'invoice.review', '--payload', '{"amount":1}', '--profile', 'c', '--timeout', '3', '--json'], { env: ctx.env });
    assert.equal(r.code, 5, r.stderr);
    assert.equal(JSON.parse(r.stdout).ok, false);
    assert.match(r.stderr, /no result within 3 s/);
    await serveA.waitFor(new RegExp(`denied task invoice\\.review from ${C}: the sender is not in the allow list; no reply sent`));
    // a plain message from a stranger is shown, but not acknowledged
    const sent = await cli(['send', A, 'hello from a stranger', '--profile', 'c'], { env: ctx.env });
    assert.equal(sent.code, 0);
    await serveA.waitFor(/hello from a stranger/, 'stdout');
    await serveA.waitFor(new RegExp(`not replying to ${C.slice(0, 12)}.*: not in the allow list`));
  });

  it("the overview's tip: first without the allow line (no reply, serve says why), then allowed without a restart", async () => {
    for (const p of ['x', 'y']) assert.equal((await cli(['identity', 'new', '--profile', p], { env: ctx.env })).code, 0);
    const X = JSON.parse((await cli(['identity', 'show', '--profile', 'x', '--json'], { env: ctx.env })).stdout).npub;
    const Y = JSON.parse((await cli(['identity', 'show', '--profile', 'y', '--json'], { env: ctx.env })).stdout).npub;
    const serveX = startCli(['serve', '--profile', 'x'], { env: ctx.env });
    try {
      await serveX.waitFor(/serving npub1/);
      assert.match(serveX.stderr, /no peer is allowed: every task request is denied/);
      const denied = await cli(['request', X, 'invoice.review', '--payload', '{"amount":4200}', '--profile', 'y', '--timeout', '3'], { env: ctx.env });
      assert.equal(denied.code, 5, denied.stderr);
      assert.equal(denied.stdout, '', 'no reply, nothing printed');
      assert.match(denied.stderr, /denied requests get no reply/);
      await serveX.waitFor(new RegExp(`denied task invoice\\.review from ${Y}: no peer is allowed \\(default-deny\\); no reply sent \\(allow it: nostr-agents identity allow ${Y} --profile x\\)`));
      assert.equal((await cli(['identity', 'allow', Y, '--profile', 'x'], { env: ctx.env })).code, 0);
      const ok = await cli(['request', X, 'invoice.review', '--payload', '{"amount":4200}', '--profile', 'y', '--json'], { env: ctx.env });
      assert.equal(ok.code, 0, ok.stderr);
      assert.equal(JSON.parse(ok.stdout).output.approved, true);
      assert.match(serveX.stderr, /allow list reloaded: 1 entry/);
    } finally {
      await serveX.stop();
    }
  });

  it('handler errors reach the peer only as "handler failed"; the real message is logged locally', async () => {
    const dir = ctx.home;
    const mod = join(dir, 'review.mjs');
    writeFileSync(
      mod,
      `import { agx } from ${JSON.stringify(PACKAGE_URL)};
export default {
  'invoice.review': async (p) => { if (!p.invoiceId) throw new agx.AgxPublicError('invoiceId is required'); return { ok: true }; },
  'db.read': async () => { throw new Error('connection string postgres://admin:hunter2@db refused'); },
  // as a module written for @nostr-agx/core (or another copy of this package) throws it
  'copy.check': async () => { class AgxPublicError extends Error { name = 'AgxPublicError'; } throw new AgxPublicError('invoice not found'); },
};
`,
    );
    await cli(['identity', 'new', '--profile', 'h'], { env: ctx.env });
    const H = JSON.parse((await cli(['identity', 'show', '--profile', 'h', '--json'], { env: ctx.env })).stdout).npub;
    const serveH = startCli(['serve', '--profile', 'h', '--handler', mod, '--allow', B], { env: ctx.env, cwd: process.cwd() });
    try {
      await serveH.waitFor(/serving npub1.*capabilities: invoice\.review, db\.read, copy\.check/);
      const failed = await cli(['request', H, 'db.read', '--profile', 'b'], { env: ctx.env });
      assert.equal(failed.code, 6, failed.stderr);
      assert.match(failed.stderr, /task failed: handler failed/);
      assert.doesNotMatch(failed.stdout + failed.stderr, /hunter2/);
      await serveH.waitFor(/handler failed: db\.read: .*hunter2/);
      const pub = await cli(['request', H, 'invoice.review', '--payload', '{}', '--profile', 'b', '--json'], { env: ctx.env });
      assert.equal(pub.code, 6);
      assert.deepEqual(JSON.parse(pub.stdout).error, 'invoiceId is required');
      const copy = await cli(['request', H, 'copy.check', '--profile', 'b'], { env: ctx.env });
      assert.equal(copy.code, 6);
      assert.match(copy.stderr, /task failed: invoice not found/);
    } finally {
      await serveH.stop();
    }
  });

  it('serve --once exits after the first new task (its result published first) or message', async () => {
    await cli(['identity', 'new', '--profile', 'one'], { env: ctx.env });
    const O = JSON.parse((await cli(['identity', 'show', '--profile', 'one', '--json'], { env: ctx.env })).stdout).npub;
    const s1 = startCli(['serve', '--profile', 'one', '--once', '--allow', B, '--json'], { env: ctx.env });
    await s1.waitFor(/"type":"ready"/, 'stdout');
    const r = await cli(['request', O, 'invoice.review', '--payload', '{"amount":1}', '--profile', 'b', '--json'], { env: ctx.env });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(JSON.parse(r.stdout).output.approved, true);
    const d1 = await s1.done;
    assert.equal(d1.code, 0, d1.stderr);
    assert.deepEqual(
      jsonLines(d1.stdout).filter((l) => l.type === 'task').map((l) => [l.capability, l.status, l.npub]),
      [['invoice.review', 'completed', B]],
    );
    // a message, with the reply (B is allowed) published before it exits
    const s2 = startCli(['serve', '--profile', 'one', '--once', '--allow', B, '--json'], { env: ctx.env });
    await s2.waitFor(/"type":"ready"/, 'stdout');
    assert.equal((await cli(['send', O, 'once more', '--profile', 'b'], { env: ctx.env })).code, 0);
    const d2 = await s2.done;
    assert.equal(d2.code, 0, d2.stderr);
    assert.equal(jsonLines(d2.stdout).find((l) => l.type === 'message').text, 'once more');
    assert.match(d2.stderr, /replied to/);
    const collected = await cli(['serve', '--profile', 'b', '--once', '--no-reply', '--json'], { env: ctx.env });
    assert.ok(
      jsonLines(collected.stdout).some((l) => l.type === 'message' && l.npub === O && /^Received your message/.test(l.text) && l.autoDepth === 1),
      collected.stdout,
    );
  });

  it('--allow-all accepts task requests from anyone, and says so', async () => {
    await cli(['identity', 'new', '--profile', 'open'], { env: ctx.env });
    const O = JSON.parse((await cli(['identity', 'show', '--profile', 'open', '--json'], { env: ctx.env })).stdout).npub;
    const serveO = startCli(['serve', '--profile', 'open', '--allow-all'], { env: ctx.env });
    try {
      await serveO.waitFor(/serving npub1/);
      assert.match(serveO.stderr, /--allow-all: task requests from anyone are accepted/);
      const r = await cli(['request', O, 'invoice.review', '--payload', '{"amount":7}', '--profile', 'c', '--json'], { env: ctx.env });
      assert.equal(r.code, 0, r.stderr);
      assert.equal(JSON.parse(r.stdout).output.approved, true);
    } finally {
      await serveO.stop();
    }
  });

  it('--max-auto-depth bounds automated replies', async () => {
    await cli(['identity', 'new', '--profile', 'd'], { env: ctx.env });
    const D = JSON.parse((await cli(['identity', 'show', '--profile', 'd', '--json'], { env: ctx.env })).stdout).npub;
    const serveD = startCli(['serve', '--profile', 'd', '--allow', B, '--max-auto-depth', '0'], { env: ctx.env });
    try {
      await serveD.waitFor(/serving npub1/);
      assert.equal((await cli(['send', D, 'depth test', '--profile', 'b'], { env: ctx.env })).code, 0);
      await serveD.waitFor(/not replying to .*automated-reply depth 1 would exceed 0/);
      assert.doesNotMatch(serveD.stderr, /replied to/);
    } finally {
      await serveD.stop();
    }
    const bad = await cli(['serve', '--profile', 'd', '--max-auto-depth', 'many'], { env: ctx.env });
    assert.equal(bad.code, 2);
  });

  it('control characters from a peer are escaped before they reach the terminal', async () => {
    const evil = 'hi\x1b]0;owned\x07\x1b[2J\rfake prompt$ \u009b31m\u202eevil';
    const sent = await cli(['send', B, evil, '--subject', 'sub\x1b[31mject\n2nd line', '--profile', 'c'], { env: ctx.env });
    assert.equal(sent.code, 0, sent.stderr);
    const text = await cli(['serve', '--profile', 'b', '--once', '--no-reply'], { env: ctx.env });
    assert.equal(text.code, 0, text.stderr);
    assert.doesNotMatch(text.stdout + text.stderr, /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202e]/);
    assert.match(text.stdout, /hi\\x1b\]0;owned\\x07\\x1b\[2J\\rfake prompt\$ \\x9b31m\\u202eevil/);
    assert.match(text.stdout, /\[sub\\x1b\[31mject\\n2nd line\]/);

    await cli(['send', B, evil, '--profile', 'c'], { env: ctx.env });
    const j = await cli(['serve', '--profile', 'b', '--once', '--no-reply', '--json'], { env: ctx.env });
    assert.doesNotMatch(j.stdout, /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202e]/);
    assert.equal(jsonLines(j.stdout).find((l) => l.type === 'message').text, evil, '--json keeps the exact text, escaped');

    // a peer's Agent Card: its org, capabilities and relays are peer text too
    const pkg = await import(PACKAGE_URL);
    await pkg.init();
    const sk = pkg.generateSecretKey();
    const signer = new pkg.LocalSigner(sk);
    sk.fill(0);
    const pool = new pkg.RelayPool({ relays: [relay.url] });
    try {
      await pkg.agx.publishAgentCard(signer, pool, { org: 'Evil\x1b]0;pwned\x07 Corp\u202e', capabilities: ['x\x1b[31m'], relays: [relay.url] });
    } finally {
      await pool.close();
    }
    const peer = pkg.nip19.npubEncode(signer.publicKey);
    signer.dispose();
    const shown = await cli(['card', peer], { env: ctx.env });
    assert.equal(shown.code, 0, shown.stderr);
    assert.doesNotMatch(shown.stdout + shown.stderr, /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202e]/);
    assert.match(shown.stdout, /org\s+Evil\\x1b\]0;pwned\\x07 Corp\\u202e/);
    assert.match(shown.stdout, /capabilities\s+x\\x1b\[31m/);
    const cj = await cli(['card', peer, '--json'], { env: ctx.env });
    assert.doesNotMatch(cj.stdout, /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202e]/);
    assert.equal(JSON.parse(cj.stdout).card.org, 'Evil\x1b]0;pwned\x07 Corp\u202e');
  });

  it('serve --advertise publishes the Agent Card; card reads it; an unknown key has none', async () => {
    await cli(['config', 'set', 'org', 'Acme Corp', '--profile', 'c'], { env: ctx.env });
    const C = JSON.parse((await cli(['identity', 'show', '--profile', 'c', '--json'], { env: ctx.env })).stdout).npub;
    const s = startCli(['serve', '--profile', 'c', '--advertise', '--json'], { env: ctx.env });
    try {
      await s.waitFor(/"type":"ready"/, 'stdout');
      assert.equal(jsonLines(s.stdout).find((l) => l.type === 'advertised').accepted, 1);
    } finally {
      await s.stop();
    }
    const r = await cli(['card', C, '--json'], { env: ctx.env });
    assert.equal(r.code, 0, r.stderr);
    const c = JSON.parse(r.stdout);
    assert.deepEqual(c.card.capabilities, ['invoice.review']);
    assert.equal(c.card.org, 'Acme Corp');
    assert.deepEqual(c.card.relays, [relay.url]);
    assert.deepEqual(c.relayList.relays, [relay.url]);
    const v = await cli(['card', C, '--verify', '--json'], { env: ctx.env });
    assert.equal(v.code, 6, 'no NIP-05 claimed: not verified');
    assert.equal(JSON.parse(v.stdout).nip05Verified, false);
    const none = await cli(['card', A, '--json'], { env: ctx.env });
    assert.equal(none.code, 7);
    assert.equal(JSON.parse(none.stdout).card, null);

    // without NPUB: the profile's own card
    const own = await cli(['card', '--profile', 'c', '--json'], { env: ctx.env });
    assert.equal(own.code, 0, own.stderr);
    assert.equal(JSON.parse(own.stdout).card.id, c.card.id);
    const text = await cli(['card', C], { env: ctx.env });
    assert.match(text.stdout, /org\s+Acme Corp/);
    assert.match(text.stdout, /capabilities\s+invoice\.review/);

    // card --retract: a NIP-09 deletion of our own card (the dev relay honors it)
    assert.equal((await cli(['card', '--retract', A, '--profile', 'c'], { env: ctx.env })).code, 2, 'only our own card');
    assert.equal((await cli(['card', C, '--retract', '--verify', '--profile', 'c'], { env: ctx.env })).code, 2);
    const gone = await cli(['card', '--retract', '--profile', 'c', '--reason', 'moving', '--json'], { env: ctx.env });
    assert.equal(gone.code, 0, gone.stderr);
    const g = JSON.parse(gone.stdout);
    assert.equal(g.ok, true);
    assert.ok(g.retracted.includes(c.card.id));
    assert.match(g.deletionId, /^[0-9a-f]{64}$/);
    assert.deepEqual(g.accepted, [relay.url]);
    const after = await cli(['card', C, '--json'], { env: ctx.env });
    assert.equal(after.code, 7, 'the relay dropped the retracted card');
    const twice = await cli(['card', '--retract', '--profile', 'c', '--json'], { env: ctx.env });
    assert.equal(twice.code, 7);
    assert.equal(JSON.parse(twice.stdout).ok, false);
  });

  it('card with no relay reachable is exit 4, not "no card" (7)', async () => {
    const dead = await startDevRelay();
    const url = dead.url;
    await dead.close();
    const r = await cli(['card', A, '--relay', url, '--json'], { env: ctx.env });
    assert.equal(r.code, 4, r.stderr);
    const j = JSON.parse(r.stdout);
    assert.equal(j.exitCode, 4);
    assert.equal(j.error.code, 'RELAY_UNREACHABLE');
    assert.match(r.stderr, /no relay reachable/);
  });

  it('card --verify reports why a NIP-05 handle is not verified; bad card settings are refused', async () => {
    await cli(['identity', 'new', '--profile', 'n'], { env: ctx.env });
    const N = JSON.parse((await cli(['identity', 'show', '--profile', 'n', '--json'], { env: ctx.env })).stdout).npub;
    const bad = await cli(['config', 'set', 'nip05', 'agent@localhost', '--profile', 'n', '--json'], { env: ctx.env });
    assert.equal(bad.code, 2);
    assert.equal(JSON.parse(bad.stdout).ok, false);
    assert.equal((await cli(['config', 'set', 'nip05', 'not a handle', '--profile', 'n'], { env: ctx.env })).code, 2);
    // a hand-edited config the card would refuse: serve --advertise says so (exit 3), serves nothing
    writeFileSync(join(ctx.agxHome, 'n', 'config.json'), JSON.stringify({ nip05: 'agent@127.0.0.1' }));
    const refused = await cli(['serve', '--profile', 'n', '--advertise'], { env: ctx.env });
    assert.equal(refused.code, 3, refused.stderr);
    assert.match(refused.stderr, /Agent Card settings are invalid/);
    // .invalid never resolves (RFC 6761): the check fails with its reason, no network needed
    assert.equal((await cli(['config', 'set', 'nip05', 'agent@example.invalid', '--profile', 'n'], { env: ctx.env })).code, 0);
    const s = startCli(['serve', '--profile', 'n', '--advertise'], { env: ctx.env });
    try {
      await s.waitFor(/advertised: Agent Card/);
    } finally {
      await s.stop();
    }
    const plain = JSON.parse((await cli(['card', N, '--json'], { env: ctx.env })).stdout);
    assert.equal(plain.card.nip05, 'agent@example.invalid');
    assert.equal(plain.nip05Verified, undefined, 'not checked without --verify');
    const v = await cli(['card', N, '--verify', '--json'], { env: ctx.env });
    assert.equal(v.code, 6);
    const j = JSON.parse(v.stdout);
    assert.equal(j.ok, false);
    assert.equal(j.nip05Verified, false);
    assert.match(j.nip05Reason, /AGX_NIP05_DNS/);
    const t = await cli(['card', N, '--verify'], { env: ctx.env });
    assert.equal(t.code, 6);
    assert.match(t.stdout, /agent@example\.invalid \(NOT verified\)/);
    assert.match(t.stderr, /NIP-05: AGX_NIP05_DNS/);
  });

  it("request and send run while serve holds the profile's seen store; a second serve of it is refused", async () => {
    // serve a (started in before()) holds <a>/seen: the one-writer FileSeenStore
    const store = join(ctx.agxHome, 'a', 'seen');
    assert.equal(mode(store), 0o700);
    for (const f of ['seen.json', 'seen.log', 'seen.lock']) assert.equal(mode(join(store, f)), 0o600, f);
    assert.equal(readFileSync(join(store, 'seen.lock'), 'utf8').trim(), String(serveA.child.pid));

    const second = await cli(['serve', '--profile', 'a', '--json'], { env: ctx.env });
    assert.equal(second.code, 3, second.stderr);
    assert.match(second.stderr, /profile "a" is already being served: .*in use by process \d+/);
    assert.equal(JSON.parse(second.stdout.trim().split('\n').at(-1)).exitCode, 3);
    const doc = JSON.parse((await cli(['doctor', '--profile', 'a', '--json'], { env: ctx.env })).stdout);
    assert.match(doc.checks.find((c) => c.name === 'seen store lock').detail, /held by process/);
    assert.equal(doc.checks.find((c) => c.name === 'seen store folder').status, 'ok');

    // the same profile as a client meanwhile: A asks E, and sends E a message
    await cli(['identity', 'new', '--profile', 'e'], { env: ctx.env });
    const E = JSON.parse((await cli(['identity', 'show', '--profile', 'e', '--json'], { env: ctx.env })).stdout).npub;
    const serveE = startCli(['serve', '--profile', 'e', '--allow', A, '--no-reply'], { env: ctx.env });
    try {
      await serveE.waitFor(/serving npub1/);
      const r = await cli(['request', E, 'invoice.review', '--payload', '{"amount":50000}', '--profile', 'a', '--json'], { env: ctx.env });
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual(JSON.parse(r.stdout).output, { approved: false, flags: ['over-limit'], standIn: true });
      const sent = await cli(['send', E, 'sent while a is served', '--profile', 'a'], { env: ctx.env });
      assert.equal(sent.code, 0, sent.stderr);
      await serveE.waitFor(/sent while a is served/, 'stdout');
    } finally {
      await serveE.stop();
    }
    assert.equal(serveA.child.exitCode, null, 'serve a is still running');

    // a damaged store is a setup error that names the file, not a crash
    await cli(['identity', 'new', '--profile', 'dmg'], { env: ctx.env });
    mkdirSync(join(ctx.agxHome, 'dmg', 'seen'), { mode: 0o700 });
    writeFileSync(join(ctx.agxHome, 'dmg', 'seen', 'seen.json'), '{"v":9}', { mode: 0o600 });
    const dmg = await cli(['serve', '--profile', 'dmg', '--json'], { env: ctx.env });
    assert.equal(dmg.code, 3, dmg.stderr);
    assert.match(dmg.stderr, /seen store cannot be used: seen\.json is not a seen-store snapshot/);
    assert.equal(JSON.parse(dmg.stdout.trim().split('\n').at(-1)).ok, false);
  });

  it('Ctrl-C while request waits: exit 130', async () => {
    // C is not allowed on A: no result will come
    const r = startCli(['request', A, 'invoice.review', '--payload', '{"amount":1}', '--profile', 'c', '--timeout', '600'], { env: ctx.env });
    await r.waitFor(/waiting up to 600 s/);
    r.signal('SIGINT');
    const done = await r.done;
    assert.equal(done.code, 130, done.stderr);
    assert.match(done.stderr, /interrupted/);
  });
});
