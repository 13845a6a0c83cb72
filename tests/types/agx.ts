// Type-checked (never run) use of the agx namespace.
import * as nostr from 'nostr-agents';
import { agx, LocalSigner, RelayPool } from 'nostr-agents';
import type { NostrEvent } from 'nostr-agents';

async function main(): Promise<void> {
  await nostr.init();
  const a = LocalSigner.generate();
  const b = LocalSigner.generate();
  const rumor: agx.AgxRumor = agx.createMessageRumor('hi', a.publicKey, b.publicKey, { subject: 's' });
  const req = agx.createTaskRequestRumor({ taskId: 't', capability: 'x.y', payload: { n: 1 } }, a.publicKey, b.publicKey);
  const { rumor: res, replacedTooLarge } = agx.createTaskResultRumor({ taskId: 't', status: 'completed', output: 1 }, b.publicKey, a.publicKey);
  const rc: agx.AgxRumor = agx.createReceiptRumor(req.id, 't', b.publicKey, a.publicKey);
  const wrap: NostrEvent = await agx.wrapRumor(rumor, a, b.publicKey, { slice: 512 });
  const opened: agx.AgxOpened = agx.unwrapAgx(wrap, b);
  const cls: agx.AgxContentClass = opened.class;
  const ok: boolean = agx.capabilityMatches('x.*', 'x.y') && agx.matchesCapability(['x.y'], 'x.y');
  const key: string | null = agx.findHandler(['x.*'], 'x.y');
  const router = new agx.AgxRouter('host');
  const d: agx.RouteDecision = router.route(opened, true);
  const v: agx.AuthVerdict = router.decide(a.publicKey, 'x.y');
  const guard = new agx.ReplayGuard({ cap: 10 });
  const seen: boolean = guard.knownWrap(wrap.id);

  const pool = new RelayPool({ relays: ['ws://127.0.0.1:1'] });
  const agent: agx.AgxAgent = agx.createAgxAgent({
    signer: a,
    pool,
    authorize: async ({ from, capability }) => from === b.publicKey && capability === 'x.y',
    handlers: {
      'x.y': async (payload: { n: number }, ctx) => ({ doubled: payload.n * 2, from: ctx.from }),
    },
    onMessage: (m) => console.log(m.text, m.reason),
    onWarning: (w) => console.log(w),
  });
  await agent.serve();
  const sent = await agent.send(b.publicKey, 'hello', { subject: 'hi' });
  const out = await agent.request<{ doubled: number }>(b.publicKey, 'x.y', { n: 2 }, { timeout: 5000 });
  const n: number = out.doubled;
  await agent.close();
  void [res, replacedTooLarge, rc, cls, ok, key, d, v, seen, sent, n];
  try {
    throw new agx.AgxPublicError('x');
  } catch {}
}
void main;

// AgxClient with any Signer, stores, discovery (type-checked only)
export async function agxClientTypes(signer: import('nostr-agents').Signer, pool: RelayPool): Promise<void> {
  const c = new agx.AgxClient({ signer, pool, authorize: 'accept-all', seenStore: new agx.FileSeenStore('/tmp/x'), maxAutoDepth: 4 });
  c.handle('x.y', async (payload: { n: number }) => payload.n + 1);
  const off: () => void = c.onMessage((m) => (m.autoDepth < 2 ? `re ${m.text}` : null));
  c.onMessage(async (m) => {
    if (m.reply) await m.reply('only plain messages have a reply handle');
  });
  c.handle('x.z', async (_payload, ctx) => (ctx.updates.input ? ctx.requestInput('pin?') : ctx.working('no input possible')));
  const unlisted = await c.start({ advertise: false });
  void unlisted;
  await c.serve({ advertise: false });
  off();
  const out: number = await c.request<number>('npub1xyz', 'x.y', { n: 1 }, { timeout: 5000 });
  const sent = await c.send('ab'.repeat(32), 'hi', { subject: 's' });
  const ctx: string = sent.contextId;
  const started = await c.start({ advertise: true });
  const complete: boolean = started.poll.complete;
  await c.stop();
  const a2: agx.AgxClient = agx.createAgxAgent({ signer, pool });
  const card: agx.AgentCard | null = await agx.fetchAgentCard(pool, 'ab'.repeat(32), { verifyNip05: true });
  const ok: boolean = await agx.verifyNip05('bob@example.com', 'ab'.repeat(32), { timeout: 1000 });
  const okCa: boolean = await agx.verifyNip05('bob@example.com', 'ab'.repeat(32), { ca: ['-----BEGIN CERTIFICATE-----'], lookup: async () => null });
  const rl = await agx.resolveRelayList(pool, 'ab'.repeat(32));
  await agx.publishRelayList(signer, pool, { relays: ['wss://r.example', { url: 'wss://w.example', read: false }] });
  await agx.retractAgentCard(signer, pool, { reason: 'moved' });
  void [out, ctx, complete, a2, card, ok, rl];
}

