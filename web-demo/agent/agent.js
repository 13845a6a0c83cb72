// The demo agent: a NIP-XX agent (serveAgent) with three tools and a model (the offline demo
// model, or an OpenAI-compatible provider from the environment), plus an AGX side serving
// math.eval and demo.echo under the same key, advertised by an Agent Card (agx.publishAgentCard).
// It advertises supports_nip59, so the page's "Privacy first" switch gift-wraps the whole run.
import { LocalSigner, RelayPool, agx, init, nip19, serveAgent } from 'nostr-agents';
import { createDemoModel, createOpenAiModel } from './model.js';
import { createTools, evaluate, formatNumber, toolSchemas, ToolError } from './tools.js';

const HISTORY_TURNS = 20; // messages kept per session for providers that take a history
const HISTORY_SESSIONS = 1000;

/**
 * The model the environment asks for: NOSTR_AGENTS_LLM_BASE_URL (+ _MODEL, _API_KEY) picks an
 * OpenAI-compatible provider; otherwise the offline demo model.
 */
export function modelFromEnv(env, tools, { tokenDelay } = {}) {
  const baseUrl = env.NOSTR_AGENTS_LLM_BASE_URL;
  if (baseUrl) {
    return createOpenAiModel({
      baseUrl,
      model: env.NOSTR_AGENTS_LLM_MODEL || 'gpt-4o-mini',
      apiKey: env.NOSTR_AGENTS_LLM_API_KEY || undefined,
      tools,
    });
  }
  return createDemoModel({ tools, tokenDelay });
}

/**
 * Starts the demo agent on `relays`. Options: secretKey (Uint8Array; default a new key), model
 * (default: modelFromEnv(process.env)), tokenDelay (ms between the demo model's deltas),
 * log(line). Resolves `{ pubkey, npub, info, stop() }`.
 */
export async function startDemoAgent({ relays, secretKey, model, tokenDelay, log = () => {}, env = process.env } = {}) {
  await init();
  const tools = createTools();
  const chosen = model ?? modelFromEnv(env, tools, { tokenDelay });
  const signer = secretKey ? new LocalSigner(secretKey) : LocalSigner.generate();
  const pool = new RelayPool({ relays });
  const pubkey = signer.publicKey;
  const npub = nip19.npubEncode(pubkey);
  const history = new Map(); // sender + session -> [{role, content}]

  let served = null;
  let agxAgent = null;
  try {
    served = await serveAgent({
      signer,
      pool,
      info: {
        name: 'nostr-agents demo agent',
        about: 'A deterministic offline model with a calculator, a clock and a unit converter.',
        supports_streaming: true,
        supports_nip59: true, // also answers gift-wrapped prompts (NIP-59), and wraps its replies
        supported_models: [chosen.name],
        default_model: chosen.name,
        tool_names: Object.keys(tools),
        tool_schema_version: 1,
        tool_schemas: toolSchemas(tools),
        max_prompt_bytes: 32000,
        pricing_hints: { currency: 'USD', per_1k_prompt_tokens: 0, per_1k_output_tokens: 0, note: 'free demo' },
      },
      policy: { promptsPerMinute: 120, burst: 20 },
      onError: (err) => log(`agent: ${err.code ?? 'error'}: ${err.message}`),
      async *handler({ message, thinking, session, sender, signal }) {
        const key = `${sender}\n${session}`;
        const past = history.get(key) ?? [];
        let text = '';
        for await (const item of chosen.generate({ message, history: past, thinking, signal })) {
          if (typeof item === 'string') text += item;
          yield item;
        }
        if (signal.aborted) return;
        history.delete(key);
        history.set(key, [...past, { role: 'user', content: message }, { role: 'assistant', content: text }].slice(-HISTORY_TURNS));
        if (history.size > HISTORY_SESSIONS) history.delete(history.keys().next().value);
      },
    });

    // The AGX side: accepts every peer (acceptAll is an explicit opt-in, right for a public demo
    // whose two capabilities are pure functions).
    agxAgent = agx.createAgxAgent({
      signer,
      pool,
      acceptAll: true,
      handlers: {
        'math.eval': (payload) => {
          const expression = typeof payload === 'string' ? payload : payload?.expression;
          try {
            return { expression, result: formatNumber(evaluate(expression)) };
          } catch (err) {
            if (err instanceof ToolError) throw new agx.AgxPublicError(err.message);
            throw err;
          }
        },
        'demo.echo': (payload, ctx) => ({ echo: payload ?? null, from: ctx.from }),
      },
      onWarning: (m) => log(`agx: ${m}`),
      onError: (err) => log(`agx: ${err.code ?? 'error'}: ${err.message}`),
    });
    await agxAgent.serve();
    await agx.publishAgentCard(signer, pool, { org: 'nostr-agents demo agent', relays, capabilities: agxAgent.capabilities() });
  } catch (err) {
    await agxAgent?.close().catch(() => {});
    await served?.stop().catch(() => {});
    await pool.close();
    signer.dispose();
    throw err;
  }

  let stopped = false;
  return {
    pubkey,
    npub,
    info: served.info,
    model: chosen.name,
    async stop() {
      if (stopped) return;
      stopped = true;
      await agxAgent.close();
      await served.stop();
      await pool.close();
      signer.dispose();
    },
  };
}
