// Type-checked (never run) use of the NIP-XX client and agent runtime.
import * as nostr from 'nostr-agents';
import { AgentError, RelayPool, LocalSigner, discover, prompt, serveAgent, fetchSessionRuns, fetchSessions, CANCEL_RACE_GRACE, TERMINAL_GRACE, type AgentRunUpdate, type HandlerContext, type RunStore, type Signer } from 'nostr-agents';

async function main(): Promise<void> {
  await nostr.init();
  const pool = new RelayPool({ relays: ['wss://relay.example.com'] });
  const agentSigner = LocalSigner.generate();
  const agent = await serveAgent({
    signer: agentSigner,
    pool,
    info: { supported_models: ['m1'], default_model: 'm1', tool_names: ['calc'] },
    policy: { allow: ['a'.repeat(64)], promptsPerMinute: 10, burst: 2 },
    onError: (e: unknown) => console.error(e),
    maxClockSkew: 900,
    now: () => Date.now(),
    async *handler(ctx: HandlerContext) {
      yield { type: 'status', state: 'thinking', progress: 5 };
      yield { type: 'tool_call', name: 'calc', phase: 'start', arguments: { expr: '1+1' } };
      if (ctx.signal.aborted) return;
      const fallbacks: string[] = ctx.fallbackModels;
      yield `echo: ${ctx.message} (${ctx.model ?? fallbacks[0] ?? 'default'}, ${ctx.session})`;
      yield { type: 'usage', input_tokens: 1, output_tokens: 2 };
    },
  });
  const pk: string = agent.pubkey;
  const { info, event } = await discover(pool, pk);
  const models: string[] | undefined = info.supported_models;
  const id: string | undefined = event?.id;

  const ac = new AbortController();
  const run = prompt({ pool, signer: new nostr.Nip07Signer(), agent: pk, message: 'hi', thinking: 'low', signal: ac.signal, now: Date.now });
  for await (const u of run) {
    const update: AgentRunUpdate = u;
    if (update.type === 'delta') console.log(update.text, update.degraded);
    else if (update.type === 'status') console.log(update.state, update.progress);
    else if (update.type === 'tool_call') console.log(update.name, update.phase);
    else if (update.type === 'terminal' && update.ok) console.log(update.text, update.usage?.output_tokens, update.replaced, update.replacedEventId);
    else if (update.type === 'terminal') console.log(update.error.code);
  }
  const sent: boolean = await run.cancel('user_cancel');
  try {
    const { text, usage } = await run.result;
    console.log(text, usage?.input_tokens, run.id, sent, models, id);
  } catch (err) {
    if (err instanceof AgentError) console.log(err.code, err.message, err.retryAfter, err.details);
  }
  // Sessions and run stores.
  const store: nostr.RunStore = new nostr.FileRunStore('/tmp/runs');
  const stores: nostr.RunStore[] = [new nostr.MemoryRunStore(), new nostr.IndexedDbRunStore('runs'), store];
  const stored = prompt({ pool, signer: new nostr.Nip07Signer(), agent: pk, message: 'hi', store, privacy: 'auto' });
  const profile: nostr.PrivacyProfile | null = stored.privacy;
  const sessions: nostr.SessionSummary[] = await nostr.listSessions(store, { agent: pk });
  const runs: nostr.StoredRun[] = await nostr.listRuns(store, sessions[0]);
  const again: nostr.Run = await nostr.resumeRun({ pool, signer: new nostr.Nip07Signer(), store, id: runs[0].id });
  for await (const u of again) if (u.type === 'store_error') console.log(u.error.code);
  console.log(stored.message, runs[0].terminal?.ok, stores.length, profile, runs[0].privacy);
  // The core's machines.
  const machine = new nostr.nipxx.ClientRun({ promptId: '1'.repeat(64), agentPubkey: pk, clientPubkey: '2'.repeat(64), terminalGrace: 0 });
  const u = machine.onEvent(event!, '{"ver":1,"text":"x"}', Date.now());
  const settleAt: number | null = machine.settleAt;
  if (u.type === 'terminal' && u.replaced) console.log(u.replacedId, settleAt, machine.terminalGrace);
  const plain: boolean = nostr.nipxx.rumorContentIsPayload('{"ver":1}');
  const out = new nostr.nipxx.AgentRun({ promptId: '1'.repeat(64), clientPubkey: '2'.repeat(64) }).delta('event=x', { now: 1 });
  console.log(plain, out.plaintext);
  machine.dispose();
  await agent.stop();
  await pool.close();
}

void main;

// Relay-side session discovery.
export async function sessionDiscovery(pool: RelayPool, signer: Signer, agent: string, store: RunStore): Promise<number> {
  const runs = await fetchSessionRuns({ pool, signer, agent, store, session: 'session:x', maxWait: 2000 });
  const where: 'store' | 'relay' | 'both' = runs[0].source;
  void where;
  const sessions = await fetchSessions({ pool, signer, store });
  const title: string = sessions[0].title;
  void title;
  return runs.length + CANCEL_RACE_GRACE + TERMINAL_GRACE;
}
