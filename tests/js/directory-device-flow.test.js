// The directory login's device flow (js/cli/directory-device-flow.js) against the test directory
// server (tests/support/directory-server.js, written from the login contract's fixture) over real
// HTTP on 127.0.0.1. Client and server share a manual clock: sleeps advance it instead of waiting,
// so intervals of 5 to 30 s cost nothing and the spacing of every poll is asserted exactly.
import { describe, it, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { CONTRACT, startDirectoryServer } from '../support/directory-server.js';
import { EXIT } from '../../js/cli/common.js';
import { CLIENT_ID, DEVICE_GRANT_TYPE, SCOPES, pollDeviceToken, requestDeviceCode } from '../../js/cli/directory-device-flow.js';
import { actionUrl } from '../../js/cli/directory-api.js';

function manualClock(start = Date.parse('2026-09-30T18:00:00Z')) {
  const clock = {
    t: start,
    sleeps: [],
    now: () => clock.t,
    sleep: async (ms) => {
      clock.sleeps.push(ms);
      clock.t += ms;
    },
    fetch: (...args) => fetch(...args),
  };
  return clock;
}

const request = { hostLabel: 'test-host' };

describe('directory login: device code (§1.2)', () => {
  let clock;
  let dir;
  beforeEach(async () => {
    await dir?.close();
    clock = manualClock();
    dir = await startDirectoryServer({ now: clock.now });
  });
  after(() => dir?.close());

  it('sends client_id, the four scopes and the host label; keeps the answer as a pending login', async () => {
    const pending = await requestDeviceCode(dir.origin, { ...request, orgHint: 'acme-robotics' }, clock);
    const sent = dir.calls('/api/auth/device/code')[0];
    assert.deepEqual(Object.keys(CONTRACT.deviceCode.request).sort(), ['client_id', 'host_label', 'scope']);
    assert.equal(sent.body.client_id, CLIENT_ID);
    assert.equal(sent.body.scope, CONTRACT.deviceCode.request.scope);
    assert.deepEqual(SCOPES, CONTRACT.scopes);
    assert.equal(sent.body.host_label, 'test-host');
    assert.equal(sent.body.org_hint, 'acme-robotics');
    assert.equal(sent.headers['content-type'], 'application/json');
    assert.match(pending.userCode, new RegExp(CONTRACT.userCodePattern));
    assert.equal(pending.userCode, CONTRACT.deviceCode.response.user_code);
    assert.equal(pending.verificationUriComplete, `${dir.origin}/auth/device?code=${pending.userCode}`);
    assert.equal(pending.interval, CONTRACT.deviceCode.response.interval);
    assert.equal(Date.parse(pending.expiresAt) - clock.now(), CONTRACT.deviceCode.response.expires_in * 1000);
    assert.equal(pending.deviceCode, dir.codes[0].deviceCode);
  });

  it('stops before showing a code when the server does not echo the scope (it would mint an unscoped key)', async () => {
    const legacy = await startDirectoryServer({ now: clock.now, omitScopeEcho: true });
    try {
      await assert.rejects(requestDeviceCode(legacy.origin, request, clock), (e) => e.exitCode === EXIT.PEER && e.code === 'DIRECTORY_UNSCOPED_LOGIN');
    } finally {
      await legacy.close();
    }
  });

  it('stops before showing a code when the verification page is on another origin', async () => {
    const foreign = await startDirectoryServer({ now: clock.now, verificationOrigin: 'https://evil.example' });
    try {
      await assert.rejects(requestDeviceCode(foreign.origin, request, clock), (e) => e.exitCode === EXIT.PEER && e.code === 'DIRECTORY_FOREIGN_PAGE' && !e.message.includes('evil'));
    } finally {
      await foreign.close();
    }
  });

  it('every documented error body: rate_limited quotes Retry-After, server_error is the network, the rest are refusals', async () => {
    const errors = CONTRACT.deviceCode.errors;
    for (const [name, response] of Object.entries(errors)) {
      dir.queueCode(structuredClone(response));
      const e = await requestDeviceCode(dir.origin, request, clock).then(
        () => assert.fail(`${name} resolved`),
        (x) => x,
      );
      if (name === 'rate_limited') {
        assert.equal(e.exitCode, EXIT.PEER);
        assert.equal(e.retryAfter, 60);
        assert.match(e.message, /retry after 60 s/);
      } else if (name === 'server_error') assert.equal(e.exitCode, EXIT.RELAY, name);
      else {
        assert.equal(e.exitCode, EXIT.PEER, name);
        assert.match(e.message, new RegExp(`\\(${response.body.error}`));
      }
    }
  });

  it('server text is escaped: control characters in error_description never reach the terminal', async () => {
    dir.queueCode({ status: 400, body: { error: 'invalid_request', error_description: 'bad\x1b[2J\x1b]0;owned\x07 org' } });
    await assert.rejects(requestDeviceCode(dir.origin, request, clock), (e) => !/[\x00-\x1f]/.test(e.message) && e.message.includes('\\x1b[2J'));
  });

  it('an unreachable server is EXIT.RELAY with a remediation; a 3xx is refused (EXIT.PEER)', async () => {
    await assert.rejects(requestDeviceCode('http://127.0.0.1:9', request, clock), (e) => e.exitCode === EXIT.RELAY && e.code === 'DIRECTORY_UNREACHABLE' && /agx login/.test(e.remediation));
    dir.queueCode({ status: 302, headers: { Location: 'https://evil.example/code' }, raw: '' });
    await assert.rejects(requestDeviceCode(dir.origin, request, clock), (e) => e.exitCode === EXIT.PEER && e.code === 'DIRECTORY_REDIRECT');
  });
});

describe('directory login: polling for the token (§1.3)', () => {
  let clock;
  let dir;
  let pending;
  let saved;
  const poll = (opts = {}) => pollDeviceToken(dir.origin, pending, { persist: (p) => saved.push(p), ...opts }, clock);
  const tokenCalls = () => dir.calls('/api/auth/device/token');

  beforeEach(async () => {
    await dir?.close();
    clock = manualClock();
    dir = await startDirectoryServer({ now: clock.now });
    pending = await requestDeviceCode(dir.origin, request, clock);
    saved = [];
  });
  after(() => dir?.close());

  it('authorization_pending twice, then approved: one poll per interval, the §1.3 body, the key once', async () => {
    dir.onTokenPoll = () => tokenCalls().length === 3 && dir.approve();
    const r = await poll();
    assert.equal(r.kind, 'approved');
    assert.deepEqual(clock.sleeps, [5000, 5000, 5000]);
    for (const call of tokenCalls()) assert.deepEqual(call.body, { grant_type: DEVICE_GRANT_TYPE, device_code: pending.deviceCode, client_id: CLIENT_ID });
    assert.equal(r.token.access_token, dir.keys[0].key);
    assert.deepEqual(Object.keys(r.token).sort(), Object.keys(CONTRACT.deviceToken.success).sort());
    assert.deepEqual(r.token.organization, CONTRACT.deviceToken.success.organization);
    assert.equal(saved.length, 3); // lastPolledAt persisted before each poll
    // exactly once: the same code again is "already used"
    await assert.rejects(pollDeviceToken(dir.origin, pending, {}, clock), (e) => e.exitCode === EXIT.AUTH && e.code === 'invalid_grant');
  });

  it('slow_down raises the interval to the answer\'s, else by 5 s, and never lowers it', async () => {
    dir.queueToken(structuredClone(CONTRACT.deviceToken.errors.slow_down)); // interval 10
    dir.queueToken(structuredClone(CONTRACT.deviceToken.errors.slow_down_firewall)); // no interval: +5
    dir.queueToken({ status: 400, body: { error: 'slow_down', interval: 2 } }); // lower: ignored
    dir.onTokenPoll = () => tokenCalls().length === 4 && dir.approve();
    const r = await poll();
    assert.equal(r.kind, 'approved');
    assert.deepEqual(clock.sleeps, [5000, 10000, 15000, 15000]);
    assert.equal(saved.at(-1).interval, 15);
  });

  it('the server\'s own pacing: a poll sooner than the interval gets slow_down with the grown interval', async () => {
    const first = await pollDeviceToken(dir.origin, pending, { once: true }, clock);
    assert.equal(first.kind, 'pending');
    // a second client ignoring lastPolledAt polls again right away
    const again = await pollDeviceToken(dir.origin, { ...first.pending, lastPolledAt: null, createdAt: new Date(clock.now() - 5000).toISOString() }, { once: true }, clock);
    assert.equal(again.kind, 'pending');
    assert.equal(again.pending.interval, 10);
    assert.equal(dir.codes[0].interval, 10);
  });

  it('expired_token from the server: EXIT.TIMEOUT, and the code is not polled again', async () => {
    dir.onTokenPoll = () => tokenCalls().length === 2 && dir.expire();
    await assert.rejects(poll(), (e) => e.exitCode === EXIT.TIMEOUT && e.code === 'expired_token' && /agx login/.test(e.remediation));
    assert.equal(tokenCalls().length, 2);
    dir.queueToken(structuredClone(CONTRACT.deviceToken.errors.approved_by_older_page));
    await assert.rejects(pollDeviceToken(dir.origin, { ...pending, lastPolledAt: null }, {}, clock), (e) => e.code === 'expired_token');
  });

  it('past the code\'s lifetime on our own clock: stops without asking the server again', async () => {
    dir.onTokenPoll = () => (clock.t += 1800 * 1000);
    await assert.rejects(poll(), (e) => e.exitCode === EXIT.TIMEOUT && e.code === 'expired_token');
    assert.equal(tokenCalls().length, 1);
  });

  it('access_denied (denied in the browser, or the approver lost access): EXIT.AUTH', async () => {
    dir.onTokenPoll = () => dir.deny();
    await assert.rejects(poll(), (e) => e.exitCode === EXIT.AUTH && e.code === 'access_denied');
    dir.queueToken(structuredClone(CONTRACT.deviceToken.errors.approver_lost_access));
    await assert.rejects(pollDeviceToken(dir.origin, { ...pending, lastPolledAt: null }, {}, clock), (e) => e.exitCode === EXIT.AUTH);
  });

  it('every other documented token error: invalid_grant is EXIT.AUTH, the protocol errors are refusals (EXIT.PEER)', async () => {
    for (const name of ['invalid_grant', 'already_used', 'invalid_request', 'invalid_client', 'unsupported_grant_type']) {
      dir.queueToken(structuredClone(CONTRACT.deviceToken.errors[name]));
      const e = await pollDeviceToken(dir.origin, { ...pending, lastPolledAt: null }, {}, clock).then(() => assert.fail(name), (x) => x);
      assert.equal(e.exitCode, name === 'invalid_grant' || name === 'already_used' ? EXIT.AUTH : EXIT.PEER, name);
    }
  });

  it('429 with Retry-After counts as slow_down and waits out the Retry-After', async () => {
    dir.queueToken({ status: 429, headers: { 'Retry-After': '30' }, body: { error: 'rate_limited' } });
    dir.queueToken({ status: 403, raw: '<html>blocked</html>', headers: { 'Content-Type': 'text/html' } }); // not JSON: as slow_down
    dir.onTokenPoll = () => tokenCalls().length === 3 && dir.approve();
    const r = await poll();
    assert.equal(r.kind, 'approved');
    assert.deepEqual(clock.sleeps, [5000, 30000, 15000]);
  });

  it('5xx backs off (interval * 2^n) and gives up after five in a row with EXIT.RELAY', async () => {
    const err500 = CONTRACT.deviceToken.errors.server_error;
    dir.queueToken(structuredClone(err500));
    dir.queueToken(structuredClone(err500));
    dir.onTokenPoll = () => tokenCalls().length === 3 && dir.approve();
    assert.equal((await poll()).kind, 'approved');
    assert.deepEqual(clock.sleeps, [5000, 10000, 20000]);

    const again = await requestDeviceCode(dir.origin, request, clock);
    dir.onTokenPoll = null;
    for (let i = 0; i < 5; i++) dir.queueToken(structuredClone(err500));
    await assert.rejects(pollDeviceToken(dir.origin, again, {}, clock), (e) => e.exitCode === EXIT.RELAY && e.code === 'DIRECTORY_UNAVAILABLE' && !e.message.includes(again.deviceCode));
  });

  it('a 3xx is refused, never followed', async () => {
    let followed = 0;
    const evil = createServer((req, res) => (followed++, res.end('{}')));
    await new Promise((r) => evil.listen(0, '127.0.0.1', r));
    try {
      dir.queueToken({ status: 307, headers: { Location: `http://127.0.0.1:${evil.address().port}/token` }, raw: '' });
      await assert.rejects(poll(), (e) => e.exitCode === EXIT.PEER && e.code === 'DIRECTORY_REDIRECT');
      assert.equal(followed, 0);
    } finally {
      evil.close();
    }
  });

  it('an approval with a malformed body names the fields, never a value, and stores nothing', async () => {
    dir.queueToken({ status: 200, body: { ...structuredClone(CONTRACT.deviceToken.success), access_token: 'has spaces in it', organization: { id: 'o_1' } } });
    await assert.rejects(poll(), (e) => e.exitCode === EXIT.PEER && /access_token, .*organization/.test(e.message) && !e.message.includes('has spaces'));
  });

  it("the fixture's own success body: its placeholder access_token cannot go in a header, so it is refused", async () => {
    dir.queueToken({ status: 200, body: structuredClone(CONTRACT.deviceToken.success) });
    await assert.rejects(poll(), (e) => e.exitCode === EXIT.PEER && /\(access_token\)/.test(e.message));
  });

  it('the legacy success body (no scope, no expiry) is accepted as a key that never expires', async () => {
    const key = `ela_${'L'.repeat(64)}`;
    dir.queueToken({ status: 200, body: { ...structuredClone(CONTRACT.deviceToken.legacySuccess), access_token: key } });
    const r = await poll();
    assert.equal(r.kind, 'approved');
    assert.equal(r.token.access_token, key);
    assert.equal(r.token.expires_at, null);
    assert.equal(r.token.scope, undefined);
  });

  it('once: reports pending after one poll (for login --no-wait)', async () => {
    const r = await poll({ once: true });
    assert.equal(r.kind, 'pending');
    assert.equal(tokenCalls().length, 1);
    assert.ok(r.pending.lastPolledAt);
  });

  it('an unreachable server while polling: backs off, then EXIT.RELAY; once gives up at the first failure', async () => {
    const gone = { ...pending, lastPolledAt: null };
    await dir.close();
    await assert.rejects(pollDeviceToken(dir.origin, gone, { once: true }, clock), (e) => e.exitCode === EXIT.RELAY && e.code === 'DIRECTORY_UNREACHABLE');
    clock.sleeps.length = 0;
    await assert.rejects(pollDeviceToken(dir.origin, gone, {}, clock), (e) => e.exitCode === EXIT.RELAY && /5 attempts/.test(e.message));
    assert.deepEqual(clock.sleeps, [10000, 20000, 30000, 30000]); // the first poll was due at once
    dir = null;
  });
});

describe('directory: the URL handed to a person (§1.7 "URLs")', () => {
  const base = 'https://app.ellaworks.ai';
  it('relative: resolved against our base; absolute: kept only on our origin, credentials stripped', () => {
    assert.equal(actionUrl('/elladex/listings/l_7?org=acme', base), 'https://app.ellaworks.ai/elladex/listings/l_7?org=acme');
    assert.equal(actionUrl('https://app.ellaworks.ai/x', base), 'https://app.ellaworks.ai/x');
    assert.equal(actionUrl('https://u:p@app.ellaworks.ai/x', base), 'https://app.ellaworks.ai/x');
    for (const bad of ['https://evil.example/x', '//evil.example/x', 'javascript:alert(1)', 'data:text/html,x', 'http://app.ellaworks.ai/x', '', null, 42])
      assert.equal(actionUrl(bad, base), 'https://app.ellaworks.ai/elladex', String(bad));
  });
  it('the Terms alone may be on an https host of the same site', () => {
    const terms = CONTRACT.rpcErrors.TERMS_ACCEPTANCE_REQUIRED.body.json.data.url;
    assert.equal(actionUrl(terms, base, { sameSiteOk: true }), terms);
    assert.equal(actionUrl(terms, base), 'https://app.ellaworks.ai/elladex');
    for (const bad of ['https://ellaworks.ai.evil.example/terms', 'http://www.ellaworks.ai/terms', 'https://notellaworks.ai/terms'])
      assert.equal(actionUrl(bad, base, { sameSiteOk: true }), 'https://app.ellaworks.ai/elladex', bad);
    assert.equal(actionUrl(terms, 'http://127.0.0.1:8080', { sameSiteOk: true }), 'http://127.0.0.1:8080/elladex');
  });
});
