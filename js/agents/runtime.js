// The NIP-XX agent runtime: publishes ai.info, answers prompts with an async-generator handler.
// All I/O is here (relay pool, signer); admission (allow/block lists, rate limit, schema,
// negotiation) is the core's NipxxAdmission, and every outgoing event comes from the core's
// AgentRun (seq from 0, exactly one terminal, cancel once).
import { core } from '../core.js';
import { NostrError } from '../errors.js';
import { AgentRun, ERROR_CODES, KINDS, rumorContentIsPayload, validatePayload } from '../nipxx.js';
import { AgentError } from './errors.js';
import {
  WRAP_LOOKBACK,
  defaultInfo,
  openRunWrap,
  poolFrom,
  requireSigner,
  rootOf,
  runPlaintext,
  sealEvent,
  secondsClock,
  subscribeLive,
  tagValue,
  wrapRunEvent,
} from './shared.js';

const SEEN_CAP = 10_000;
const GIFT_WRAP = 1059;
const GENERIC_FAILURE = 'the agent failed while answering';

// How a run's replies travel: false (NIP-44 events), true (gift wraps whose rumors hold the
// payload) or ENCRYPTED_RUMOR (gift wraps whose rumors hold NIP-44 ciphertext, for a peer whose
// prompt came that way).
const ENCRYPTED_RUMOR = 'encrypted-rumor';
function wrapping(prompt) {
  if (prompt.wrapped !== true) return false;
  return rumorContentIsPayload(prompt.content) ? true : ENCRYPTED_RUMOR;
}

function policyForCore(policy) {
  const out = {};
  const list = (name) => {
    const v = policy[name];
    if (v === undefined || v === null) return;
    if (!Array.isArray(v) || v.some((x) => typeof x !== 'string'))
      throw new NostrError('INVALID_ARGUMENT', `serveAgent: policy.${name} must be an array of hex public keys`);
    out[name] = v.map((x) => x.toLowerCase());
  };
  list('allow');
  list('block');
  for (const name of ['promptsPerMinute', 'burst', 'maxSessionTurns', 'maxTracked', 'maxConcurrent']) {
    const v = policy[name];
    if (v === undefined) continue;
    if (typeof v !== 'number' || !(v >= 0)) throw new NostrError('INVALID_ARGUMENT', `serveAgent: policy.${name} must be a number >= 0`);
    out[name] = v;
  }
  return out;
}

/**
 * Serves an agent. Resolves (once ai.info is published and the prompt subscription is live) to
 * `{ pubkey, info, infoEvent, stop() }`. See js/agents.d.ts for the handler contract.
 */
