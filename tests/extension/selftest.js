// The package's main browser entry inside an extension page (MV3 CSP: WebAssembly needs
// 'wasm-unsafe-eval'): keys, signing, verification, NIP-44 and a NIP-59 gift wrap, addressed to the
// peer named in ?peer= so the test can check every output with its own copy of the package.
// Sets window.__result: { ok: true, ... } or { ok: false, code, message }.
const peer = new URLSearchParams(location.search).get('peer');
try {
  const { init, LocalSigner, finalizeEvent, verifyEvent, generateSecretKey, getPublicKey, nip44, nip59, nip19 } = await import(
    './vendor/dist/index.browser.js'
  );
  await init();
  const sk = generateSecretKey();
  const pubkey = getPublicKey(sk);
  const event = finalizeEvent({ kind: 1, created_at: 1_700_000_000, tags: [['t', 'extension']], content: 'signed in an extension page' }, sk);
  const tampered = { ...event, content: 'changed' };
  const signer = new LocalSigner(sk);
  sk.fill(0);
  const toPeer = await signer.nip44Encrypt(peer, 'hello from the extension page');
  // A round trip with a second key, both directions.
  const other = LocalSigner.generate();
  const there = await signer.nip44Encrypt(other.publicKey, 'round trip');
  const back = await other.nip44Decrypt(pubkey, there);
  const wrap = await nip59.wrapEvent({ kind: 14, created_at: 1_700_000_000, tags: [['p', peer]], content: 'a sealed note' }, signer, peer);
  let badDecrypt = null;
  try {
    await other.nip44Decrypt(pubkey, there.slice(0, -4) + 'AAAA');
  } catch (err) {
    badDecrypt = err.code;
  }
  other.dispose();
  signer.dispose();
  window.__result = {
    ok: true,
    pubkey,
    npub: nip19.npubEncode(pubkey),
    event,
    verified: verifyEvent(event),
    tamperedVerified: verifyEvent(tampered),
    toPeer,
    roundTrip: back,
    wrap,
    badDecrypt,
  };
} catch (err) {
  window.__result = { ok: false, code: err?.code ?? null, message: String(err?.message ?? err) };
}
document.getElementById('out').textContent = JSON.stringify(window.__result);
