// `listing publish --wait` and `domain verify --wait` against the test directory server, run in
// this process with a manual clock: the 15 s between checks and the --timeout are asserted without
// waiting them out. (The commands' output is captured; the CLI's own process is tested in
// cli-directory.test.js.)
import { describe, it, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CONTRACT, startDirectoryServer } from '../support/directory-server.js';
import { EXIT } from '../../js/cli/common.js';
import { domain, listing } from '../../js/cli/directory.js';

function manualClock(onSleep = () => {}) {
  const clock = { t: Date.parse('2026-09-30T18:00:00Z'), sleeps: [] };
  clock.now = () => clock.t;
  clock.sleep = async (ms) => {
    clock.sleeps.push(ms);
    clock.t += ms;
    onSleep(clock.sleeps.length);
  };
  clock.fetch = (...args) => fetch(...args);
  return clock;
}

/** Runs `fn` with stdout and stderr captured: { result | error, stdout, stderr }. */
async function captured(fn) {
  const out = process.stdout.write;
  const err = process.stderr.write;
  let stdout = '';
  let stderr = '';
  // Strings are the command's; the test runner's own reports (Buffers) pass through.
  process.stdout.write = (s, ...rest) => (typeof s === 'string' ? ((stdout += s), true) : out.call(process.stdout, s, ...rest));
  process.stderr.write = (s, ...rest) => (typeof s === 'string' ? ((stderr += s), true) : err.call(process.stderr, s, ...rest));
  try {
    return { result: await fn(), stdout, stderr };
  } catch (error) {
    return { error, stdout, stderr };
  } finally {
    process.stdout.write = out;
    process.stderr.write = err;
  }
}

describe('directory --wait loops on a manual clock', () => {
  let dir;
  let home;
  let saved;
  let listingId;
  before(async () => {
    saved = { ...process.env };
    home = mkdtempSync(join(tmpdir(), 'nostr-agents-dirwait-'));
  });
  after(() => {
    process.env = saved;
    rmSync(home, { recursive: true, force: true });
  });
  beforeEach(async () => {
    await dir?.close();
    dir = await startDirectoryServer();
    const key = dir.addKey({ scoped: true, scopes: CONTRACT.scopes, clientId: 'agx' }); // a login key: public needs a person
    Object.assign(process.env, { AGX_HOME: home, AGX_API_URL: dir.origin, AGX_API_KEY: key.key, AGX_ORG: 'acme-robotics' });
    delete process.env.AGX_PROFILE;
    dir.state.listings.push({
      id: 'l_7', orgId: 'o_1', slug: 'invoice-desk', displayName: 'Invoice Desk', handle: null, pubkey: 'ab'.repeat(32), npub: 'npub1x', verified: false,
      capabilities: ['invoice.review'], categories: [], visibility: 'private', status: 'draft', source: 'external', relays: [],
    });
    listingId = 'l_7';
  });
  after(() => dir?.close());

  it('publish --wait: the confirmation URL once on stderr, a check every 15 s, done when an admin made it public', async () => {
    const clock = manualClock((n) => n === 2 && Object.assign(dir.state.listings[0], { status: 'listed', visibility: 'public' }));
    const r = await captured(() => listing(['publish', listingId, '--visibility', 'public', '--wait', '--json'], clock));
    assert.equal(r.error, undefined, r.stderr);
    assert.equal(r.result, EXIT.OK);
    assert.deepEqual(clock.sleeps, [15000, 15000]);
    const handoff = r.stderr.split('\n').filter((l) => l.startsWith('{"actionRequired"'));
    assert.equal(handoff.length, 1);
    assert.equal(JSON.parse(handoff[0]).actionRequired.url, `${dir.origin}/elladex/listings/l_7?org=acme-robotics`);
    const out = JSON.parse(r.stdout);
    assert.equal(out.confirmed, true);
    assert.equal(out.listing.status, 'listed');
    assert.deepEqual(dir.requests.map((q) => q.path.replace('/api/rpc/agentIndex/', '')), ['updateListing', 'publishListing', 'getListing', 'getListing']);
  });

  it('publish --wait --timeout: gives up with exit 10 and the actionRequired', async () => {
    const clock = manualClock();
    const r = await captured(() => listing(['publish', listingId, '--visibility', 'public', '--wait', '--timeout', '60'], clock));
    assert.equal(r.error?.exitCode, EXIT.ACTION);
    assert.equal(r.error.actionRequired.reason, 'HUMAN_CONFIRMATION_REQUIRED');
    assert.equal(dir.calls('/api/rpc/agentIndex/getListing').length, 4);
    assert.deepEqual(clock.sleeps, [15000, 15000, 15000, 15000]);
  });

  it('publish without --wait: exit 10 straight away, nothing polled', async () => {
    const clock = manualClock();
    const r = await captured(() => listing(['publish', listingId, '--visibility', 'public'], clock));
    assert.equal(r.error?.exitCode, EXIT.ACTION);
    assert.equal(dir.calls('/api/rpc/agentIndex/getListing').length, 0);
    assert.deepEqual(clock.sleeps, []);
  });

  it('domain verify --wait: every 15 s until verified; --timeout gives up with exit 6', async () => {
    dir.state.domains.push({ id: 'd_1', orgId: 'o_1', domain: 'acme.example.com', method: 'nip05', status: 'pending', verified: false, verifiedAt: null, lastCheckedAt: null, consecutiveFailures: 0, lastFailureReason: null });
    const clock = manualClock((n) => n === 2 && (dir.state.domains[0].willVerify = true));
    const r = await captured(() => domain(['verify', 'd_1', '--wait', '--json'], clock));
    assert.equal(r.result, EXIT.OK, r.stderr);
    assert.deepEqual(clock.sleeps, [15000, 15000]);
    assert.equal(JSON.parse(r.stdout).domain.verified, true);
    assert.equal(JSON.parse(r.stdout).attempts, 3);

    dir.state.domains[0].willVerify = false;
    Object.assign(dir.state.domains[0], { verified: false, status: 'pending' });
    const slow = manualClock();
    const t = await captured(() => domain(['verify', 'd_1', '--wait', '--timeout', '60'], slow));
    assert.equal(t.error?.exitCode, EXIT.PEER);
    assert.equal(t.error.code, 'DOMAIN_NOT_VERIFIED');
    assert.equal(dir.calls('/api/rpc/agentIndex/verifyDomain').length, 3 + 4); // t = 0, 15, 30, 45 s
  });
});
