// Type-checked use of nostr-agents/relay-server.
import { startRelay, openStore } from 'nostr-agents/relay-server';
import type { RunningRelay, RelayOptions, EventStore } from 'nostr-agents/relay-server';

async function relayUsage(): Promise<void> {
  const options: RelayOptions = { port: 0, memory: true, agxPolicy: { minPow: 12 }, auth: 'optional', rateLimit: false };
  const relay: RunningRelay = await startRelay(options);
  const url: string = relay.url;
  const max: number = relay.info().limitation.max_message_length;
  const store: EventStore = openStore({ memory: true });
  const kind: 'sqlite' | 'memory' = store.kind;
  // @ts-expect-error: the port is a number
  await startRelay({ port: '7447' });
  console.log(url, max, kind);
  await relay.close();
}
void relayUsage();
