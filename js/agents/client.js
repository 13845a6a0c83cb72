// The NIP-XX client: discover an agent's capabilities, send a prompt, follow the run.
// All I/O is here (relay pool, signer); ordering, dedupe, gaps and terminal selection are the
// core's ClientRun.
import { NostrError } from '../errors.js';
import { validatePayload } from '../nipxx.js';
import { AgentError } from './errors.js';
import { ClientMachine, cancelEvent, choosePrivacy, constants, promptEvent, runFilter, selectInfo } from './machines.js';
import { after, agentHex, clockOf, defaultInfo, openRunWrap, requireSigner, runPlaintext, sealEvent, subscribeLive, wrapRunEvent } from './shared.js';
import { requireStore } from './store.js';

const PRIVACY = ['default', 'nip59', 'auto'];
const infoCache = new WeakMap(); // pool -> Map(agent pubkey -> newest valid ai.info event)

/**
 * The default terminalGrace (ms) of every run: how long after its first terminal a run still takes
 * a newer one (the seed keeps the terminal with the highest (created_at, id)). A public constant
 * (the core loads asynchronously, so an export cannot read it): the machines use the core's
 * default_terminal_grace_ms, and tests check the two agree.
 */
export const TERMINAL_GRACE = 1500;
/** The former name of TERMINAL_GRACE (once only runs that sent ai.cancel waited). */
export const CANCEL_RACE_GRACE = TERMINAL_GRACE;

/**
 * Default idle timeout (ms): a run that hears nothing from its agent for this long ends locally
 * with RUN_INCOMPLETE (no wait is infinite by default; `idleTimeout: 0` turns it off). The core's
 * default_idle_timeout_ms, which the machines use; tests check the two agree.
 */
export const DEFAULT_IDLE_TIMEOUT = 120_000;

/**
 * Reads the agent's ai.info (kind 31340). Keeps, per pool, the newest valid one by
 * (created_at, id), so an older copy served later by some relay never replaces it. Resolves
 * `{ info, event }`; with no valid ai.info anywhere: the seed's defaults and `event: null`.
 */
export async function discover(pool, agent, { relays, maxWait, signal } = {}) {
  if (!pool || typeof pool.query !== 'function') throw new NostrError('INVALID_ARGUMENT', 'discover: pool is required');
  agent = agentHex(agent, 'discover');
  maxWait ??= constants().discoverWaitMs;
  const events = await pool.query({ kinds: [constants().kinds.info], authors: [agent] }, { relays, maxWait, signal });
  let cache = infoCache.get(pool);
  if (!cache) infoCache.set(pool, (cache = new Map()));
  const known = cache.get(agent);
  const candidates = known ? [known, ...events] : events; // the cached one wins ties
  const i = selectInfo(agent, candidates);
  if (i < 0) return { info: defaultInfo(), event: null };
  const best = candidates[i];
  cache.set(agent, best);
  return { info: JSON.parse(best.content), event: best };
}

/** Sends a prompt to `agent` and returns its Run (see Run). Throws INVALID_ARGUMENT at once for bad options. */
export function prompt(options) {
  return new Run(options);
}

/**
 * Recovers a run recorded in `store` (after a reload or a restart): replays what the store
 * holds through a fresh reconciliation, then, unless it already ended, subscribes again to the
 * run's events by its prompt id (`#e` root, the seed's "Session recovery recipe") and continues.
 * Resolves the Run (its updates start with the replayed ones). The signer must be the run's client.
 */
export async function resumeRun({ pool, relays, signer, store, id, cancelTimeout, terminalGrace, idleTimeout, signal, now } = {}) {
  if (!pool || typeof pool.subscribe !== 'function') throw new NostrError('INVALID_ARGUMENT', 'resumeRun: pool is required');
  requireSigner(signer, 'resumeRun');
  requireStore(store, 'resumeRun');
  if (typeof id !== 'string' || !/^[0-9a-f]{64}$/.test(id)) throw new NostrError('INVALID_ARGUMENT', 'resumeRun: id must be a prompt event id (64 hex)');
  const record = await store.getRun(id);
  if (!record) throw new NostrError('NOT_FOUND', `resumeRun: no run ${id} in the store`);
  const me = await signer.getPublicKey();
  if (me !== record.client) throw new NostrError('INVALID_ARGUMENT', 'resumeRun: the signer is not the client of this run');
  return new Run({ pool, relays, signer, store, agent: record.agent, message: record.message, cancelTimeout, terminalGrace, idleTimeout, signal, now }, record);
}

