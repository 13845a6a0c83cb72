// A module worker that holds a key and signs off the page's thread. Its message listener is added
// before anything is awaited: a module worker that first awaits `init()` (top-level await) has no
// listener yet when the page's first messages arrive, and those are dropped. Once init() resolved
// it posts { type: 'ready' }: the page's ready handshake.
import { init, LocalSigner, verifyEvent } from 'nostr-agents';

const ready = init();
let signer = null;

self.addEventListener('message', async ({ data }) => {
  try {
    await ready;
    signer ??= LocalSigner.generate();
    const event = await signer.signEvent({ kind: 1, created_at: Math.floor(Date.now() / 1000), tags: [], content: data.text });
    self.postMessage({ type: 'signed', id: data.id, event, verified: verifyEvent(event) });
  } catch (err) {
    self.postMessage({ type: 'error', id: data.id, code: err.code ?? 'ERROR', message: err.message });
  }
});

await ready;
self.postMessage({ type: 'ready' });
