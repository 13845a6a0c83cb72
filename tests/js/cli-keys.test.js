// The CLI's key handling (issue 16, item 6): `identity import` takes no secret on the command
// line; key files may be NIP-49 ncryptsecs (opened by nostr-tools' nip49 here, to check what is
// stored); every command that signs asks for the passphrase at the terminal (through a real
// pseudo-terminal, `script`) or reads it from --passphrase-file; `serve` runs on an encrypted key.
// The children run in a session of their own (no controlling terminal) unless a test gives one.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as toolsNip49 from 'nostr-tools/nip49';
import { bech32 } from '@scure/base';
import { init, generateSecretKey, getPublicKey, nip19 } from 'nostr-agents';
import { startDevRelay } from '../support/relays.js';
import { CLI, cliEnv, jsonLines } from './cli-helpers.js';

/** The CLI without a controlling terminal: { code, stdout, stderr }. */
function run(args, { env, input } = {}) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { env, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input ?? '');
  });
}

/**
 * The CLI on a pseudo-terminal (util-linux `script`): each of `answers` is typed once the output
 * shows the prompt before it. Resolves to { code, output } (all the terminal showed).
 */
function onTerminal(args, env, answers) {
  return new Promise((resolve) => {
    const cmd = [process.execPath, CLI, ...args].map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(' ');
    const child = spawn('script', ['-qec', cmd, '/dev/null'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    const queue = [...answers];
    child.stdout.on('data', (d) => {
      output += d;
      while (queue.length && queue[0][0].test(output)) {
        const [prompt, text] = queue.shift();
        output = output.replace(prompt, '<prompted>'); // each prompt answers once
        child.stdin.write(`${text}\n`);
      }
    });
    child.on('close', (code) => resolve({ code, output }));
  });
}

await init();

const ksbOf = (nc) => new Uint8Array(bech32.fromWords(bech32.decode(nc, 5000).words))[42];
const keyFile = (ctx, profile) => join(ctx.agxHome, profile, 'key');

describe('cli: secret keys stay off the command line; key files may be ncryptsecs', () => {
  let ctx;
  let relay;
  let passFile;
  before(async () => {
    relay = await startDevRelay({ memory: true });
    ctx = cliEnv(relay.url);
    passFile = join(ctx.home, 'pass');
    writeFileSync(passFile, 'a long enough passphrase\n', { mode: 0o600 });
  });
  after(async () => {
    ctx.cleanup();
    await relay.close();
  });

  it('identity import refuses a key given as an argument, without repeating it, and reads stdin', async () => {
    const sk = generateSecretKey();
    const nsec = nip19.nsecEncode(sk);
    const r = await run(['identity', 'import', nsec, '--profile', 'argv'], { env: ctx.env });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /no key on the command line.*shell history.*ps.*< key\.txt/s);
    assert.ok(!r.stderr.includes(nsec) && !r.stderr.includes(nsec.slice(5, 30)));
    assert.equal(existsSync(keyFile(ctx, 'argv')), false);
    const ok = await run(['identity', 'import', '--profile', 'argv', '--json'], { env: ctx.env, input: `${nsec}\n` });
    assert.equal(ok.code, 0, ok.stderr);
    assert.equal(JSON.parse(ok.stdout).pubkey, getPublicKey(sk));
    assert.equal(JSON.parse(ok.stdout).encrypted, false);
  });

  it('identity new --encrypt: an ncryptsec (key security 0x01) that nostr-tools opens; show needs no passphrase, export does', async () => {
    const made = await run(['identity', 'new', '--encrypt', '--passphrase-file', passFile, '--profile', 'enc', '--json'], { env: ctx.env });
    assert.equal(made.code, 0, made.stderr);
    const { pubkey, encrypted } = JSON.parse(made.stdout);
    assert.equal(encrypted, true);
    const text = readFileSync(keyFile(ctx, 'enc'), 'utf8');
    const [nc, comment] = text.trim().split('\n');
    assert.match(nc, /^ncryptsec1/);
    assert.equal(comment, `# public key ${pubkey}`);
    assert.doesNotMatch(text, /nsec1|^[0-9a-f]{64}$/m);
    const sk = toolsNip49.decrypt(nc, 'a long enough passphrase');
    assert.equal(getPublicKey(sk), pubkey);
    assert.equal(ksbOf(nc), 0x01);

    const shown = await run(['identity', 'show', '--profile', 'enc', '--json'], { env: ctx.env });
    assert.equal(shown.code, 0, shown.stderr);
    assert.equal(JSON.parse(shown.stdout).pubkey, pubkey);
    const doctor = await run(['doctor', '--profile', 'enc', '--json', '--timeout', '5'], { env: ctx.env });
    assert.ok(JSON.parse(doctor.stdout).checks.some((c) => c.name === 'identity' && c.status === 'ok'), doctor.stdout);

    const locked = await run(['identity', 'export', '--profile', 'enc'], { env: ctx.env });
    assert.equal(locked.code, 3);
    assert.match(locked.stderr, /needs a passphrase: give --passphrase-file FILE/);
    const exported = await run(['identity', 'export', '--profile', 'enc', '--passphrase-file', passFile], { env: ctx.env });
    assert.equal(exported.code, 0, exported.stderr);
    assert.deepEqual(nip19.decode(exported.stdout.trim()).data, sk);
    const byEnv = await run(['identity', 'export', '--profile', 'enc'], { env: { ...ctx.env, AGX_PASSPHRASE_FILE: passFile } });
    assert.equal(byEnv.stdout, exported.stdout);

    const wrongFile = join(ctx.home, 'wrong');
    writeFileSync(wrongFile, 'not the passphrase', { mode: 0o600 });
    const wrong = await run(['identity', 'export', '--profile', 'enc', '--passphrase-file', wrongFile], { env: ctx.env });
    assert.equal(wrong.code, 3);
    assert.match(wrong.stderr, /wrong passphrase/);
    assert.doesNotMatch(wrong.stderr, /not the passphrase/);
    chmodSync(wrongFile, 0o644);
    const loose = await run(['identity', 'export', '--profile', 'enc', '--passphrase-file', wrongFile], { env: ctx.env });
    assert.equal(loose.code, 3);
    assert.match(loose.stderr, /chmod 600/);
    sk.fill(0);
  });

  it('imports: an ncryptsec is kept as it is; a plain key with --encrypt gets key security 0x00', async () => {
    const sk = generateSecretKey();
    const nc = toolsNip49.encrypt(sk, 'a long enough passphrase', 12, 0x02);
    const r = await run(['identity', 'import', '--profile', 'nc', '--passphrase-file', passFile, '--json'], { env: ctx.env, input: nc });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(JSON.parse(r.stdout).pubkey, getPublicKey(sk));
    assert.equal(readFileSync(keyFile(ctx, 'nc'), 'utf8').split('\n')[0], nc);
    const other = join(ctx.home, 'other');
    writeFileSync(other, 'another passphrase', { mode: 0o600 });
    const refused = await run(['identity', 'import', '--profile', 'nc2', '--passphrase-file', other], { env: ctx.env, input: nc });
    assert.equal(refused.code, 3, 'an ncryptsec that the passphrase does not open is not stored');
    assert.equal(existsSync(keyFile(ctx, 'nc2')), false);

    const plain = await run(['identity', 'import', '--encrypt', '--profile', 'plain', '--passphrase-file', passFile], { env: ctx.env, input: nip19.nsecEncode(sk) });
    assert.equal(plain.code, 0, plain.stderr);
    const stored = readFileSync(keyFile(ctx, 'plain'), 'utf8').split('\n')[0];
    assert.equal(ksbOf(stored), 0x00, 'the key was seen in the clear');
    assert.deepEqual(toolsNip49.decrypt(stored, 'a long enough passphrase'), sk);
    sk.fill(0);
  });

  it('serve runs on an encrypted key with --passphrase-file, and stops at once without one', async () => {
    const none = await run(['serve', '--profile', 'enc', '--once', '--timeout', '1', '--json'], { env: ctx.env });
    assert.equal(none.code, 3);
    assert.match(none.stderr, /passphrase/);
    const served = await run(['serve', '--profile', 'enc', '--once', '--timeout', '2', '--json', '--passphrase-file', passFile], { env: ctx.env });
    const lines = jsonLines(served.stdout);
    assert.ok(lines.some((l) => l.type === 'ready'), `${served.code} ${served.stdout} ${served.stderr}`);
  });

  it('at a terminal: the key and the passphrase are typed without echo', async () => {
    const sk = generateSecretKey();
    const nsec = nip19.nsecEncode(sk);
    const made = await onTerminal(['identity', 'import', '--encrypt', '--profile', 'tty'], ctx.env, [
      [/Secret key \(nsec, 64 hex or ncryptsec\): /, nsec],
      [/Passphrase for the new key of profile "tty": /, 'typed passphrase 1'],
      [/Again: /, 'typed passphrase 1'],
    ]);
    assert.equal(made.code, 0, made.output);
    assert.match(made.output, /imported identity for profile "tty" \(encrypted: ncryptsec\)/);
    assert.ok(!made.output.includes(nsec) && !made.output.includes('typed passphrase 1'), `nothing typed was echoed: ${made.output}`);
    const nc = readFileSync(keyFile(ctx, 'tty'), 'utf8').split('\n')[0];
    assert.deepEqual(toolsNip49.decrypt(nc, 'typed passphrase 1'), sk);

    const exported = await onTerminal(['identity', 'export', '--profile', 'tty'], ctx.env, [[/Passphrase for .*key: /, 'typed passphrase 1']]);
    assert.equal(exported.code, 0, exported.output);
    assert.ok(exported.output.includes(nsec));
    const mismatch = await onTerminal(['identity', 'new', '--encrypt', '--profile', 'tty2'], ctx.env, [
      [/Passphrase for the new key of profile "tty2": /, 'one passphrase'],
      [/Again: /, 'another passphrase'],
    ]);
    assert.notEqual(mismatch.code, 0);
    assert.match(mismatch.output, /the two passphrases differ/);
    assert.equal(existsSync(keyFile(ctx, 'tty2')), false);
    sk.fill(0);
  });
});
