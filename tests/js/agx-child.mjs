// A serving AGX agent in its own process, for the restart test (tests/js/agx-client.test.js):
// node agx-child.mjs <relayUrl> <secretKeyHex> <storeDir|-> <logFile>
// Every handled task appends "<n>\n" to logFile (synchronously, before the result is sent).
import { appendFileSync } from 'node:fs';
import * as nostr from 'nostr-agents';

await nostr.init();
const [relay, skHex, dir, logFile] = process.argv.slice(2);
const signer = new nostr.LocalSigner(nostr.hexToBytes(skHex));
const client = new nostr.agx.AgxClient({
  signer,
  relays: [relay],
  authorize: 'accept-all',
  seenStore: dir === '-' ? new nostr.agx.MemorySeenStore() : new nostr.agx.FileSeenStore(dir),
  pollInterval: 0,
  onWarning: () => {},
});
client.handle('count.me', (payload) => {
  appendFileSync(logFile, `${payload.n}\n`);
  return { n: payload.n };
});
await client.start();
process.stdout.write('ready\n');
process.on('SIGTERM', async () => {
  await client.stop();
  process.exit(0);
});
