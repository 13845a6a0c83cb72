// The isolated-world half of the content script: relays window.nostr calls from provider.js to the
// service worker and posts the answers back. It only forwards; the worker checks everything.
(() => {
  const TAG = 'nostr-agents-test-signer';
  window.addEventListener('message', async (ev) => {
    if (ev.source !== window || ev.data?.[TAG] !== 'request') return;
    const { id, method, params } = ev.data;
    let reply;
    try {
      reply = await chrome.runtime.sendMessage({ type: 'nip07', method, params });
    } catch (err) {
      reply = { error: `the signer extension is unavailable: ${err?.message ?? err}` };
    }
    if (!reply || typeof reply !== 'object') reply = { error: 'the signer extension gave no answer' };
    const out = { [TAG]: 'response', id };
    if ('error' in reply) out.error = reply.error;
    else out.result = reply.result;
    window.postMessage(out, window.location.origin);
  });
})();
