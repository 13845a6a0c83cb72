// NIP-98 HTTP auth: nostr-tools' own test cases (nip98.test.ts) run on ours, the spec's example
// event and header (tests/vectors/nip98.json), tokens made by each library checked by the other on
// generated requests, and a real HTTP server that admits a request by its token.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import http from 'node:http';
import { nip98 as toolsNip98, finalizeEvent as toolsFinalize, generateSecretKey as toolsSk } from 'nostr-tools';
import { nostr, prng, randomText, rejectsCode, vectorsDir } from './helpers.js';

const { nip98, kinds } = nostr;
const v = JSON.parse(readFileSync(new URL('nip98.json', vectorsDir), 'utf8'));
const sk = nostr.generateSecretKey();
const sign = (e) => nostr.finalizeEvent(e, sk);
const sha256 = (s) => createHash('sha256').update(s).digest('hex');

test("nostr-tools' getToken cases", async () => {
  for (const [method, scheme] of [['get', false], ['post', false], ['post', true]]) {
    const token = await nip98.getToken('http://test.com', method, sign, scheme);
    assert.equal(token.startsWith('Nostr '), scheme);
    const e = await nip98.unpackEventFromToken(token);
    assert.ok(e.created_at > 0);
    assert.equal(e.content, '');
    assert.equal(e.kind, kinds.HTTPAuth);
    assert.equal(e.pubkey, nostr.getPublicKey(sk));
    assert.deepStrictEqual(e.tags, [['u', 'http://test.com'], ['method', method]]);
  }
  const payload = { test: 'payload' };
  const e = await nip98.unpackEventFromToken(await nip98.getToken('http://test.com', 'post', sign, true, payload));
  assert.deepStrictEqual(e.tags, [['u', 'http://test.com'], ['method', 'post'], ['payload', sha256(JSON.stringify(payload))]]);
});

test("nostr-tools' validateToken and validateEvent cases", async () => {
  const get = await nip98.getToken('http://test.com', 'get', sign);
  const getScheme = await nip98.getToken('http://test.com', 'get', sign, true);
  assert.equal(await nip98.validateToken(get, 'http://test.com', 'get'), true);
  assert.equal(await nip98.validateToken(getScheme, 'http://test.com', 'get'), true);
  await rejectsCode(nip98.validateToken('fake', 'http://test.com', 'get'), 'NIP98_INVALID_TOKEN');
  await rejectsCode(nip98.validateToken('', 'http://test.com', 'get'), 'NIP98_INVALID_TOKEN');
  await rejectsCode(nip98.validateToken(get, 'http://wrong-test.com', 'get'), 'NIP98_WRONG_URL');
  await rejectsCode(nip98.validateToken(get, 'http://test.com', 'post'), 'NIP98_WRONG_METHOD');
  const decoded = await nip98.unpackEventFromToken(getScheme);
  assert.equal(await nip98.validateEvent(decoded, 'http://test.com', 'get'), true);
  await rejectsCode(nip98.validateEvent(decoded, 'http://wrong-test.com', 'get'), 'NIP98_WRONG_URL');
  await rejectsCode(nip98.validateEvent(decoded, 'http://test.com', 'post'), 'NIP98_WRONG_METHOD');
  const withPayload = await nip98.unpackEventFromToken(await nip98.getToken('http://test.com', 'post', sign, true, { test: 'payload' }));
  assert.equal(await nip98.validateEvent(withPayload, 'http://test.com', 'post', { test: 'payload' }), true);
  const other = await nip98.unpackEventFromToken(await nip98.getToken('http://test.com', 'post', sign, true, { test: 'a-payload' }));
  await rejectsCode(nip98.validateEvent(other, 'http://test.com', 'post', { test: 'a-different-payload' }), 'NIP98_WRONG_PAYLOAD');
});