/**
 * One prompt and what the agent sends back. Iterate it for updates (status, delta with the text
 * so far, tool_call, rejected, then one terminal); `result` resolves `{ text, usage, eventId }`
 * or rejects with an AgentError (ai.error, CANCELLED included) or a NostrError (the prompt
 * could not be sent).
 */
/** The stored form of an accepted terminal (ClientRun's `terminal`): a run record's `terminal`. */
export function terminalSummary(terminal) {
  const summary = terminal.response
    ? { ok: true, text: terminal.response.text, eventId: terminal.eventId, ...(terminal.response.usage && { usage: terminal.response.usage }) }
    : { ok: false, eventId: terminal.eventId, ...terminal.error };
  delete summary.ver;
  summary.createdAt = terminal.createdAt; // orders it against a terminal found later on a relay
  return summary;
}

// The update (and result) of an accepted terminal; `replacedId`: the terminal it replaced.
function terminalUpdate(terminal, replacedId) {
  const extra = replacedId ? { replaced: true, replacedEventId: replacedId } : {};
  if (terminal.response) {
    const { text, usage } = terminal.response;
    return { type: 'terminal', ok: true, text, eventId: terminal.eventId, ...(usage && { usage }), ...extra };
  }
  const { code, message, retry_after: retryAfter, details } = terminal.error;
  return { type: 'terminal', ok: false, error: new AgentError(code, message, { retryAfter, details, eventId: terminal.eventId }), ...extra };
}

