// Crypto only, from the main entry: keys, sign, verify.
import { init, generateSecretKey, finalizeEvent, verifyEvent } from 'nostr-agents';

await init();
const event = finalizeEvent({ kind: 1, created_at: Math.floor(Date.now() / 1000), tags: [], content: 'hello' }, generateSecretKey());
document.body.textContent = String(verifyEvent(event));
