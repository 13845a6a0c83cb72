// The NIP-XX agent runtime: publishes ai.info, answers prompts with an async-generator handler.
// All I/O is here (relay pool, signer); which prompts and cancels count (dedupe, freshness, cancel
// authorization) is the core's agent inbox, admission (allow/block lists, rate limit, schema,
// negotiation) the core's NipxxAdmission, and every outgoing event comes from the core's AgentRun
// (seq from 0, exactly one terminal, cancel once).
import { core } from '../core.js';
import { NostrError } from '../errors.js';
import { AgentRun, ERROR_CODES, rumorContentIsPayload } from '../nipxx.js';
import { AgentError } from './errors.js';
import { AgentInbox, infoEvent as infoEventOf } from './inbox.js';
import { constants } from './machines.js';
import { after, clockOf, defaultInfo, openRunWrap, poolFrom, requireSigner, rootOf, runPlaintext, sealEvent, subscribeLive, tagValue, wrapRunEvent } from './shared.js';

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
  stopTimeout,
  maxClockSkew,
  now,
} = {}) {
  requireSigner(signer, 'serveAgent');
  const clock = clockOf(now, 'serveAgent');
  const { kinds } = constants();
  stopTimeout ??= constants().stopTimeoutMs;
  maxClockSkew ??= constants().maxClockSkew;
  if (!(Number.isFinite(maxClockSkew) && maxClockSkew >= 0))
    throw new NostrError('INVALID_ARGUMENT', 'serveAgent: maxClockSkew must be a number of seconds >= 0');
  if (typeof handler !== 'function') throw new NostrError('INVALID_ARGUMENT', 'serveAgent: handler must be an async generator function');
  if (typeof d !== 'string' || d.length === 0) throw new NostrError('INVALID_ARGUMENT', 'serveAgent: d must be a non-empty string');
  const infoPayload = { ...defaultInfo(), ...info, ver: 1 };
  const infoJson = JSON.stringify(infoPayload);
  const infoOut = infoEventOf(d, infoJson); // the schema and the one d tag: the core's
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
  let inbox = null;
  let sub = null;
  let stopped = false;
  const runs = new Map(); // prompt id -> { run, client, controller, chain, cancelled, finished }

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

  // The inbox decides: answer it, or not (a duplicate, another agent's, too old). A stale live
  // prompt gets no ai.error (see the core's agent_inbox: a terminal could replace the answer a
  // stored or re-broadcast copy already has); the operator is told (STALE_PROMPT: typically a
  // client clock far behind), and the client ends such a run itself (idleTimeout: RUN_INCOMPLETE).
  // live: whether it (or its gift wrap) arrived after the stored events (judged at arrival: a wrap
  // is opened later).
  async function onPrompt(prompt, live) {
    if (stopped) return;
    const disposition = inbox.onPrompt(prompt, clock.ms(), live);
    if (disposition === 'stale') {
      const age = clock.seconds() - prompt.created_at;
      report(new NostrError('STALE_PROMPT', `prompt ${prompt.id} from ${prompt.pubkey} is ${age} s old (maxClockSkew ${maxClockSkew} s): not answered`));
    }
    if (disposition !== 'handle') return;
    try {
      return await admitAndRun(prompt);
    } finally {
      inbox?.promptDone(prompt.id);
    }
  }

  async function admitAndRun(prompt) {
    const screened = gate.screen(prompt, clock.ms());
    if (screened === undefined) return;
    if (!screened.ok) return refuse(prompt, screened.code, screened.message, screened.retryAfter);
    let plaintext;
    try {
      plaintext = await runPlaintext(signer, prompt, prompt.wrapped === true);
    } catch {
      return refuse(prompt, 'PARSE_ERROR', 'content does not decrypt (NIP-44)');
    }
    if (stopped) return;
    const admitted = gate.admit(prompt, plaintext);
    if (admitted === undefined) return;
    if (!admitted.ok) return refuse(prompt, admitted.code, admitted.message, admitted.retryAfter);
    const whole = runPrompt(prompt, admitted);
    const held = inbox.takeHeld(prompt.id); // a cancel that came while the prompt was being admitted
    if (held) onCancel(held).catch(report);
    await whole;
  }

  async function runPrompt(prompt, admitted) {
    const wrapped = wrapping(prompt);
    // Privacy-first: minimal disclosure, tool telemetry without arguments or output (the core drops them).
    const run = new AgentRun({ promptId: prompt.id, clientPubkey: prompt.pubkey, session: tagValue(prompt, 's') ?? '', info: infoPayload, privacyFirst: !!wrapped });
    const state = { run, client: prompt.pubkey, wrapped, controller: new AbortController(), chain: Promise.resolve(), cancelled: false };
    runs.set(prompt.id, state);
    inbox.runStarted(prompt.id, prompt.pubkey);
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
        await emit(state, run.delta(item, { now: clock.seconds() }));
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
      emit(state, run.respond(text, usage, { now: clock.seconds() })); // no text and no delta: EMPTY_RESPONSE (core)
    }
  }

  // The inbox authorizes: a running run, its own client, addressed to us, NIP-44, a valid payload
  // (else ignored: "ai.cancel without a matching active run is ignored"); one that comes while
  // its prompt is being admitted is held until the run starts.
  async function onCancel(cancel) {
    if (!inbox) return;
    if (inbox.onCancel(cancel) !== 'decrypt') return;
    let plaintext;
    try {
      plaintext = await runPlaintext(signer, cancel, cancel.wrapped === true);
    } catch {
      return;
    }
    const authorized = inbox?.authorizeCancel(cancel, plaintext);
    const state = authorized ? runs.get(authorized.promptId) : undefined;
    if (!state) return;
    const out = state.run.cancel(); // null when already cancelled or finished: nothing more to send
    if (!out) return;
    state.cancelled = true;
    state.controller.abort(new AgentError('CANCELLED', authorized.reason));
    emit(state, out);
  }

  let agent;
  try {
    agent = await signer.getPublicKey();
    gate = new (core().NipxxAdmission)(agent, infoJson, corePolicy);
    const infoEvent = await signer.signEvent({ kind: infoOut.kind, tags: infoOut.tags, content: infoOut.plaintext, created_at: clock.seconds() });
    const published = await pool.publish(infoEvent, { relays });
    if (!published.some((r) => r.status === 'accepted')) report(new NostrError('RELAY_REJECTED', 'no relay accepted ai.info'));
    // Stored prompts (sent before the subscription's EOSE) older than `from` are not answered (a
    // restart does not answer old prompts again); live ones within maxClockSkew of our clock are.
    const from = since ?? clock.seconds() - constants().restartLookback;
    inbox = new AgentInbox(agent, from, maxClockSkew);
    // Privacy-first profile (ai.info supports_nip59): prompts and cancels may come gift-wrapped.
    const nip59 = infoPayload.supports_nip59 === true;
    const { giftWrap } = kinds;
    const filters = inbox.filters(clock.ms(), nip59);
    const onWrap = async (wrap, live) => {
      const rumor = await openRunWrap(signer, wrap);
      // Not ours to read, not a NIP-XX request, or older than the prompts we answer: ignored.
      if (rumor === null || stopped) return;
      rumor.wrapped = true;
      if (rumor.kind === kinds.prompt) return onPrompt(rumor, live);
      if (rumor.kind === kinds.cancel) return onCancel(rumor);
    };
    sub = await subscribeLive(pool, filters, {
      relays,
      onevent: (e) => {
        const live = inbox?.live ?? true;
        const work = e.kind === kinds.prompt ? onPrompt(e, live) : e.kind === kinds.cancel ? onCancel(e) : e.kind === giftWrap && nip59 ? onWrap(e, live) : null;
        if (work) work.catch(report);
      },
    });
    inbox.goLive();

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
        let stopTimer;
        const settled = Promise.all(running.map((st) => st.whole.catch(() => {})));
        await Promise.race([settled, new Promise((r) => (stopTimer = after(stopTimeout, r)))]);
        stopTimer();
        // Handlers that ignore their signal are left running, but their clients still get the
        // terminal (waiting for it at most stopTimeout again); drive() sends nothing more later,
        // as the run is finished.
        const late = running.filter((st) => [...runs.values()].includes(st) && !st.cancelled && !st.run.finished);
        if (late.length > 0) {
          const sent = Promise.all(late.map((st) => emit(st, st.run.fail('INTERNAL_ERROR', 'the agent stopped'))));
          await Promise.race([sent, new Promise((r) => (stopTimer = after(stopTimeout, r)))]);
          stopTimer();
        }
        gate.delete();
        gate = null;
        inbox.dispose();
        inbox = null;
        if (owned) await pool.close();
      },
    };
  } catch (err) {
    stopped = true;
    if (sub && !sub.closed) sub.close();
    if (gate) gate.delete();
    inbox?.dispose();
    if (owned) await pool.close();
    throw err;
  }
}