export class Run {
  constructor({
    pool,
    relays,
    signer,
    agent,
    message,
    model,
    thinking,
    session,
    provider,
    toolSchemaVersion,
    fallbackModels,
    tool_schema_version: toolSchemaVersionAlias,
    fallback_models: fallbackModelsAlias,
    signal,
    store,
    privacy = 'default',
    cancelTimeout,
    terminalGrace,
    idleTimeout,
    now,
  } = {}, resumed = null) {
    if (!pool || typeof pool.publish !== 'function') throw new NostrError('INVALID_ARGUMENT', 'prompt: pool is required');
    if (store !== undefined && store !== null) requireStore(store, 'prompt');
    if (!PRIVACY.includes(privacy)) throw new NostrError('INVALID_ARGUMENT', `prompt: privacy must be one of ${PRIVACY.join(', ')}`);
    requireSigner(signer, 'prompt');
    agent = agentHex(agent, 'prompt');
    this._clock = clockOf(now, 'prompt');
    if (typeof message !== 'string' || message.length === 0)
      throw new NostrError('INVALID_ARGUMENT', 'prompt: message must be a non-empty string');
    if (signal?.aborted) throw new NostrError('ABORTED', 'prompt: the signal is already aborted');
    // The seed's snake_case names are accepted too (one of each pair).
    if (toolSchemaVersion !== undefined && toolSchemaVersionAlias !== undefined && toolSchemaVersion !== toolSchemaVersionAlias)
      throw new NostrError('INVALID_ARGUMENT', 'prompt: toolSchemaVersion and tool_schema_version differ');
    if (fallbackModels !== undefined && fallbackModelsAlias !== undefined)
      throw new NostrError('INVALID_ARGUMENT', 'prompt: pass fallbackModels or fallback_models, not both');
    toolSchemaVersion ??= toolSchemaVersionAlias;
    fallbackModels ??= fallbackModelsAlias;
    const payload = { ver: 1, message };
    if (thinking !== undefined) payload.thinking = thinking;
    if (provider !== undefined) payload.provider = provider;
    if (model !== undefined) payload.model = model;
    if (toolSchemaVersion !== undefined) payload.tool_schema_version = toolSchemaVersion;
    if (fallbackModels !== undefined) payload.fallback_models = fallbackModels;
    const verdict = validatePayload(constants().kinds.prompt, payload);
    if (!verdict.ok) throw new NostrError('INVALID_ARGUMENT', `prompt: ${verdict.message}`);
    if (session !== undefined && (typeof session !== 'string' || session.length === 0))
      throw new NostrError('INVALID_ARGUMENT', 'prompt: session must be a non-empty string');

    this.agent = agent;
    /** The prompt event id (the run id), once signed. */
    this.id = null;
    /** The client's public key, once known. */
    this.client = null;
    this.session = session ?? null;
    /** The prompt's message. */
    this.message = message;
    /** The profile in use: 'default' (NIP-44) or 'nip59' (every run event gift-wrapped); null until chosen. */
    this.privacy = privacy === 'auto' ? null : privacy;
    this._privacyWish = privacy;

    this._pool = pool;
    this._store = store ?? null;
    this._storeChain = Promise.resolve();
    this._record = null;
    this._relays = relays;
    this._signer = signer;
    this._cancelTimeout = cancelTimeout; // undefined: the core's default (the constants table)
    if (terminalGrace !== undefined && !(Number.isFinite(terminalGrace) && terminalGrace >= 0))
      throw new NostrError('INVALID_ARGUMENT', 'prompt: terminalGrace must be a number of ms >= 0');
    this._terminalGrace = terminalGrace; // undefined: the core's default (TERMINAL_GRACE)
    if (idleTimeout !== undefined && !(Number.isFinite(idleTimeout) && idleTimeout >= 0))
      throw new NostrError('INVALID_ARGUMENT', 'prompt: idleTimeout must be a number of ms >= 0');
    this._idleTimeout = idleTimeout; // undefined: the core's default (DEFAULT_IDLE_TIMEOUT)
    this._timer = null; // the one timer: cancels the wait for the machine's next deadline
    this._timerAt = null;
    this._announced = false; // a terminal update was pushed during the grace period
    this._replaying = false; // stored events being fed again (resumeRun): nothing settles meanwhile
    this._degraded = false; // the last gap state announced
    this._text = ''; // the deltas' text so far, built from the machine's increments
    this._updates = [];
    this._waiters = [];
    this._done = false;
    this._machine = null;
    this._sub = null;
    this._chain = Promise.resolve();
    this._cancelRequested = false;
    // Aborted by cancel() while the prompt is not yet going out (agent discovery, the subscription
    // waiting for EOSE): nothing was sent, so nothing needs to wait. The publish itself is not
    // aborted: the prompt may reach the agent, which then needs the ai.cancel.
    this._prePublish = resumed ? null : new AbortController();
    this._result = new Promise((resolve, reject) => {
      this._resolve = resolve;
      this._reject = reject;
    });
    this._result.catch(() => {}); // a caller who only iterates must not get an unhandled rejection
    this._signal = signal;
    if (signal) {
      this._onAbort = () => void this.cancel('user_cancel');
      signal.addEventListener('abort', this._onAbort, { once: true });
    }
    this._published = resumed ? this._resume(resumed) : this._start(JSON.stringify(payload));
  }

  /** Promise of `{ text, usage, eventId }`; rejects with AgentError for ai.error. */
  get result() {
    return this._result;
  }

  /** Resolves true once a relay accepted the prompt, false when it was not sent. */
  get sent() {
    return this._published;
  }

  get done() {
    return this._done;
  }

  // Subscribes to the run's events (before the prompt goes out: they are ephemeral on ordinary relays).
  // Privacy-first: the wraps addressed to the client (routing by the wrapper's p and kind only).
  async _subscribe(since, signal) {
    const filter = runFilter(this.privacy, this.agent, this.client, this.id, since);
    const now = this._clock.ms();
    this._machine.start(now); // the idle deadline runs from here
    this._schedule(now);
    this._sub = await subscribeLive(
      this._pool,
      [filter],
      {
        relays: this._relays,
        signal,
        onevent: (e) => this._enqueue(e),
        // Ended by the pool or every relay (not by us: _finish closes it after the terminal).
        onclose: (reasons) => {
          const poolClosed = reasons.some((r) => r.relay === '' && r.reason === 'closed');
          const why = reasons.map((r) => `${r.relay || 'pool'}: ${r.reason}${r.message ? ` (${r.message})` : ''}`).join('; ');
          this._enqueueEnd(new NostrError(poolClosed ? 'POOL_CLOSED' : 'RELAY_CLOSED', `the run's subscription ended: ${why}`));
        },
      },
    );
  }