test("the spec's example event and Authorization header", async () => {
  await rejectsCode(nip98.validateEvent(v.example_event, v.url, v.method), 'ID_MISMATCH', 'the printed event does not verify');
  assert.equal(nostr.verifyEvent(v.example_event), v.example_event_verifies);
  const e = await nip98.unpackEventFromToken(v.authorization_header);
  assert.deepStrictEqual(e.tags, v.header_event_tags);
  assert.equal(nostr.verifyEvent(e), v.header_event_verifies);
  assert.deepStrictEqual(e, await toolsNip98.unpackEventFromToken(v.authorization_header));
  // 2023's event is checked now: it is stale before its `url` tag (the NIP's `u`) is looked at.
  await rejectsCode(nip98.validateToken(v.authorization_header, v.url, v.method), 'NIP98_STALE');
  assert.equal(nip98.validateEventUrlTag(e, v.url), false);
  assert.equal(nip98.validateEventUrlTag(v.example_event, v.url), true);
  assert.equal(nip98.validateEventMethodTag(e, 'get'), true);
  assert.equal(nip98.validateEventKind(e), true);
  assert.equal(nip98.validateEventTimestamp(e), false);
});

test('differential: tokens each library makes, the other accepts, on generated requests', async () => {
  const rand = prng(98);
  const toolsKey = toolsSk();
  for (let i = 0; i < 60; i++) {
    const url = `https://api${i}.example.com/${randomText(rand, 8).replace(/[^a-z]/gi, '')}?q=${i}`;
    const method = ['GET', 'post', 'PUT', 'patch', 'DELETE'][i % 5];
    const payload = i % 3 === 0 ? { n: i, s: 'x'.repeat(i) } : undefined;
    const ours = await nip98.getToken(url, method, sign, i % 2 === 0, payload);
    assert.equal(await toolsNip98.validateToken(ours, url, method), true);
    const oursEvent = await nip98.unpackEventFromToken(ours);
    assert.deepStrictEqual(oursEvent, await toolsNip98.unpackEventFromToken(ours));
    if (payload) assert.equal(await toolsNip98.validateEvent(oursEvent, url, method, payload), true);
    const theirs = await toolsNip98.getToken(url, method, (e) => toolsFinalize(e, toolsKey), i % 2 === 1, payload);
    assert.equal(await nip98.validateToken(theirs, url, method, payload), true);
    assert.deepStrictEqual(await nip98.unpackEventFromToken(theirs), await toolsNip98.unpackEventFromToken(theirs));
    for (const f of ['validateEventTimestamp', 'validateEventKind']) assert.equal(nip98[f](oursEvent), toolsNip98[f](oursEvent), f);
    assert.equal(nip98.validateEventUrlTag(oursEvent, url), toolsNip98.validateEventUrlTag(oursEvent, url));
    assert.equal(nip98.validateEventMethodTag(oursEvent, method.toUpperCase()), toolsNip98.validateEventMethodTag(oursEvent, method.toUpperCase()));
    if (payload) {
      assert.equal(nip98.hashPayload(payload), toolsNip98.hashPayload(payload));
      assert.equal(nip98.validateEventPayloadTag(oursEvent, payload), toolsNip98.validateEventPayloadTag(oursEvent, payload));
    }
  }
});

test('a raw body is hashed as its bytes (nostr-tools hashes its JSON, quotes included)', async () => {
  assert.equal(nip98.hashPayload('abc'), sha256('abc'));
  assert.equal(toolsNip98.hashPayload('abc'), sha256('"abc"'));
  assert.equal(nip98.hashPayload(new TextEncoder().encode('abc')), sha256('abc'));
  assert.equal(nip98.hashPayload(new TextEncoder().encode('abc').buffer), sha256('abc'));
  assert.equal(nip98.hashPayload({ a: [1, 'é'] }), sha256(JSON.stringify({ a: [1, 'é'] })));
  const token = await nip98.getToken('https://x.example.com/upload', 'PUT', sign, true, 'raw body');
  assert.equal(await nip98.validateToken(token, 'https://x.example.com/upload', 'PUT', 'raw body'), true);
  await rejectsCode(nip98.validateToken(token, 'https://x.example.com/upload', 'PUT', 'other body'), 'NIP98_WRONG_PAYLOAD');
  assert.equal(await nip98.validateToken(token, 'https://x.example.com/upload', 'PUT'), true, 'no body given: not checked');
});

