// The directory commands as users run them: `node js/cli.js ...` child processes against the test
// directory server (tests/support/directory-server.js, written from the login contract's fixture)
// on 127.0.0.1. login (device flow, --no-wait and blocking, denied, Ctrl-C), whoami, org, logout,
// config (apiBaseUrl, apiKey from stdin, orgSlug, use, list), identity sign, register (the proof is
// verified with nostr-tools), listing, domain, search, peers; every documented RPC error body with
// its exit code; the URL a person is sent to only ever on the configured origin; Retry-After; a 3xx
// (refused, the key not sent on); an unreachable directory; and no key or device code in any output.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { verifyEvent, getPublicKey, nip19 } from 'nostr-tools';
import { CONTRACT, rpcFixture, rpcPlain, startDirectoryServer } from '../support/directory-server.js';
import { cli, cliEnv, startCli } from './cli-helpers.js';
import { startDevRelay } from '../support/relays.js';
import { nostr } from './helpers.js';

const mode = (p) => statSync(p).mode & 0o777;
const lastJson = (text) => JSON.parse(text.trim().split('\n').at(-1));

/** Every run's output, to check at the end that no key or device code was ever printed. */
const transcript = [];
async function agx(args, opts) {
  const r = await cli(args, opts);
  transcript.push(r.stdout, r.stderr);
  return r;
}

function envFor(ctx, dir, extra = {}) {
  const env = { ...ctx.env, AGX_API_URL: dir.origin, ...extra };
  for (const k of ['AGX_API_KEY', 'AGX_ORG']) if (!(k in extra)) delete env[k];
  return env;
}