  async _start(payloadJson) {
    try {
      this.client = await this._signer.getPublicKey();
      if (this._privacyWish !== 'default') {
        // The client's wish and the agent's ai.info: supports_nip59 (Protocol Flow 2).
        const { event } = await discover(this._pool, this.agent, { relays: this._relays, maxWait: constants().promptDiscoverWaitMs, signal: this._prePublish.signal });
        this.privacy = choosePrivacy(this._privacyWish, event);
      }
      const out = promptEvent(this.agent, this.client, this.session, payloadJson);
      const payload = JSON.parse(out.plaintext);
      let event;
      let outgoing;
      if (this.privacy === 'nip59') {
        const { rumor, wrap } = await wrapRunEvent(this._signer, this.agent, out, this._clock);
        event = rumor;
        outgoing = wrap;
      } else {
        event = outgoing = await sealEvent(this._signer, this.agent, out, this._clock);
      }
      this.id = event.id;
      this._machine = this._newMachine(event.id, this.agent, this.client);
      if (this._store) {
        // Recorded before it is sent: a crash after the publish still finds the run.
        this._record = {
          id: event.id,
          agent: this.agent,
          client: this.client,
          session: out.tags.find((t) => t[0] === 's')[1],
          sessionTag: this.session,
          message: payload.message,
          ...(payload.model !== undefined && { model: payload.model }),
          ...(payload.thinking !== undefined && { thinking: payload.thinking }),
          created_at: event.created_at,
          createdMs: this._clock.ms(), // orders the runs of one second
          updatedAt: event.created_at,
          state: 'open',
          terminal: null,
          privacy: this.privacy,
          prompt: event,
        };
        await this._store.putRun(this._record);
      }
      await this._subscribe(event.created_at, this._prePublish.signal);
      if (this._done) return false;
      this._prePublish = null;
      if (this._cancelRequested) {
        this._finish(null, new AgentError('CANCELLED', 'cancelled before the prompt was sent'));
        return false;
      }
      const results = await this._pool.publish(outgoing, { relays: this._relays });
      if (!results.some((r) => r.status === 'accepted')) {
        const why = results.map((r) => `${r.relay}: ${r.status}${r.message ? ` (${r.message})` : ''}`).join('; ');
        throw new NostrError('RELAY_REJECTED', `no relay accepted the prompt: ${why}`);
      }
      return !this._done;
    } catch (err) {
      const cancelled = this._cancelRequested && err?.code === 'ABORTED';
      this._finish(null, cancelled ? new AgentError('CANCELLED', 'cancelled before the prompt was sent') : err);
      return false;
    } finally {
      this._prePublish = null;
    }
  }

  async _resume(record) {
    try {
      this.id = record.id;
      this.client = record.client;
      this.session = record.sessionTag ?? null;
      this.privacy = record.privacy ?? 'default';
      this._record = { ...record };
      delete this._record.events;
      this._machine = this._newMachine(record.id, record.agent, record.client);
      // An open run: live first, so nothing the agent sends while the stored part is replayed
      // (and rendered) is missed. Reconciliation does not depend on the order.
      if (record.state !== 'done') await this._subscribe(record.created_at);
      this._replaying = true;
      for (const { event, plaintext } of record.events ?? []) {
        if (this._done) break;
        this._apply(event, plaintext, false);
      }
      this._replaying = false;
      // The stored terminals were all weighed: a run the store holds as done settles on the winner
      // at once; an open one whose terminal was stored gets the grace from now.
      if (!this._done && this._machine.terminal) {
        if (record.state === 'done') this._finish(this._machine.terminal, null);
        else this._schedule();
      }
      return true;
    } catch (err) {
      this._finish(null, err);
      return false;
    }
  }

  _newMachine(promptId, agent, client) {
    return new ClientMachine({ promptId, agent, client, terminalGrace: this._terminalGrace, idleTimeout: this._idleTimeout });
  }

  // Store writes run one after another; a failure is reported as a `store_error` update.
  _storeOp(fn) {
    if (!this._store) return this._storeChain;
    this._storeChain = this._storeChain.then(fn).catch((error) => this._push({ type: 'store_error', error }));
    return this._storeChain;
  }

