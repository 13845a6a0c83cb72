// window.nostr (NIP-07), defined in the page's own JS world before the page's scripts run. It
// holds nothing: each call is posted to bridge.js (this extension's isolated-world content script),
// which relays it to the service worker, where the key lives. Refusals and failures reject with
// an Error whose message says why.
(() => {
  if (window.nostr) return; // another signer got there first: leave it alone
  const TAG = 'nostr-agents-test-signer';
  const pending = new Map();
  let next = 0;

  window.addEventListener('message', (ev) => {
    if (ev.source !== window || ev.data?.[TAG] !== 'response') return;
    const p = pending.get(ev.data.id);
    if (!p) return;
    pending.delete(ev.data.id);
    if ('error' in ev.data) p.reject(new Error(String(ev.data.error)));
    else p.resolve(ev.data.result);
  });

  const call = (method, params) =>
    new Promise((resolve, reject) => {
      const id = `${Date.now().toString(36)}-${next++}`;
      pending.set(id, { resolve, reject });
      window.postMessage({ [TAG]: 'request', id, method, params }, window.location.origin);
    });

  const nostr = {
    getPublicKey: () => call('getPublicKey', []),
    signEvent: (event) => call('signEvent', [event]),
    nip44: Object.freeze({
      encrypt: (pubkey, plaintext) => call('nip44.encrypt', [pubkey, plaintext]),
      decrypt: (pubkey, payload) => call('nip44.decrypt', [pubkey, payload]),
    }),
  };
  Object.defineProperty(window, 'nostr', { value: Object.freeze(nostr), enumerable: true });
})();
