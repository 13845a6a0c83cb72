// Type-checked (never run) use of the relay pool and the frame codec.
import * as nostr from 'nostr-agents';
import { RelayPool, type PublishResult, type RelayStatusEvent, type NostrEvent } from 'nostr-agents';

async function main(): Promise<void> {
  await nostr.init();
  const sk = nostr.generateSecretKey();
  const signer = {
    getPublicKey: async () => nostr.getPublicKey(sk),
    signEvent: async (t: nostr.EventTemplate) => nostr.finalizeEvent(t, sk),
  };
  const pool = new RelayPool({
    relays: ['wss://relay.example.com'],
    signer,
    reconnect: { initialDelay: 100, maxDelay: 5000 },
    ping: { interval: 20_000 },
  });
  const withLocal = new RelayPool({ signer: new nostr.LocalSigner(sk), eagerAuth: true, idleTimeout: 30_000 });
  const given: string[] = withLocal.relays;
  void given;
  await withLocal.close();
  // @ts-expect-error idleTimeout is ms or false
  void new RelayPool({ idleTimeout: true });
  const off = pool.on('status', (s: RelayStatusEvent) => {
    if (s.state === 'backing-off') console.log(s.relay, s.nextAttemptAt, s.error?.code);
  });
  pool.on('drop', (d) => console.log(d.reason, d.code));

  const ctrl = new AbortController();
  const sub = pool.subscribe({ kinds: [1], '#p': [nostr.getPublicKey(sk)] }, {
    onevent: (e: NostrEvent, relay: string) => console.log(e.id, relay),
    oneose: () => console.log('eose'),
    onclose: (reasons) => console.log(reasons.map((r) => `${r.relay} ${r.reason} ${r.message}`)),
    maxWait: 3000,
    signal: ctrl.signal,
  });
  for await (const e of sub) console.log(e.content);
  sub.close();

  const event = nostr.finalizeEvent({ kind: 1, created_at: 0, tags: [], content: 'x' }, sk);
  const results: PublishResult[] = await pool.publish(event, { timeout: 5000, retries: 2, onresult: (r) => console.log(r.status) });
  for (const r of results) if (r.status === 'rejected' && r.reason === 'rate-limited') console.log(r.error?.code);
  const events: NostrEvent[] = await pool.query([{ kinds: [0] }], { maxWait: 1000 });
  const newest: NostrEvent | null = await pool.get({ kinds: [0] });
  const info = await nostr.fetchRelayInfo('wss://relay.example.com', { timeout: 1000 });
  const max: number | undefined = info.limitation?.max_message_length;
  const status = pool.status('wss://relay.example.com');
  console.log(events.length, newest?.id, max, status.state, pool.status().length, pool.stats.dropped.duplicate);

  const m = nostr.decodeRelayMessage('["EOSE","x"]');
  if (m.type === 'OK') console.log(m.accepted, m.reason);
  const req: string = nostr.encodeReq('s', { kinds: [1] });
  const auth: nostr.EventTemplate = nostr.makeAuthEvent('wss://relay.example.com', 'challenge');
  console.log(req, auth, nostr.parseReason('rate-limited: slow').transient, nostr.normalizeRelayUrl('WSS://A'));
  off();
  await pool.close();
}
void main();
export {};