  _enqueue(event) {
    this._chain = this._chain.then(() => this._onEvent(event)).catch(() => {});
  }

  // After the events already received (a terminal among them wins).
  _enqueueEnd(error) {
    this._chain = this._chain.then(() => this._finish(null, error)).catch(() => {});
  }

  async _onEvent(received) {
    let event = received;
    const wrapped = this.privacy === 'nip59';
    if (wrapped) {
      // Wraps of anything else (DMs, other runs) do not open as this run's events: ignored.
      if (this._done || received.kind !== constants().kinds.giftWrap) return;
      event = await openRunWrap(this._signer, received);
      if (event === null) return;
    }
    if (this._done || !this._machine.namesRun(event)) return;
    let plaintext;
    try {
      plaintext = await runPlaintext(this._signer, event, wrapped);
    } catch {
      this._push({ type: 'rejected', code: 'PARSE_ERROR', reason: 'content does not decrypt (NIP-44)', eventId: event.id });
      return;
    }
    if (this._done) return;
    this._apply(event, plaintext, true);
  }

  // Arms the one timer at the machine's next deadline (the terminal grace, the idle timeout, the
  // wait for a cancel's answer). An armed timer due no later is kept: deadlines that moved later
  // (the idle one, on every event) are found when it fires. `now`: the clock reading the deadline
  // was set from, so the wait is exactly the machine's.
  _schedule(now = this._clock.ms()) {
    if (this._done || this._replaying || !this._machine) return;
    const at = this._machine.nextDeadline;
    if (at === null || (this._timer !== null && this._timerAt <= at)) return;
    this._timer?.();
    this._timerAt = at;
    this._timer = after(at - now, () => {
      this._timer = null;
      // After the events already received (a terminal among them wins).
      this._chain = this._chain.then(() => this._onTimeout(at)).catch(() => {});
    });
  }

  // The timer armed for deadline `due` fired: that wait is over even when the clock reads earlier
  // (a wall clock stepped back, or timers faked apart from it), so the machine is asked at the
  // later of the two; a deadline that moved on meanwhile is armed again.
  _onTimeout(due) {
    if (this._done || !this._machine) return;
    switch (this._machine.handleTimeout(Math.max(this._clock.ms(), due))) {
      case 'settled':
        return this._finish(null, null);
      case 'idle':
        // The seed's "missing a terminal after reasonable timeout"; the stored record stays open,
        // so the run can be resumed later.
        return this._finish(null, new NostrError('RUN_INCOMPLETE', `no event of the run for ${this._idleTimeout ?? constants().idleTimeoutMs} ms`));
      case 'cancel_unconfirmed':
        return this._finish(null, new AgentError('CANCELLED', 'cancelled; the agent did not confirm'));
      default:
        return this._schedule();
    }
  }

  // Feeds one decrypted event to the reconciliation; `record`: add it to the store when applied.
  _apply(event, plaintext, record) {
    let u;
    try {
      u = this._machine.onEvent(event, plaintext, this._clock.ms());
    } catch {
      return;
    }
    if (record && ['status', 'delta', 'tool_call', 'terminal'].includes(u.type)) {
      const id = this.id;
      this._storeOp(() => this._store.appendEvent(id, { event, plaintext }));
    }
    switch (u.type) {
      case 'status': {
        const { state, progress, info } = u.status;
        this._push({ type: 'status', state, ...(progress !== undefined && { progress }), ...(info !== undefined && { info }) });
        break;
      }
      case 'delta':
        // The core hands out the change only: O(1) per delta across the boundary, whatever the length.
        this._text = u.text !== undefined ? u.text : this._text + u.append;
        if (u.degraded !== this._degraded) {
          // A seq gap opened (a delta is missing) or the missing delta arrived and closed it.
          this._degraded = u.degraded;
          this._push({ type: 'gap', degraded: this._degraded });
        }
        this._push({
          type: 'delta',
          text: this._text,
          degraded: u.degraded,
          ...(u.thinking !== undefined && { thinking: u.thinking }),
        });
        break;
      case 'tool_call': {
        const { ver, ...call } = u.toolCall;
        this._push({ type: 'tool_call', ...call });
        break;
      }
      case 'rejected':
        this._push({ type: 'rejected', code: u.code, reason: u.reason, eventId: event.id });
        break;
      case 'terminal':
        // Shown at once; the run settles at the machine's settleAt (the first terminal's arrival
        // plus the grace), with the newest terminal by then.
        if (!this._replaying && this._machine.handleTimeout(this._clock.ms()) === 'settled') {
          this._finish(this._machine.terminal, null, u.replacedId);
          break;
        }
        this._push(terminalUpdate(this._machine.terminal, u.replacedId));
        this._announced = true;
        this._schedule();
        break;
      default:
        break;
    }
  }