test('a Signer signs the token; a signer that returns something else is refused', async () => {
  const signer = nostr.LocalSigner.generate();
  try {
    const token = await nip98.getToken('https://x.example.com/', 'GET', signer);
    assert.equal((await nip98.unpackEventFromToken(token)).pubkey, await signer.getPublicKey());
  } finally {
    signer.dispose?.();
  }
  await rejectsCode(nip98.getToken('https://x.example.com/', 'GET', (e) => ({ ...sign(e), content: 'x' })), 'ID_MISMATCH');
  await rejectsCode(nip98.getToken('https://x.example.com/', 'GET', () => null), 'INVALID_EVENT');
  await rejectsCode(nip98.getToken('https://x.example.com/', 'GET', () => ({ kind: 1 })), 'INVALID_EVENT');
});

test('a real HTTP server admits a request by its token, and refuses a replay elsewhere', async () => {
  const server = http.createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    const url = `http://127.0.0.1:${server.address().port}${req.url}`;
    try {
      await nip98.validateToken(req.headers.authorization ?? '', url, req.method, body);
      res.writeHead(200).end('ok');
    } catch (err) {
      res.writeHead(401).end(err.code);
    }
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  try {
    const base = `http://127.0.0.1:${server.address().port}`;
    const post = async (path, token, body) => {
      const res = await fetch(`${base}${path}`, { method: 'POST', headers: { authorization: token }, body });
      return [res.status, await res.text()];
    };
    const token = await nip98.getToken(`${base}/notes?x=1`, 'POST', sign, true, '{"hello":1}');
    assert.deepEqual(await post('/notes?x=1', token, '{"hello":1}'), [200, 'ok']);
    assert.deepEqual(await post('/notes?x=2', token, '{"hello":1}'), [401, 'NIP98_WRONG_URL']);
    assert.deepEqual(await post('/notes?x=1', token, '{"hello":2}'), [401, 'NIP98_WRONG_PAYLOAD']);
    assert.deepEqual(await post('/notes?x=1', 'Nostr e30=', 'x'), [401, 'NIP98_INVALID_TOKEN']);
  } finally {
    await new Promise((r) => server.close(r));
  }
});

test('bad inputs are typed errors', async () => {
  await rejectsCode(nip98.getToken('not a url', 'GET', sign), 'INVALID_ARGUMENT');
  await rejectsCode(nip98.getToken('https://x.example.com/', 'G E T', sign), 'INVALID_ARGUMENT');
  await rejectsCode(nip98.getToken('https://x.example.com/', 'GET', 'nope'), 'INVALID_ARGUMENT');
  await rejectsCode(nip98.getToken(5, 'GET', sign), 'INVALID_ARGUMENT');
  await rejectsCode(nip98.getToken('https://x.example.com/', 'GET', sign, false, 10n), 'INVALID_ARGUMENT');
  await rejectsCode(nip98.unpackEventFromToken(5), 'NIP98_INVALID_TOKEN');
  await rejectsCode(nip98.unpackEventFromToken('Nostr ' + 'A'.repeat(70000)), 'NIP98_INVALID_TOKEN');
  await rejectsCode(nip98.validateEvent(null, 'https://x', 'GET'), 'INVALID_EVENT');
  await rejectsCode(nip98.validateEvent({ kind: 27235 }, 'https://x', 'GET'), 'INVALID_EVENT');
  await rejectsCode(nip98.validateEvent({ kind: 27235, created_at: 1n }, 'https://x', 'GET'), 'INVALID_EVENT');
  for (const f of ['validateEventTimestamp', 'validateEventKind', 'validateEventUrlTag', 'validateEventMethodTag'])
    for (const bad of [null, 5, {}, { tags: 'x' }, { tags: [[1]] }]) assert.equal(nip98[f](bad, 'x'), false, f);
});