describe('cli directory: login, whoami, org, logout', () => {
  let ctx;
  let dir;
  let env;
  before(async () => {
    ctx = cliEnv('ws://127.0.0.1:9');
    dir = await startDirectoryServer({ interval: 1 }); // a short server-given interval: the real clock
    env = envFor(ctx, dir);
  });
  after(async () => {
    await dir.close();
    ctx.cleanup();
  });

  it('login --no-wait: exit 10 with the URL (on the directory\'s origin) and the code; pending-login.json is 0600', async () => {
    const r = await agx(['login', '--no-wait', '--json'], { env });
    assert.equal(r.code, 10, r.stderr);
    const out = lastJson(r.stdout);
    assert.equal(out.ok, false);
    assert.equal(out.exitCode, 10);
    const a = out.actionRequired;
    assert.equal(a.reason, 'LOGIN_APPROVAL_REQUIRED');
    assert.equal(a.url, `${dir.origin}/auth/device?code=${a.userCode}`);
    assert.equal(a.verificationUri, `${dir.origin}/auth/device`);
    assert.match(a.userCode, new RegExp(CONTRACT.userCodePattern));
    assert.ok(a.expiresIn > 1700 && a.expiresIn <= 1800);
    const pendingFile = join(ctx.agxHome, 'default', 'pending-login.json');
    assert.equal(mode(pendingFile), 0o600);
    assert.equal(dir.calls('/api/auth/device/token').length, 0); // a fresh code is never polled under --no-wait
    // again, in text: the same code resumed, polled once, still pending; the URL on stderr
    const text = await agx(['login', '--no-wait'], { env });
    assert.equal(text.code, 10);
    assert.equal(dir.calls('/api/auth/device/token').length, 1);
    assert.match(text.stderr, new RegExp(`open ${dir.origin.replace(/[.]/g, '\\.')}/auth/device\\?code=${a.userCode}`));
    assert.equal(text.stdout, '');
    assert.equal(dir.codes.length, 1); // the same code, resumed
  });

  it('org create NAME is login --new-org: the approval page creates it; bad flags are exit 2', async () => {
    const r = await agx(['org', 'create', 'Acme Two', '--slug', 'acme-two', '--no-wait', '--json', '--profile', 'neworg'], { env });
    assert.equal(r.code, 10, r.stderr);
    const sent = dir.calls('/api/auth/device/code').at(-1).body;
    assert.deepEqual({ new_org: sent.new_org, new_org_name: sent.new_org_name, new_org_slug: sent.new_org_slug }, { new_org: true, new_org_name: 'Acme Two', new_org_slug: 'acme-two' });
    assert.equal((await agx(['login', '--org', 'acme', '--new-org'], { env })).code, 2);
    assert.equal((await agx(['login', '--org-name', 'X'], { env })).code, 2);
    assert.equal((await agx(['login', '--api-base-url', 'http://example.com'], { env })).code, 2);
  });

  it('login --no-wait again after approval: stores the key (0600), points the profile at the directory and its organization', async () => {
    dir.approve({ userCode: dir.codes[0].userCode });
    const r = await agx(['login', '--no-wait', '--json'], { env });
    assert.equal(r.code, 0, r.stderr);
    const out = lastJson(r.stdout);
    assert.equal(out.loggedIn, true);
    assert.equal(out.alreadyLoggedIn, false);
    assert.deepEqual(out.organization, CONTRACT.deviceToken.success.organization);
    assert.equal(out.user.email, 'a•••@acme.com');
    assert.deepEqual(out.scopes, CONTRACT.scopes);
    assert.equal(out.apiKeyId, dir.keys[0].id);
    const credFile = join(ctx.agxHome, 'default', 'credentials.json');
    assert.equal(mode(credFile), 0o600);
    const cred = JSON.parse(readFileSync(credFile, 'utf8'));
    assert.equal(cred.apiKey, dir.keys[0].key);
    assert.equal(cred.apiBaseUrl, dir.origin);
    assert.equal(existsSync(join(ctx.agxHome, 'default', 'pending-login.json')), false);
    const config = JSON.parse(readFileSync(join(ctx.agxHome, 'default', 'config.json'), 'utf8'));
    assert.equal(config.apiBaseUrl, dir.origin);
    assert.equal(config.orgSlug, 'acme-robotics');
  });

  it('login when logged in: confirmed with account.principal.get, no new code', async () => {
    const before = dir.codes.length;
    const r = await agx(['login', '--json'], { env });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(lastJson(r.stdout).alreadyLoggedIn, true);
    assert.equal(dir.codes.length, before);
    assert.equal(dir.calls('/api/rpc/account/principal/get').at(-1).headers['x-api-key'], dir.keys[0].key);
  });

  it('whoami: the directory\'s view (masked email, role, scopes); config show names the key\'s source, never the key', async () => {
    const r = await agx(['whoami', '--json'], { env });
    assert.equal(r.code, 0, r.stderr);
    const w = lastJson(r.stdout);
    assert.equal(w.verified, true);
    assert.equal(w.user.email, 'a•••@acme.com');
    assert.deepEqual(w.organization, { ...CONTRACT.principal.output.organization });
    assert.equal(w.apiKey.scoped, true);
    assert.deepEqual(w.apiKey.scopes, CONTRACT.scopes);
    assert.equal(w.source, 'login');
    const text = await agx(['whoami'], { env });
    assert.match(text.stdout, /organization +acme-robotics \(owner\)/);
    const shown = await agx(['config', 'show', '--json'], { env });
    const s = lastJson(shown.stdout);
    assert.equal(s.apiBaseUrl, dir.origin);
    assert.equal(s.apiBaseUrlSource, 'AGX_API_URL');
    assert.equal(s.orgSlug, 'acme-robotics');
    assert.equal(s.apiKey.source, 'login');
    assert.equal(s.apiKey.organization, 'acme-robotics');
  });

  it('org list marks the current organization; a 404 whoami (a server without it) shows the local record unverified', async () => {
    const r = await agx(['org', 'list', '--json'], { env });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(lastJson(r.stdout).organizations, [{ ...CONTRACT.organizationsList.output[0], ...CONTRACT.deviceToken.success.organization, current: true }]);
    dir.queueRpc('account/principal/get', rpcPlain(404, 'NOT_FOUND', 'Not found'));
    const w = await agx(['whoami', '--json'], { env });
    assert.equal(w.code, 0, w.stderr);
    assert.equal(lastJson(w.stdout).verified, false);
    assert.equal(lastJson(w.stdout).organization.slug, 'acme-robotics');
  });

  it('a key is only sent to the origin that issued it: another AGX_API_URL is refused before anything is sent (exit 3)', async () => {
    const other = await startDirectoryServer();
    try {
      const r = await agx(['whoami'], { env: { ...env, AGX_API_URL: other.origin } });
      assert.equal(r.code, 3);
      assert.match(r.stderr, /nothing was sent/);
      assert.equal(other.requests.length, 0);
    } finally {
      await other.close();
    }
  });

  it('logout revokes the key at the directory (prm.apiKeys.delete with its id) and forgets it; whoami is then exit 9', async () => {
    const r = await agx(['logout', '--json'], { env });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(lastJson(r.stdout).loggedOut, [{ profile: 'default', revoked: true, reason: 'revoked' }]);
    assert.deepEqual(dir.calls('/api/rpc/prm/apiKeys/delete').at(-1).body, { json: { apiKeyId: dir.keys[0].id } });
    assert.equal(dir.keys[0].revoked, true);
    assert.equal(existsSync(join(ctx.agxHome, 'default', 'credentials.json')), false);
    const w = await agx(['whoami', '--json'], { env });
    assert.equal(w.code, 9);
    assert.deepEqual(lastJson(w.stdout), { loggedIn: false, profile: 'default' });
  });

  it('blocking login: the actionRequired line on stderr at once, then the poll finishes when approved', async () => {
    const proc = startCli(['login', '--json', '--profile', 'blocking'], { env });
    const line = await proc.waitFor(/\{"actionRequired".*\n/);
    const action = JSON.parse(line.trim().split('\n').find((l) => l.startsWith('{"actionRequired"'))).actionRequired;
    assert.equal(action.url.startsWith(`${dir.origin}/auth/device?code=`), true);
    dir.approve({ userCode: action.userCode });
    const r = await proc.done;
    transcript.push(r.stdout, r.stderr);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(lastJson(r.stdout).loggedIn, true);
  });

  it('blocking login denied in the browser: exit 9 and the code is dropped; Ctrl-C while waiting: exit 130 and the code kept', async () => {
    const denied = startCli(['login', '--profile', 'denied'], { env });
    const text = await denied.waitFor(/check that it shows the code ([A-Z0-9-]+)/);
    dir.deny(/check that it shows the code ([A-Z0-9-]+)/.exec(text)[1]);
    const r = await denied.done;
    transcript.push(r.stdout, r.stderr);
    assert.equal(r.code, 9, r.stderr);
    assert.match(r.stderr, /denied in the browser/);
    assert.equal(existsSync(join(ctx.agxHome, 'denied', 'pending-login.json')), false);

    const waiting = startCli(['login', '--profile', 'interrupted'], { env });
    await waiting.waitFor(/Waiting for approval/);
    const stopped = await waiting.stop();
    transcript.push(stopped.stdout, stopped.stderr);
    assert.equal(stopped.code, 130, stopped.stderr);
    assert.equal(existsSync(join(ctx.agxHome, 'interrupted', 'pending-login.json')), true);
  });

  it('logout with the directory unreachable keeps the key (exit 4); --local forgets it', async () => {
    const gone = { ...env, AGX_API_URL: 'http://127.0.0.1:9' };
    const cred = join(ctx.agxHome, 'blocking', 'credentials.json');
    // the stored key is revoked at the origin it was issued for: move that origin away
    const entry = JSON.parse(readFileSync(cred, 'utf8'));
    writeFileSync(cred, JSON.stringify({ ...entry, apiBaseUrl: 'http://127.0.0.1:9' }), { mode: 0o600 });
    const r = await agx(['logout', '--profile', 'blocking'], { env: gone });
    assert.equal(r.code, 4, r.stderr);
    assert.match(r.stderr, /the key was kept/);
    assert.match(r.stderr, /logout --local/);
    assert.equal(existsSync(cred), true);
    const local = await agx(['logout', '--profile', 'blocking', '--local', '--json'], { env: gone });
    assert.equal(local.code, 0, local.stderr);
    assert.equal(lastJson(local.stdout).loggedOut[0].reason, 'not-revoked-local');
    assert.equal(existsSync(cred), false);
  });

  it('no key or device code ever reached stdout or stderr', () => {
    const all = transcript.join('\n');
    assert.ok(dir.keys.length >= 2);
    for (const k of dir.keys) assert.equal(all.includes(k.key), false, 'an API key was printed');
    for (const c of dir.codes) assert.equal(all.includes(c.deviceCode), false, 'a device code was printed');
  });
});

describe('cli directory: config', () => {
  let ctx;
  before(() => (ctx = cliEnv('ws://127.0.0.1:9')));
  after(() => ctx.cleanup());

  it("--help lists every command of the overview's table", async () => {
    const help = (await agx(['--help'], { env: ctx.env })).stdout;
    for (const name of ['config', 'identity', 'register', 'listing', 'domain', 'search', 'peers', 'serve', 'send', 'request', 'card', 'relay', 'doctor', 'login', 'logout', 'whoami', 'org'])
      assert.match(help, new RegExp(`^  ${name} `, 'm'), name);
    for (const sub of ['use', 'list', 'sign', 'set-visibility', 'set-policy', 'verify', 'allowlist', 'block', 'AGX_API_URL', 'AGX_API_KEY', 'AGX_ORG']) assert.match(help, new RegExp(sub), sub);
  });

  it('apiBaseUrl: https, or http on loopback only; no credentials, query or fragment (exit 2)', async () => {
    const env = { ...ctx.env };
    delete env.AGX_API_URL;
    for (const bad of ['http://example.com', 'ftp://example.com', 'https://user:pw@example.com', 'https://example.com/?x=1', 'not a url']) {
      const r = await agx(['config', 'set', 'apiBaseUrl', bad], { env });
      assert.equal(r.code, 2, bad);
      assert.doesNotMatch(r.stderr, /pw@/);
    }
    const ok = await agx(['config', 'set', 'apiBaseUrl', 'https://dir.example.org/'], { env });
    assert.equal(ok.code, 0, ok.stderr);
    assert.equal(lastJson((await agx(['config', 'show', '--json'], { env })).stdout).apiBaseUrl, 'https://dir.example.org');
    assert.equal((await agx(['config', 'set', 'orgSlug', 'Not A Slug'], { env })).code, 2);
    assert.equal((await agx(['config', 'set', 'orgSlug', 'acme-robotics'], { env })).code, 0);
    const shown = lastJson((await agx(['config', 'show', '--json'], { env: { ...env, AGX_ORG: 'env-org' } })).stdout);
    assert.equal(shown.orgSlug, 'env-org');
    assert.equal(shown.orgSlugSource, 'AGX_ORG');
  });

  it('apiKey: never from argv (exit 2), from stdin or --file into credentials.json (0600), bound to the origin', async () => {
    const env = { ...ctx.env, AGX_API_URL: 'https://dir.example.org' };
    const key = `ela_${'k'.repeat(64)}`;
    const argv = await agx(['config', 'set', 'apiKey', key], { env });
    assert.equal(argv.code, 2);
    assert.equal(argv.stderr.includes(key), false);
    assert.equal(existsSync(join(ctx.agxHome, 'default', 'credentials.json')), false);
    const piped = await agx(['config', 'set', 'apiKey'], { env, input: key });
    assert.equal(piped.code, 0, piped.stderr);
    const file = join(ctx.agxHome, 'default', 'credentials.json');
    assert.equal(mode(file), 0o600);
    assert.equal(JSON.parse(readFileSync(file, 'utf8')).apiBaseUrl, 'https://dir.example.org');
    assert.equal(JSON.parse(readFileSync(join(ctx.agxHome, 'default', 'config.json'), 'utf8')).apiKey, undefined);
    const keyFile = join(ctx.home, 'key.txt');
    writeFileSync(keyFile, `${key}x\n`);
    assert.equal((await agx(['config', 'set', 'apiKey', '--file', keyFile, '--profile', 'filed'], { env })).code, 0);
    assert.equal(JSON.parse(readFileSync(join(ctx.agxHome, 'filed', 'credentials.json'), 'utf8')).apiKey, `${key}x`);
    const bad = await agx(['config', 'set', 'apiKey'], { env, input: 'two words' });
    assert.equal(bad.code, 2);
    const shown = await agx(['config', 'show'], { env });
    assert.match(shown.stdout, /apiKey +ela_kk… from manual, for https:\/\/dir\.example\.org/);
    assert.equal((shown.stdout + shown.stderr).includes(key), false);
  });

  it('use and list: the default profile when neither --profile nor AGX_PROFILE is given', async () => {
    const env = { ...ctx.env };
    const r = await agx(['config', 'use', 'work', '--json'], { env });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(lastJson(r.stdout), { profile: 'work', created: true });
    assert.equal(lastJson((await agx(['config', 'path', '--json'], { env })).stdout).profile, 'work');
    assert.equal(lastJson((await agx(['config', 'path', '--json'], { env: { ...env, AGX_PROFILE: 'default' } })).stdout).profile, 'default');
    assert.equal(lastJson((await agx(['config', 'path', '--json', '--profile', 'filed'], { env })).stdout).profile, 'filed');
    const list = lastJson((await agx(['config', 'list', '--json'], { env })).stdout);
    assert.equal(list.current, 'work');
    assert.deepEqual(list.profiles, ['default', 'filed', 'work']);
    assert.match((await agx(['config', 'list'], { env })).stdout, /^\* work/m);
    assert.equal((await agx(['config', 'use', '../evil'], { env })).code, 2);
  });
});

describe('cli directory: register, listing, domain, search, peers, identity sign', () => {
  let ctx;
  let dir;
  let env;
  let login; // a login key (scoped), as agx login stores it
  let settingsEnv; // an unscoped Settings key through AGX_API_KEY
  let npub;
  before(async () => {
    ctx = cliEnv('wss://relay.example.com,ws://127.0.0.1:7447');
    dir = await startDirectoryServer();
    env = envFor(ctx, dir);
    login = dir.addKey({ scoped: true, scopes: CONTRACT.scopes, clientId: 'agx', expiresAt: '2099-01-01T00:00:00.000Z', name: 'agx-test' });
    const dirProfile = join(ctx.agxHome, 'default');
    assert.equal((await agx(['identity', 'new', '--json'], { env })).code, 0);
    npub = lastJson((await agx(['identity', 'show', '--json'], { env })).stdout).npub;
    writeFileSync(
      join(dirProfile, 'credentials.json'),
      JSON.stringify({ apiBaseUrl: dir.origin, apiKey: login.key, apiKeyId: login.id, source: 'login', clientId: 'agx', organization: login.organization, user: { id: 'u_1', email: 'a•••@acme.com' }, scopes: CONTRACT.scopes, expiresAt: login.expiresAt, createdAt: new Date().toISOString() }),
      { mode: 0o600 },
    );
    settingsEnv = { ...env, AGX_API_KEY: dir.addKey().key, AGX_ORG: 'acme-robotics' };
  });
  after(async () => {
    await dir.close();
    ctx.cleanup();
  });

  it('identity sign: a proof event that verifies with nostr-tools, for the profile\'s key, good for nothing else', async () => {
    const nonce = 'n0nce_-ABCdef1234567890';
    const r = await agx(['identity', 'sign', nonce], { env });
    assert.equal(r.code, 0, r.stderr);
    const ev = JSON.parse(r.stdout);
    assert.equal(verifyEvent(ev), true);
    assert.equal(nip19.npubEncode(ev.pubkey), npub);
    assert.equal(ev.content, `agent-index proof ${nonce}`);
    assert.equal(ev.kind, 27235); // ephemeral; no u/method tags, so no NIP-98 server takes it
    assert.deepEqual(ev.tags, []);
    for (const bad of ['short', 'has space in it 1234567', 'x'.repeat(257), '<script>alert(1)</script>']) assert.equal((await agx(['identity', 'sign', bad], { env })).code, 2, bad);
  });

  it('identity sign --bunker -: a NIP-46 remote signer signs (the URI from stdin; its secret never printed)', async () => {
    const relay = await startDevRelay({ memory: true });
    const user = nostr.LocalSigner.generate();
    const bunker = await nostr.startBunker({ signer: user, relays: [relay.url], secret: 'bunker-secret-0123456789', authorize: () => true });
    try {
      const r = await agx(['identity', 'sign', 'nonce-from-the-submit-page', '--bunker', '-', '--profile', 'remote'], { env, input: bunker.bunkerUri });
      assert.equal(r.code, 0, r.stderr);
      const ev = JSON.parse(r.stdout);
      assert.equal(ev.pubkey, user.publicKey);
      assert.equal(verifyEvent(ev), true);
      assert.equal((r.stdout + r.stderr).includes('bunker-secret-0123456789'), false);
      assert.equal(existsSync(join(ctx.agxHome, 'remote', 'key')), false);
    } finally {
      await bunker.stop();
      user.dispose();
      await relay.close();
    }
  });

  it('register: challenge, signed proof (checked by the directory with nostr-tools), draft listing; again: the same listing', async () => {
    const r = await agx(['register', '--slug', 'invoice-desk', '--capability', 'invoice.review', '--json'], { env });
    assert.equal(r.code, 0, r.stderr);
    const out = lastJson(r.stdout);
    assert.equal(out.resumed, false);
    assert.equal(out.listing.npub, npub);
    assert.equal(out.listing.status, 'draft');
    assert.equal(out.listing.source, 'external');
    assert.deepEqual(out.listing.relays, ['wss://relay.example.com']); // the loopback relay is not advertised
    const proof = dir.calls('/api/rpc/agentIndex/submitKeyProof')[0].body.json;
    assert.equal(verifyEvent(proof.signedEvent), true);
    assert.equal(proof.orgSlug, 'acme-robotics');
    assert.equal(proof.pubkey, npub);
    for (const call of dir.requests.filter((q) => q.path.startsWith('/api/rpc/agentIndex/'))) assert.equal(call.body.json.orgSlug, 'acme-robotics');
    assert.equal(dir.requests.every((q) => q.headers['x-api-key'] === login.key && !('authorization' in q.headers)), true);
    const again = await agx(['register', '--slug', 'invoice-desk', '--capability', 'invoice.review', '--json'], { env });
    assert.equal(again.code, 0, again.stderr);
    assert.equal(lastJson(again.stdout).resumed, true);
    assert.equal(lastJson(again.stdout).listing.id, out.listing.id);
    assert.equal(dir.calls('/api/rpc/agentIndex/createListing').length, 1);
    const state = JSON.parse(readFileSync(join(ctx.agxHome, 'default', 'directory.json'), 'utf8'));
    assert.equal(state.listingId, out.listing.id);
  });

  it('doctor checks the directory key and the listing when the profile has them', async () => {
    const r = await agx(['doctor', '--json', '--relay', 'ws://127.0.0.1:9', '--timeout', '1'], { env });
    const checks = lastJson(r.stdout).checks;
    const byName = Object.fromEntries(checks.map((c) => [c.name, c]));
    assert.equal(byName['directory key file'].status, 'ok');
    assert.equal(byName[`directory ${dir.origin}`].status, 'ok');
    assert.match(byName[`directory ${dir.origin}`].detail, /a•••@acme\.com in acme-robotics/);
    assert.equal(byName[`listing ${dir.state.listings[0].id}`].status, 'warn'); // a draft
  });

  it('register: a proof the directory rejects says the challenge is spent; a taken slug is exit 6 naming --slug', async () => {
    dir.queueRpc('agentIndex/getOwnedListingByAddress', rpcPlain(404, 'NOT_FOUND', 'none'));
    dir.queueRpc('agentIndex/submitKeyProof', rpcPlain(403, 'FORBIDDEN', 'The proof does not verify'));
    const r = await agx(['register', '--slug', 'other', '--capability', 'x.y'], { env });
    assert.equal(r.code, 6);
    assert.match(r.stderr, /single-use/);
    dir.queueRpc('agentIndex/getOwnedListingByAddress', rpcPlain(404, 'NOT_FOUND', 'none'));
    dir.queueRpc('agentIndex/createListing', 'LISTING_SLUG_TAKEN');
    const taken = await agx(['register', '--slug', 'other', '--capability', 'x.y', '--json'], { env });
    assert.equal(taken.code, 6);
    assert.equal(lastJson(taken.stdout).error.code, 'LISTING_SLUG_TAKEN');
    assert.match(taken.stderr, /--slug/);
  });

  it('listing publish with a login key: exit 10, the confirmation URL on the directory\'s origin; with a Settings key it is listed and found', async () => {
    const gated = await agx(['listing', 'publish', '--visibility', 'public', '--json'], { env });
    assert.equal(gated.code, 10, gated.stderr);
    const a = lastJson(gated.stdout).actionRequired;
    const id = dir.state.listings[0].id;
    assert.deepEqual(a, { reason: 'HUMAN_CONFIRMATION_REQUIRED', url: `${dir.origin}/elladex/listings/${id}?org=acme-robotics`, userCode: null, expiresIn: null, listingId: id });
    const text = await agx(['listing', 'publish'], { env });
    assert.equal(text.code, 10);
    assert.match(text.stderr, new RegExp(`${dir.origin.replace(/[.]/g, '\\.')}/elladex/listings/${id}`));
    const pub = await agx(['listing', 'publish', id, '--json'], { env: settingsEnv });
    assert.equal(pub.code, 0, pub.stderr);
    assert.equal(lastJson(pub.stdout).listing.status, 'listed');
    const found = lastJson((await agx(['search', 'invoice', '--capability', 'invoice.review', '--json'], { env })).stdout);
    assert.equal(found.total, 1);
    assert.equal(found.listings[0].npub, npub);
    const none = await agx(['search', 'nothing-like-this'], { env });
    assert.match(none.stdout, /^0 results/);
  });

  it('listing list, get, set-visibility, set-policy, delist, delete (--yes required)', async () => {
    const id = dir.state.listings[0].id;
    const list = lastJson((await agx(['listing', 'list', '--json'], { env })).stdout);
    assert.deepEqual(list.listings.map((l) => l.id), [id]);
    assert.equal(lastJson((await agx(['listing', 'get', '--json'], { env })).stdout).listing.id, id);
    const vis = await agx(['listing', 'set-visibility', 'unlisted', '--json'], { env });
    assert.equal(vis.code, 0, vis.stderr);
    assert.equal(lastJson(vis.stdout).listing.visibility, 'unlisted');
    assert.equal((await agx(['listing', 'set-visibility', 'everyone'], { env })).code, 2);
    const policy = await agx(['listing', 'set-policy', '--auto-allow', '--capability', 'invoice.review', '--daily-cap', '5', '--json'], { env });
    assert.equal(policy.code, 0, policy.stderr);
    assert.deepEqual(dir.calls('/api/rpc/agentIndex/updateListing').at(-1).body.json, { orgSlug: 'acme-robotics', listingId: id, autoAllowContact: true, autoAllowCapabilities: ['invoice.review'], autoAllowDailyCap: 5 });
    const delist = await agx(['listing', 'delist', '--json'], { env });
    assert.equal(lastJson(delist.stdout).listing.status, 'delisted');
    assert.equal(lastJson(delist.stdout).cardRetractionRequested, true);
    assert.equal((await agx(['listing', 'delete'], { env })).code, 2);
    assert.equal((await agx(['listing', 'delete', '--yes'], { env })).code, 0);
    assert.equal(dir.state.listings.length, 0);
    const gone = await agx(['listing', 'get', id, '--json'], { env });
    assert.equal(gone.code, 7);
    assert.equal(lastJson(gone.stdout).error.code, 'DIRECTORY_NOT_FOUND');
  });

  it('listing create --pubkey needs a recorded proof (403, exit 6); --team creates a team listing', async () => {
    const other = nip19.npubEncode(getPublicKey(new Uint8Array(32).fill(3)));
    const r = await agx(['listing', 'create', '--slug', 'stranger', '--pubkey', other], { env });
    assert.equal(r.code, 6);
    assert.match(r.stderr, /Prove possession/);
    const team = await agx(['listing', 'create', '--slug', 'payables', '--team', 't_1', '--capability', 'pay.run', '--json'], { env });
    assert.equal(team.code, 0, team.stderr);
    assert.equal(lastJson(team.stdout).listing.source, 'platform');
    assert.equal((await agx(['listing', 'create', '--slug', 'x', '--team', 't', '--pubkey', other], { env })).code, 2);
  });

  it('domain add prints the exact nostr.json for the profile\'s key; list, verify, remove', async () => {
    const pubkey = lastJson((await agx(['identity', 'show', '--json'], { env })).stdout).pubkey;
    const r = await agx(['domain', 'add', 'acme.example.com', '--handle', 'invoice-desk', '--json'], { env });
    assert.equal(r.code, 0, r.stderr);
    const out = lastJson(r.stdout);
    assert.deepEqual(out.nostrJson, {
      url: 'https://acme.example.com/.well-known/nostr.json?name=invoice-desk',
      path: '/.well-known/nostr.json',
      body: { names: { 'invoice-desk': pubkey } },
    });
    const id = out.domain.id;
    assert.equal((await agx(['domain', 'add', 'localhost'], { env })).code, 2);
    assert.equal(lastJson((await agx(['domain', 'list', '--json'], { env })).stdout).domains[0].domain, 'acme.example.com');
    const unverified = await agx(['domain', 'verify', id, '--json'], { env });
    assert.equal(unverified.code, 0);
    assert.equal(lastJson(unverified.stdout).domain.verified, false);
    dir.state.domains[0].willVerify = true;
    const verified = await agx(['domain', 'verify', id, '--wait', '--json'], { env });
    assert.equal(verified.code, 0, verified.stderr);
    assert.equal(lastJson(verified.stdout).domain.verified, true);
    assert.equal((await agx(['domain', 'remove', id], { env })).code, 2);
    assert.equal((await agx(['domain', 'remove', id, '--yes'], { env })).code, 0);
    assert.equal(dir.state.domains.length, 0);
  });

  it('peers with a login key: INSUFFICIENT_SCOPE, exit 9 with the Settings-key remedy; with a Settings key every decision', async () => {
    const scoped = await agx(['peers', 'list', '--team', 't_1', '--json'], { env });
    assert.equal(scoped.code, 9);
    assert.equal(lastJson(scoped.stdout).error.code, 'INSUFFICIENT_SCOPE');
    assert.match(lastJson(scoped.stdout).error.remediation, /config set apiKey/);
    const peer = nip19.npubEncode(getPublicKey(new Uint8Array(32).fill(4)));
    const allowed = await agx(['peers', 'allowlist', '--team', 't_1', '--npub', peer, '--name', 'Acme AP', '--json'], { env: settingsEnv });
    assert.equal(allowed.code, 0, allowed.stderr);
    assert.equal(lastJson(allowed.stdout).status, 'allowed');
    const list = lastJson((await agx(['peers', 'list', '--team', 't_1', '--json'], { env: settingsEnv })).stdout).peers;
    assert.equal(list.length, 1);
    const peerId = list[0].id;
    for (const [cmd, status] of [['block', 'blocked'], ['ignore', 'ignored'], ['accept', 'allowed']]) {
      const r = await agx(['peers', cmd, '--team', 't_1', '--peer', peerId, '--json'], { env: settingsEnv });
      assert.equal(r.code, 0, r.stderr);
      assert.equal(lastJson(r.stdout).status, status);
    }
    assert.equal((await agx(['peers', 'refuse', '--team', 't_1', '--peer', peerId], { env: settingsEnv })).code, 2); // --reason required
    const refused = await agx(['peers', 'refuse', '--team', 't_1', '--peer', peerId, '--reason', 'not now', '--json'], { env: settingsEnv });
    assert.equal(lastJson(refused.stdout).status, 'refused');
    assert.equal((await agx(['peers', 'list'], { env: settingsEnv })).code, 2); // --team required
  });

  it('an organization other than the login\'s is refused before sending (exit 9); AGX_ORG and --org are sent as orgSlug', async () => {
    const before = dir.requests.length;
    const r = await agx(['listing', 'list', '--org', 'other-org'], { env });
    assert.equal(r.code, 9);
    assert.equal(dir.requests.length, before);
    const viaEnv = await agx(['listing', 'list', '--json'], { env: { ...settingsEnv, AGX_ORG: 'other-org' } });
    assert.equal(viaEnv.code, 6); // the directory: this key has no access to other-org
    assert.equal(dir.requests.at(-1).body.json.orgSlug, 'other-org');
  });

  it('no key was printed', () => {
    const all = transcript.join('\n');
    for (const k of dir.keys) assert.equal(all.includes(k.key), false);
  });
});

describe('cli directory: every documented error body, redirects, rate limits, an unreachable directory', () => {
  let ctx;
  let dir;
  let env;
  let key;
  before(async () => {
    ctx = cliEnv('ws://127.0.0.1:9');
    dir = await startDirectoryServer();
    key = dir.addKey();
    env = envFor(ctx, dir, { AGX_API_KEY: key.key, AGX_ORG: 'acme-robotics' });
  });
  after(async () => {
    await dir.close();
    ctx.cleanup();
  });

  // The contract's §1.7 table, in our exit codes (README "Exit codes").
  const EXPECTED = {
    HUMAN_CONFIRMATION_REQUIRED: 10,
    TERMS_ACCEPTANCE_REQUIRED: 10,
    INSUFFICIENT_SCOPE: 9,
    API_KEY_INVALID: 9,
    API_KEY_EXPIRED: 9,
    API_KEY_DISABLED: 9,
    API_KEY_RATE_LIMITED: 6,
    API_KEY_USAGE_EXCEEDED: 6,
    API_KEY_OWNER_NOT_MEMBER: 9,
    API_KEY_SELF_REVOKE_ONLY: 6,
    LISTING_SLUG_TAKEN: 6,
    LISTING_ADDRESS_LIVE: 6,
  };

  it('each rpcErrors body of the fixture: its exit code, its data.code, a remediation', async () => {
    assert.deepEqual(Object.keys(EXPECTED).sort(), Object.keys(CONTRACT.rpcErrors).sort());
    for (const name of Object.keys(CONTRACT.rpcErrors)) {
      dir.queueRpc('agentIndex/searchListings', name);
      const r = await agx(['search', 'x', '--json'], { env });
      assert.equal(r.code, EXPECTED[name], `${name}: ${r.stderr}`);
      const out = lastJson(r.stdout);
      assert.equal(out.error.code, name);
      assert.equal(typeof out.error.remediation, 'string', name);
      assert.ok(r.stderr.split('\n').length >= 3, `${name}: the remediation follows the message`);
    }
  });

  it('the URL a person is sent to is only ever on the configured origin (or, for the Terms, its site)', async () => {
    const cases = [
      ['HUMAN_CONFIRMATION_REQUIRED', '/elladex/listings/l_7?org=acme-robotics', `${dir.origin}/elladex/listings/l_7?org=acme-robotics`],
      ['HUMAN_CONFIRMATION_REQUIRED', 'https://evil.example/phish', `${dir.origin}/elladex`],
      ['HUMAN_CONFIRMATION_REQUIRED', '//evil.example/phish', `${dir.origin}/elladex`],
      ['HUMAN_CONFIRMATION_REQUIRED', 'javascript:alert(1)', `${dir.origin}/elladex`],
      ['HUMAN_CONFIRMATION_REQUIRED', `${dir.origin.replace('http://', 'http://user:pw@')}/x`, `${dir.origin}/x`],
      ['TERMS_ACCEPTANCE_REQUIRED', CONTRACT.rpcErrors.TERMS_ACCEPTANCE_REQUIRED.body.json.data.url, `${dir.origin}/elladex`], // not the site of 127.0.0.1
      ['TERMS_ACCEPTANCE_REQUIRED', undefined, `${dir.origin}/elladex`],
    ];
    for (const [name, url, expected] of cases) {
      const body = rpcFixture(name);
      if (url === undefined) delete body.body.json.data.url;
      else body.body.json.data.url = url;
      dir.queueRpc('agentIndex/searchListings', body);
      const r = await agx(['search', 'x', '--json'], { env });
      assert.equal(r.code, 10);
      assert.equal(lastJson(r.stdout).actionRequired.url, expected, `${name} ${url}`);
      assert.doesNotMatch(r.stdout + r.stderr, /evil\.example|javascript:|pw@/);
    }
  });

  it('rate limits: data.retryAfterMs or the Retry-After header become retryAfter (seconds) and the message', async () => {
    dir.queueRpc('agentIndex/searchListings', 'API_KEY_RATE_LIMITED'); // retryAfterMs 1234
    const a = await agx(['search', 'x', '--json'], { env });
    assert.equal(a.code, 6);
    assert.equal(lastJson(a.stdout).error.retryAfter, 2);
    assert.match(a.stderr, /retry after 2 s/);
    dir.queueRpc('agentIndex/searchListings', { ...rpcPlain(429, 'TOO_MANY_REQUESTS', 'slow down'), headers: { 'Retry-After': '42' } });
    const b = await agx(['search', 'x', '--json'], { env });
    assert.equal(b.code, 6);
    assert.equal(lastJson(b.stdout).error.retryAfter, 42);
    assert.match(b.stderr, /Wait 42 s/);
  });

  it("whoami with the fixture's other principal bodies: a Settings key (unscoped) and a browser session", async () => {
    dir.queueRpc('account/principal/get', { status: 200, body: { json: structuredClone(CONTRACT.principal.legacyKeyOutput) } });
    const legacy = lastJson((await agx(['whoami', '--json'], { env })).stdout);
    assert.deepEqual(legacy.apiKey, { id: 'k_legacy', name: 'Settings key', scoped: false, scopes: [], clientId: null, hostLabel: null, expiresAt: null });
    assert.equal(legacy.source, 'AGX_API_KEY');
    dir.queueRpc('account/principal/get', { status: 200, body: { json: structuredClone(CONTRACT.principal.sessionOutput) } });
    const session = await agx(['whoami'], { env });
    assert.equal(session.code, 0, session.stderr);
    assert.match(session.stdout, /organization +-\n/);
    assert.match(session.stdout, /scopes +full access \(unscoped key\)/);
  });

  it('a newer server\'s unknown data.code falls back to its status; an HTML 200 is not a result', async () => {
    dir.queueRpc('agentIndex/searchListings', { status: 403, body: { json: { defined: false, code: 'FORBIDDEN', status: 403, message: 'Newer rule', data: { code: 'SOMETHING_NEW' } } } });
    assert.equal((await agx(['search', 'x'], { env })).code, 6);
    dir.queueRpc('agentIndex/searchListings', { status: 200, raw: '<html>hi</html>', headers: { 'Content-Type': 'text/html' } });
    const html = await agx(['search', 'x', '--json'], { env });
    assert.equal(html.code, 6);
    assert.equal(lastJson(html.stdout).error.code, 'DIRECTORY_BAD_RESPONSE');
  });

  it('a 3xx is refused and the key is not sent on', async () => {
    const seen = [];
    const evil = createServer((req, res) => (seen.push(req.headers), res.end('{"json":{"listings":[],"total":0}}')));
    await new Promise((r) => evil.listen(0, '127.0.0.1', r));
    try {
      dir.redirectTo(`http://127.0.0.1:${evil.address().port}`);
      for (const args of [['search', 'x', '--json'], ['whoami', '--json']]) {
        const r = await agx(args, { env });
        assert.equal(r.code, 6, r.stderr);
        assert.equal(lastJson(r.stdout).error.code, 'DIRECTORY_REDIRECT');
      }
      const login = await agx(['login', '--profile', 'redirected', '--json'], { env: { ...env, AGX_API_KEY: undefined } });
      assert.equal(login.code, 6);
      assert.equal(seen.length, 0);
    } finally {
      dir.redirectTo(null);
      evil.close();
    }
  });

  it('an unreachable directory: exit 4, DIRECTORY_UNREACHABLE, with the remediation', async () => {
    const gone = { ...env, AGX_API_URL: 'http://127.0.0.1:9' };
    for (const args of [['search', 'x', '--json'], ['login', '--no-wait', '--json', '--profile', 'offline']]) {
      const r = await agx(args, { env: args[0] === 'login' ? { ...gone, AGX_API_KEY: '' } : gone });
      assert.equal(r.code, 4, `${args[0]}: ${r.stderr}`);
      const e = lastJson(r.stdout).error;
      assert.equal(e.code, 'DIRECTORY_UNREACHABLE');
      assert.match(e.remediation, /(Start the directory|directory address)/);
    }
  });

  it('a server that echoes the key in an error message: the key is shown as [REDACTED]', async () => {
    dir.queueRpc('agentIndex/searchListings', rpcPlain(400, 'BAD_REQUEST', `bad header X-API-Key: ${key.key}`));
    const r = await agx(['search', 'x', '--json'], { env });
    assert.equal(r.code, 6);
    assert.equal((r.stdout + r.stderr).includes(key.key), false);
    assert.match(r.stderr, /\[REDACTED\]/);
  });

  it('without a directory configured, directory commands say how to log in (exit 3), and the others do not care', async () => {
    const bare = { ...ctx.env };
    delete bare.AGX_API_URL;
    const r = await agx(['listing', 'list', '--profile', 'fresh'], { env: bare });
    assert.equal(r.code, 3);
    assert.match(r.stderr, /agx login/);
    assert.equal((await agx(['identity', 'new', '--profile', 'fresh'], { env: bare })).code, 0);
    assert.equal((await agx(['config', 'show', '--profile', 'fresh'], { env: bare })).code, 0);
  });

  it('no key was printed', () => {
    const all = transcript.join('\n');
    for (const k of dir.keys) assert.equal(all.includes(k.key), false);
  });
});
