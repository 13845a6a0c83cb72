// A serving AGX agent in its own process, for the restart tests (tests/js/agx-client.test.js,
// tests/js/faults-agx.test.js): node agx-child.mjs <relayUrl> <secretKeyHex> <storeDir|-> <logFile>
// Every handled task appends "<n>\n" to logFile (synchronously, when its handler starts; "<n> r\n"
// for a re-run of a task cut short by a crash) and prints "handling <n>" on stdout.
// NOSTR_AGX_CHILD_DELAY=<ms>: the handler then takes that long (so a kill can land mid-task).
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
  // the fault runs send hundreds of tasks from one peer, as fast as proof of work allows
  taskLimits: { perPeerRate: null },
  onWarning: () => {},
});
const delay = Number(process.env.NOSTR_AGX_CHILD_DELAY ?? 0);
client.handle('count.me', async (payload, ctx) => {
  appendFileSync(logFile, `${payload.n}${ctx.redelivered ? ' r' : ''}\n`);
  process.stdout.write(`handling ${payload.n}\n`);
  if (delay > 0) await new Promise((r) => setTimeout(r, delay));
  return { n: payload.n };
});
await client.start();
process.stdout.write('ready\n');
process.on('SIGTERM', async () => {
  await client.stop();
  process.exit(0);
});