export async function serveAgent({
  signer,
  pool: givenPool,
  relays,
  info = {},
  handler,
  policy = {},
  d = 'agent-info',
  since,
  onError,
  stopTimeout = 2000,
  maxClockSkew = 900,
  now,
} = {}) {
  requireSigner(signer, 'serveAgent');
  const clock = secondsClock(now, 'serveAgent');
  if (!(Number.isFinite(maxClockSkew) && maxClockSkew >= 0))
    throw new NostrError('INVALID_ARGUMENT', 'serveAgent: maxClockSkew must be a number of seconds >= 0');
  if (typeof handler !== 'function') throw new NostrError('INVALID_ARGUMENT', 'serveAgent: handler must be an async generator function');
  if (typeof d !== 'string' || d.length === 0) throw new NostrError('INVALID_ARGUMENT', 'serveAgent: d must be a non-empty string');
  const infoPayload = { ...defaultInfo(), ...info, ver: 1 };
  const infoJson = JSON.stringify(infoPayload);
  const verdict = validatePayload(KINDS.info, infoJson);
  if (!verdict.ok) throw new NostrError('INVALID_ARGUMENT', `serveAgent: info: ${verdict.message}`);
  const corePolicy = policyForCore(policy);
  const { pool, owned } = poolFrom({ pool: givenPool, relays }, 'serveAgent');
  const report = (err) => {
    if (onError) {
      try {
        const out = onError(err);
        if (out !== null && typeof out === 'object' && typeof out.then === 'function') out.then(undefined, () => {});
      } catch {
        // the operator's logger must not break the runtime (nor, async, leave an unhandled rejection)
      }
    }
  };

  let gate = null;
  let sub = null;
  let stopped = false;
  const runs = new Map(); // prompt id -> { run, client, controller, chain, cancelled, finished }
  const seen = new Set(); // prompt ids already handled (bounded)
  const admitting = new Set(); // prompts being decrypted and admitted (no run yet)
  const early = new Map(); // prompt id -> an ai.cancel that arrived while its prompt was being admitted

  // wrapped: the run is in the privacy-first profile (its prompt came gift-wrapped): so is every
  // reply, in the rumor form the prompt used (a peer that NIP-44-encrypts its rumors reads those).
  async function send(client, out, wrapped) {
    const event = wrapped
      ? (await wrapRunEvent(signer, client, out, clock, { encryptRumor: wrapped === ENCRYPTED_RUMOR })).wrap
      : await sealEvent(signer, client, out, clock);
    const results = await pool.publish(event, { relays });
    if (!results.some((r) => r.status === 'accepted'))
      report(new NostrError('RELAY_REJECTED', `no relay accepted kind ${out.kind} for run ${rootOf(out)}`));
  }

  function emit(state, out) {
    state.chain = state.chain.then(() => send(state.client, out, state.wrapped)).catch(report);
    return state.chain;
  }

  // Answers a prompt that never became a run (admission, decryption) with one ai.error.
  async function refuse(prompt, code, message, retryAfter) {
    const run = new AgentRun({ promptId: prompt.id, clientPubkey: prompt.pubkey, session: tagValue(prompt, 's') ?? '', info: infoPayload });
    try {
      await send(prompt.pubkey, run.fail(code, message, { retryAfter: retryAfter ?? 0 }), wrapping(prompt));
    } finally {
      run.dispose();
    }
  }

  async function onPrompt(prompt) {
    if (stopped || seen.has(prompt.id)) return;
    seen.add(prompt.id);
    if (seen.size > SEEN_CAP) seen.delete(seen.values().next().value);
    if (tagValue(prompt, 'p') !== agent) return; // another agent's prompt: not ours to answer
    admitting.add(prompt.id);
    try {
      return await admitAndRun(prompt);
    } finally {
      admitting.delete(prompt.id);
      early.delete(prompt.id);
    }
  }

  async function admitAndRun(prompt) {
    const json = JSON.stringify(prompt);
    const screened = gate.screen(json, clock());
    if (screened === undefined) return;
    if (!screened.ok) return refuse(prompt, screened.code, screened.message, screened.retryAfter);
    let plaintext;
    try {
      plaintext = await runPlaintext(signer, prompt, prompt.wrapped === true);
    } catch {
      return refuse(prompt, 'PARSE_ERROR', 'content does not decrypt (NIP-44)');
    }
    if (stopped) return;
    const admitted = gate.admit(json, plaintext);
    if (admitted === undefined) return;
    if (!admitted.ok) return refuse(prompt, admitted.code, admitted.message, admitted.retryAfter);
    const whole = runPrompt(prompt, admitted);
    const cancel = early.get(prompt.id);
    if (cancel) onCancel(cancel).catch(report);
    await whole;
  }

  async function runPrompt(prompt, admitted) {
    const wrapped = wrapping(prompt);
    // Privacy-first: minimal disclosure, tool telemetry without arguments or output (the core drops them).
    const run = new AgentRun({ promptId: prompt.id, clientPubkey: prompt.pubkey, session: tagValue(prompt, 's') ?? '', info: infoPayload, privacyFirst: !!wrapped });
    const state = { run, client: prompt.pubkey, wrapped, controller: new AbortController(), chain: Promise.resolve(), cancelled: false };
    runs.set(prompt.id, state);
    state.whole = (async () => {
      try {
        await drive(state, prompt, admitted);
        await state.chain;
      } finally {
        runs.delete(prompt.id);
        run.dispose();
        if (gate) gate.runEnded(); // its concurrency slot (policy.maxConcurrent) is free
      }
    })();
    return state.whole;
  }

  async function drive(state, prompt, admitted) {
    const { run } = state;
    const ctx = {
      message: admitted.message,
      model: admitted.model,
      fallbackModels: admitted.fallbackModels,
      thinking: admitted.thinking,
      session: admitted.session,
      sender: prompt.pubkey,
      promptId: prompt.id,
      signal: state.controller.signal,
    };
    let text = '';
    let usage;
    let handlerError = null;
    let protocolError = null;
    const apply = async (item) => {
      if (typeof item === 'string') {
        if (item.length === 0) return;
        text += item;
        await emit(state, run.delta(item, { now: clock() }));
      } else if (item && item.type === 'status') {
        await emit(state, run.status(item.state, { progress: item.progress, info: item.info }));
      } else if (item && item.type === 'tool_call') {
        const call = { name: item.name, phase: item.phase };
        for (const k of ['arguments', 'output', 'success', 'duration_ms'])
          if (item[k] !== undefined) call[k] = item[k];
        await emit(state, run.toolCall(call));
      } else if (item && item.type === 'usage') {
        usage = { input_tokens: item.input_tokens, output_tokens: item.output_tokens };
      } else {
        throw new NostrError('INVALID_ARGUMENT', 'handler yielded something that is not a string, status, tool_call or usage');
      }
    };
    try {
      const it = handler(ctx);
      if (it && typeof it === 'object' && (typeof it[Symbol.asyncIterator] === 'function' || typeof it[Symbol.iterator] === 'function')) {
        for await (const item of it) {
          if (state.cancelled || stopped) break;
          try {
            await apply(item);
          } catch (err) {
            protocolError = err;
            break;
          }
        }
      } else {
        const value = await it; // a plain async function returning the text
        if (typeof value === 'string' && !state.cancelled && !stopped) text = value;
      }
    } catch (err) {
      handlerError = err;
    }
    if (state.cancelled || run.finished) return; // CANCELLED already sent
    if (stopped) {
      emit(state, run.fail('INTERNAL_ERROR', 'the agent stopped'));
    } else if (protocolError) {
      const code = ERROR_CODES.includes(protocolError.code) ? protocolError.code : 'INTERNAL_ERROR';
      report(protocolError);
      emit(state, run.fail(code, code === 'INTERNAL_ERROR' ? GENERIC_FAILURE : protocolError.message.replace(/^[A-Z_]+: /, '')));
    } else if (handlerError) {
      report(handlerError);
      // Only an AgentError's message is meant for the client; anything else stays private.
      const chosen = handlerError instanceof AgentError && ERROR_CODES.includes(handlerError.code) && handlerError.code !== 'CANCELLED';
      if (chosen) emit(state, run.fail(handlerError.code, handlerError.message, { retryAfter: handlerError.retryAfter ?? 0 }));
      else emit(state, run.fail('INTERNAL_ERROR', GENERIC_FAILURE));
    } else {
      emit(state, run.respond(text, usage, { now: clock() })); // no text and no delta: EMPTY_RESPONSE (core)
    }
  }

  async function onCancel(cancel) {
    const promptId = rootOf(cancel);
    const state = runs.get(promptId);
    if (!state && admitting.has(promptId) && !early.has(promptId)) early.set(promptId, cancel);
    if (!state || state.client !== cancel.pubkey || tagValue(cancel, 'p') !== agent) return;
    if (tagValue(cancel, 'encryption') !== 'nip44') return;
    let plaintext;
    try {
      plaintext = await runPlaintext(signer, cancel, cancel.wrapped === true);
    } catch {
      return;
    }
    if (!validatePayload(KINDS.cancel, plaintext).ok || runs.get(promptId) !== state) return;
    const out = state.run.cancel(); // null when already cancelled or finished: nothing more to send
    if (!out) return;
    state.cancelled = true;
    state.controller.abort(new AgentError('CANCELLED', JSON.parse(plaintext).reason));
    emit(state, out);
  }

  let agent;
  try {
    agent = await signer.getPublicKey();
    gate = new (core().NipxxAdmission)(agent, infoJson, corePolicy);
    const infoEvent = await signer.signEvent({ kind: KINDS.info, tags: [['d', d]], content: infoJson, created_at: clock() });
    const published = await pool.publish(infoEvent, { relays });
    if (!published.some((r) => r.status === 'accepted')) report(new NostrError('RELAY_REJECTED', 'no relay accepted ai.info'));
    const from = since ?? clock() - 60;
    // Stored prompts (sent before the subscription's EOSE) older than `from` are not answered
    // (a restart does not answer old prompts again). A live prompt is answered when its
    // created_at is within maxClockSkew of our clock: the client's clock may run behind ours.
    let live = false;
    const fresh = (createdAt, wasLive) => (wasLive ? createdAt >= clock() - maxClockSkew : createdAt >= from);
    // A stale prompt gets no ai.error. The seed has no code for it, and a terminal would be worse
    // than none: the prompt may be a stored or re-broadcast copy of one already answered, and
    // clients keep the terminal with the highest created_at, so ours would replace that answer
    // (anyone can re-broadcast a signed prompt). The client ends such a run itself (idleTimeout:
    // RUN_INCOMPLETE, the seed's "missing a terminal after reasonable timeout"). A live one is
    // reported to the operator (STALE_PROMPT: typically a client clock far behind); stored ones
    // before `from` are what a restart is expected to skip.
    const promptIfFresh = (prompt, wasLive) => {
      if (fresh(prompt.created_at, wasLive)) return onPrompt(prompt);
      if (!wasLive || seen.has(prompt.id) || tagValue(prompt, 'p') !== agent) return null;
      seen.add(prompt.id);
      if (seen.size > SEEN_CAP) seen.delete(seen.values().next().value);
      report(
        new NostrError(
          'STALE_PROMPT',
          `prompt ${prompt.id} from ${prompt.pubkey} is ${clock() - prompt.created_at} s old (maxClockSkew ${maxClockSkew} s): not answered`,
        ),
      );
      return null;
    };
    const reqSince = Math.min(from, clock() - maxClockSkew);
    const filters = [
      { kinds: [KINDS.prompt], '#p': [agent], since: reqSince },
      { kinds: [KINDS.cancel], '#p': [agent], since: reqSince },
    ];
    // Privacy-first profile (ai.info supports_nip59): prompts and cancels may come gift-wrapped.
    const nip59 = infoPayload.supports_nip59 === true;
    if (nip59) filters.push({ kinds: [GIFT_WRAP], '#p': [agent], since: reqSince - WRAP_LOOKBACK });
    const onWrap = async (wrap, wasLive) => {
      const rumor = await openRunWrap(signer, wrap);
      // Not ours to read, not a NIP-XX request, or older than the prompts we answer: ignored.
      if (rumor === null || stopped) return;
      rumor.wrapped = true;
      if (rumor.kind === KINDS.prompt) return promptIfFresh(rumor, wasLive);
      if (rumor.kind === KINDS.cancel) return onCancel(rumor);
    };
    sub = await subscribeLive(pool, filters, {
      relays,
      onevent: (e) => {
        const work =
          e.kind === KINDS.prompt
            ? promptIfFresh(e, live)
            : e.kind === KINDS.cancel
              ? onCancel(e)
              : e.kind === GIFT_WRAP && nip59
                ? onWrap(e, live)
                : null;
        if (work) work.catch(report);
      },
    });
    live = true;

    return {
      pubkey: agent,
      info: infoPayload,
      infoEvent,
      /** Runs in progress. */
      get active() {
        return runs.size;
      },
      /**
       * Stops answering: aborts running handlers (their runs end with INTERNAL_ERROR, also when a
       * handler ignores its signal past stopTimeout), closes what it opened.
       */
      async stop() {
        if (stopped) return;
        stopped = true;
        if (sub && !sub.closed) sub.close();
        const running = [...runs.values()];
        for (const st of running) st.controller.abort(new NostrError('ABORTED', 'the agent stopped'));
        let timer;
        const settled = Promise.all(running.map((st) => st.whole.catch(() => {})));
        await Promise.race([settled, new Promise((r) => (timer = setTimeout(r, stopTimeout)))]);
        clearTimeout(timer);
        // Handlers that ignore their signal are left running, but their clients still get the
        // terminal (waiting for it at most stopTimeout again); drive() sends nothing more later,
        // as the run is finished.
        const late = running.filter((st) => [...runs.values()].includes(st) && !st.cancelled && !st.run.finished);
        if (late.length > 0) {
          const sent = Promise.all(late.map((st) => emit(st, st.run.fail('INTERNAL_ERROR', 'the agent stopped'))));
          await Promise.race([sent, new Promise((r) => (timer = setTimeout(r, stopTimeout)))]);
          clearTimeout(timer);
        }
        gate.delete();
        gate = null;
        if (owned) await pool.close();
      },
    };
  } catch (err) {
    stopped = true;
    if (sub && !sub.closed) sub.close();
    if (gate) gate.delete();
    if (owned) await pool.close();
    throw err;
  }
}