  _push(update) {
    if (update !== null) this._updates.push(update);
    const waiters = this._waiters;
    this._waiters = [];
    for (const w of waiters) w();
  }

  _finish(given, error, replacedId) {
    if (this._done) return;
    this._done = true;
    // A terminal accepted during the grace period wins over a local ending (pool closed, cancel timeout).
    const terminal = given ?? this._machine?.terminal ?? null;
    this._timer?.();
    this._timer = null;
    if (this._signal) this._signal.removeEventListener('abort', this._onAbort);
    if (this._sub && !this._sub.closed) this._sub.close();
    if (terminal && this._record && this._record.state !== 'done') {
      // The agent's terminal is the run's state from now on (local failures are not: the run may still be resumed).
      const summary = terminalSummary(terminal);
      Object.assign(this._record, { state: 'done', terminal: summary, updatedAt: Math.max(this._clock.seconds(), terminal.createdAt) });
      const snapshot = { ...this._record };
      this._storeOp(() => this._store.putRun(snapshot));
    }
    // With a store, the result settles once the store holds the terminal.
    const settled = this._store ? this._storeChain : Promise.resolve();
    const update = terminal ? terminalUpdate(terminal, replacedId) : { type: 'terminal', ok: false, error };
    if (!(terminal && this._announced)) this._push(update);
    else this._push(null); // wakes the iterators: the run is done
    if (update.ok) {
      const { type, ok, replaced, replacedEventId, ...value } = update;
      settled.then(() => this._resolve(value));
    } else {
      settled.then(() => this._reject(update.error));
    }
    if (this._machine) this._machine.dispose();
    this._machine = null;
  }

  /**
   * Publishes ai.cancel (reason: user_cancel, timeout or policy). The run then ends with the
   * agent's CANCELLED (or its response, if that came first). Without an answer within
   * `cancelTimeout` ms the run ends locally with CANCELLED. Resolves true when a cancel was sent.
   */
  async cancel(reason = 'user_cancel') {
    // Once a terminal is shown (the machine has one), a cancel would only race it.
    if (this._done || this._cancelRequested || (this._machine !== null && !this._machine.mayCancel)) return false;
    const verdict = validatePayload(constants().kinds.cancel, { ver: 1, reason });
    if (!verdict.ok) throw new NostrError('INVALID_ARGUMENT', `cancel: ${verdict.message}`);
    this._cancelRequested = true;
    this._prePublish?.abort();
    if (!(await this._published) || this._done) return false;
    try {
      const out = cancelEvent(this.agent, this.client, this.id, this.session, reason);
      const event =
        this.privacy === 'nip59'
          ? (await wrapRunEvent(this._signer, this.agent, out, this._clock)).wrap
          : await sealEvent(this._signer, this.agent, out, this._clock);
      if (this._done) return false;
      const now = this._clock.ms();
      this._machine.cancelSent(now, this._cancelTimeout ?? constants().cancelTimeoutMs);
      this._schedule(now);
      await this._pool.publish(event, { relays: this._relays });
      return true;
    } catch (err) {
      this._finish(null, new AgentError('CANCELLED', 'cancelled; the cancel could not be sent', { cause: err }));
      return false;
    }
  }

  [Symbol.asyncIterator]() {
    let i = 0;
    let closed = false;
    const next = async () => {
      for (;;) {
        if (closed) return { value: undefined, done: true };
        if (i < this._updates.length) return { value: this._updates[i++], done: false };
        if (this._done) return { value: undefined, done: true };
        await new Promise((r) => this._waiters.push(r));
      }
    };
    return {
      next,
      return: async () => {
        closed = true;
        return { value: undefined, done: true };
      },
      [Symbol.asyncIterator]() {
        return this;
      },
    };
  }
}