// Task status updates (working / input-required) and input answers.
export async function statusUpdates(client: agx.AgxClient, peer: string): Promise<void> {
  client.handle('pay.*', async (payload: unknown, ctx) => {
    const sent: boolean = await ctx.working('checking');
    const pin = await ctx.requestInput<{ pin: number }>('PIN?', { timeout: 60_000 });
    return { sent, pin: pin.pin, payload };
  });
  const off: () => void = client.onTaskUpdate((u: agx.AgxTaskUpdate) => {
    const s: 'working' | 'input-required' = u.state;
    if (u.respond) void u.respond({ pin: 1 });
    void s;
  });
  off();
  const out = await client.request<{ pin: number }>(peer, 'pay.now', {}, { onUpdate: (u) => void u.message });
  void out.pin;
  const r: { rumorId: string; wrapId: string } = await client.provideInput('t', { pin: 2 });
  void r;
  const rumor: agx.AgxRumor = agx.createTaskStatusRumor({ taskId: 't', status: 'working' }, peer, peer);
  void agx.createTaskInputRumor({ taskId: 't', input: 1 }, peer, peer);
  void rumor;
}

// Exactly-once task records and flood limits (type-checked only).
export async function exactlyOnceAndLimits(signer: import('nostr-agents').Signer, pool: RelayPool): Promise<void> {
  const store = new agx.MemorySeenStore();
  const c = new agx.AgxClient({
    signer,
    pool,
    authorize: 'accept-all',
    seenStore: store,
    taskLimits: { maxConcurrent: 8, perPeerConcurrent: 2, maxQueued: 64, perPeerQueued: 8, perPeerRate: { count: 60, window: 60 } },
    maxTaskRuns: 2,
  });
  c.handle('x.once', async (_p: unknown, ctx) => (ctx.redelivered ? 'again' : 'first'));
  const loaded: agx.SeenStoreState = await store.load();
  const recs: agx.AgxTaskRecord[] = loaded.tasks ?? [];
  const s: agx.AgxTaskStats = c.taskStats;
  const n: number = s.reruns + s.republished + s.duplicateResults + s.rejected['rate-limited'] + s.rejected.overloaded + store.taskCount;
  const rs: agx.AgxReplayStats = c.replayStats;
  const full: number = rs.processed + rs.cap + rs.cached + rs.overloaded + new agx.MemorySeenStore({ cap: 1000 }).sentTaskCount;
  const r: agx.AgxIngestResult = 'invalid';
  const bounded = new agx.AgxClient({ signer, pool, maxSeen: 1000, pollOverlap: 600 });
  const gate = new agx.TaskGate<string>({ perPeerRate: null });
  const v: agx.TaskGateVerdict = gate.offer('ab'.repeat(32), 0, 'job');
  const next: { peer: string; job: string } | null = gate.release('ab'.repeat(32));
  const d: number = agx.TASK_LIMIT_DEFAULTS.maxConcurrent;
  try {
    await c.request('ab'.repeat(32), 'x.once');
  } catch (err) {
    const e = err as { code: string; rejected?: 'rate-limited' | 'overloaded'; retryAfter?: number };
    void e;
  }
  void [recs, n, v, next, d, full, r, bounded];
}

// AgxRequester: the requesting side alone (an AgxClient is one).
export async function requesterTypes(signer: import('nostr-agents').Signer, pool: RelayPool, peer: string): Promise<void> {
  const r = new agx.AgxRequester({ signer, pool, onReceipt: (rc: agx.AgxReceipt) => console.log(rc.status), requestTimeout: 60_000 });
  const off: () => void = r.onMessage((m: agx.AgxPlainMessage) => console.log(m.text, m.reason, m.class));
  off();
  const started: { cursor: number; poll: agx.AgxPollResult } = await r.start();
  const out = await r.request<{ n: number }>(peer, 'x.y', { n: 1 }, { onUpdate: async (u) => { if (u.respond) await u.respond({ pin: 1 }); } });
  const n: number = out.n;
  const stats: agx.AgxRequestStats = r.taskStats;
  const dup: number = stats.duplicateResults;
  await r.send(peer, 'hi');
  await r.stop();
  const both: agx.AgxRequester = new agx.AgxClient({ signer, pool });
  const served: agx.AgxTaskStats = new agx.AgxClient({ signer, pool }).taskStats;
  const reqOpts: agx.AgxRequesterOptions = {
    signer,
    relays: ['wss://r.example'],
    pollInterval: 0,
    pendingPollInterval: 3000,
    discoveryRelays: ['wss://index.example'],
    allowLocalRelays: false,
    relayListTimeout: 3000,
    lookup: async () => ['93.184.216.34'],
    keepUnknownContentTypes: true,
  };
  const targets: string[] = await r.relaysFor(peer);
  const listed = await new agx.AgxClient({ signer, pool }).start();
  const listId: string | undefined = listed.relayList?.event?.id;
  // @ts-expect-error an AgxRequester serves nothing
  r.handle('x.y', () => 1);
  // @ts-expect-error nor answers automatically
  r.onMessage((m) => m.reply('x'));
  void [started, n, dup, both, served, reqOpts, targets, listId];
}
