// Crypto only, from nostr-agents/lite: keys, sign, verify.
import { init, generateSecretKey, finalizeEvent, verifyEvent } from 'nostr-agents/lite';

await init();
const event = finalizeEvent({ kind: 1, created_at: Math.floor(Date.now() / 1000), tags: [], content: 'hello' }, generateSecretKey());
document.body.textContent = String(verifyEvent(event));
