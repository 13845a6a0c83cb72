// AgxClient: an AGX endpoint over a RelayPool with any Signer (LocalSigner, Nip07Signer, a NIP-46
// or KMS signer: anything with getPublicKey/signEvent/nip44Encrypt/nip44Decrypt). Everything the
// protocol decides (wrap checks, replay, routing, authorization, envelopes, PoW, auto-reply depth,
// cards) is the core's; this file owns the I/O: the live subscription, catch-up polls by the
// cursor rules, publishing, timers, the seen store and the handlers.
import { NostrError } from '../errors.js';
import { RelayPool } from '../relay/index.js';
import { isSigner } from '../signer.js';
import { core } from '../core.js';
import { AgxPublicError, taskFailed } from './errors.js';
import {
  createMessageRumor,
  createReceiptRumor,
  createTaskInputRumor,
  createTaskRequestRumor,
  createTaskResultRumor,
  createTaskStatusRumor,
} from './rumor.js';
import { wrapRumor } from './wrap.js';
import { unwrapAgx, unwrapAgxAsync, isSignerUnavailable } from './unwrap.js';
import { AgxRouter } from './router.js';
import { ReplayGuard } from './replay.js';
import { MemorySeenStore } from './seen-store.js';
import { TaskGate, rejectionText, taskLimits } from './task-gate.js';
import { findHandler } from './capability.js';
import { localHandle, peerHex, randomId } from './util.js';

const MAX_BACKDATE = 172800; // SPEC.md MAX_WRAP_BACKDATE_SEC
const MAX_FUTURE_SKEW = 300;
const SEEN_RETENTION = 3 * 24 * 3600; // the core's kSeenRetention (longer than the poll window)
const DEFAULT_OVERLAP = 120;
const DEFAULT_TIMEOUT = 30000;
const DEFAULT_POLL_INTERVAL = 60000;
const DEFAULT_POLL_TIMEOUT = 10000;
const DEFAULT_MAX_AUTO_DEPTH = 8;
const DEFAULT_INPUT_TIMEOUT = 300000; // how long a handler waits for the requester's input
const DEFAULT_MAX_RUNS = 3; // a task cut short by this many crashes is answered "handler failed", not run again
const SETTLED_CAP = 10000; // task ids of our settled requests remembered (a second result is dropped)
const RETRY_FIRST = 1000; // ms before a result that no relay accepted is published again (doubling)
const RETRY_MAX = 30000;

const registry = new FinalizationRegistry((native) => native.delete());

/** The core's automated-reply limiter: the autoDepth ceiling plus local bounds per peer and per conversation. */
export class AutoReplyLimiter {
  #native;
  /** options: maxAutoDepth (8), perConversation (8), perPeer (32), peerWindow (3600 s). */
  constructor({ maxAutoDepth = DEFAULT_MAX_AUTO_DEPTH, perConversation = -1, perPeer = -1, peerWindow = -1 } = {}) {
    for (const [k, v] of Object.entries({ maxAutoDepth, perConversation, perPeer, peerWindow }))
      if (!Number.isSafeInteger(v) || (v < 0 && k === 'maxAutoDepth') || v > 0xffffffff)
        throw new NostrError('INVALID_ARGUMENT', `${k} must be a non-negative integer`);
    this.#native = new (core().AgxAutoReply)(Math.min(maxAutoDepth, 255), perConversation, perPeer, peerWindow);
    registry.register(this, this.#native, this);
  }
  #n() {
    if (!this.#native) throw new NostrError('AGX_CLOSED', 'the limiter was disposed');
    return this.#native;
  }
  get ceiling() {
    return this.#n().ceiling();
  }
  /** 'allowed' (and counted), 'depth-ceiling', 'conversation-bound' or 'peer-bound'. */
  tryReply(peer, conversation, inboundDepth, now = Math.floor(Date.now() / 1000)) {
    return this.#n().tryReply(String(peer), String(conversation), inboundDepth | 0, now);
  }
  /** A human touched the conversation: its count restarts. */
  humanReset(peer, conversation) {
    this.#n().humanReset(String(peer), String(conversation));
  }
  /** A human cleared the peer: its window and all its conversations restart. */
  resetPeer(peer) {
    this.#n().resetPeer(String(peer));
  }
  dispose() {
    if (!this.#native) return;
    registry.unregister(this);
    this.#native.delete();
    this.#native = null;
  }
}

/** autoDepth of an automated reply to a message of depth `inbound` (absent/unusable counts as 0). */
export function replyDepth(inbound) {
  return core().agxReplyDepth(Number.isSafeInteger(inbound) && inbound >= 0 && inbound <= 255 ? inbound : 0);
}

function checkTimeout(v, what) {
  if (v !== undefined && (!Number.isFinite(v) || v < 0)) throw new NostrError('INVALID_ARGUMENT', `${what} must be a non-negative number of ms`);
}

/**
 * options:
 *   signer (required: any Signer), pool (a RelayPool) or relays (URLs; the client then owns a pool),
 *   authorize: ({from, capability}) => boolean | Promise<boolean>, or 'accept-all' (explicit
 *     opt-in); nothing configured = default-deny with a one-time warning. acceptAll: true and
 *     allow: [{pubkey, capability}] are kept from createAgxAgent.
 *   handlers ({capability: fn}), onMessage, onReceipt, onWarning (default console.warn), onError,
 *   seenStore (default MemorySeenStore), maxAutoDepth (8), autoReplyLimits ({perConversation,
 *   perPeer, peerWindow}), requestTimeout (ms, 30000), publishTimeout, pollInterval (ms, 60000;
 *   0 = no timer), pollTimeout (ms per relay, 10000), pollOverlap (s, 120), identity ({org, nip05})
 *   for the card start({advertise: true}) publishes, isSignerUnavailable (err => boolean),
 *   now (() => seconds; the clock), taskLimits (flood limits of the tasks we serve: maxConcurrent
 *   16, perPeerConcurrent 4, maxQueued 256, perPeerQueued 32, perPeerRate {count: 300, window: 60 s}
 *   or null, maxTrackedPeers 10000; see task-gate.js), maxTaskRuns (3: a task cut short by that many
 *   crashes is answered "handler failed").
 *
 * Served tasks are answered exactly once across crashes when the seen store keeps task records
 * (putTask/deleteTask: the three stores here do): a task is recorded 'accepted' (with its wrap)
 * before its handler runs, and 'done' (with its result's wrap) before the result is published; at
 * start(), an accepted task runs again (ctx.redelivered) and a done one is published again. A
 * requester resolves one result per task id; a second one for a settled task is dropped.
 */
export class AgxClient {
  #o;
  #signer;
  #local;
  #pool;
  #ownPool = false;
  #relays;
  #me = null;
  #router;
  #guard;
  #store;
  #limiter;
  #handlers = new Map();
  #messageListeners = new Set();
  #receiptListeners = new Set();
  #updateListeners = new Set();
  #awaiting = new Map(); // taskId -> {from, resolve, reject, timer} of a handler waiting for input
  #pending = new Map();
  #inflight = new Set();
  #opening = new Map(); // wrapId -> Promise of its ingest result
  #sub = null;
  #timer = null;
  #cursor = 0;
  #polling = null;
  #started = null;
  #closed = false;
  #authorize;
  #warnedUnconfigured = false;
  #clock;
  #gate;
  #durable = false;
  #claimed = new Set(); // rumor ids of task requests being accepted (not yet marked seen)
  #outbox = new Map(); // rumor id -> 'done' record whose result no relay has accepted yet
  #sending = new Set();
  #retryTimer = null;
  #retryDelay = RETRY_FIRST;
  #settled = new Map(); // taskId -> {peer, until} of our requests already settled
  #maxRuns;
  #stats = { accepted: 0, reruns: 0, republished: 0, duplicateResults: 0, rejected: { 'rate-limited': 0, overloaded: 0 } };

  constructor(options = {}) {
    const o = options;
    if (!isSigner(o.signer)) throw new NostrError('INVALID_ARGUMENT', 'signer must be a Signer (getPublicKey, signEvent, nip44Encrypt, nip44Decrypt)');
    if (o.pool !== undefined && (!o.pool || typeof o.pool.subscribe !== 'function' || typeof o.pool.publish !== 'function'))
      throw new NostrError('INVALID_ARGUMENT', 'pool must be a RelayPool');
    if (o.pool === undefined && (!Array.isArray(o.relays) || o.relays.length === 0))
      throw new NostrError('INVALID_ARGUMENT', 'pass a pool or a non-empty relays list');
    if (o.authorize !== undefined && typeof o.authorize !== 'function' && o.authorize !== 'accept-all')
      throw new NostrError('INVALID_ARGUMENT', "authorize must be a function or 'accept-all'");
    if (o.seenStore !== undefined && (typeof o.seenStore?.load !== 'function' || typeof o.seenStore?.append !== 'function' || typeof o.seenStore?.setCursor !== 'function'))
      throw new NostrError('INVALID_ARGUMENT', 'seenStore must have load, append and setCursor');
    for (const k of ['requestTimeout', 'publishTimeout', 'pollInterval', 'pollTimeout', 'inputTimeout']) checkTimeout(o[k], k);
    if (o.pollOverlap !== undefined && (!Number.isSafeInteger(o.pollOverlap) || o.pollOverlap < 0))
      throw new NostrError('INVALID_ARGUMENT', 'pollOverlap must be non-negative integer seconds');
    if (o.maxTaskRuns !== undefined && (!Number.isSafeInteger(o.maxTaskRuns) || o.maxTaskRuns < 1))
      throw new NostrError('INVALID_ARGUMENT', 'maxTaskRuns must be an integer >= 1');
    this.#gate = new TaskGate(taskLimits(o.taskLimits ?? {}));
    this.#maxRuns = o.maxTaskRuns ?? DEFAULT_MAX_RUNS;
    this.#o = o;
    this.#signer = o.signer;
    this.#local = localHandle(o.signer) !== 0;
    if (this.#local) this.#me = o.signer.publicKey;
    this.#clock = typeof o.now === 'function' ? o.now : () => Math.floor(Date.now() / 1000);
    if (o.pool) {
      this.#pool = o.pool;
      this.#relays = o.relays;
    } else {
      this.#pool = new RelayPool({ relays: o.relays, relayInfo: false, signer: o.signer });
      this.#ownPool = true;
      this.#relays = undefined;
    }
    this.#authorize = o.authorize === 'accept-all' ? undefined : o.authorize;
    const mode = typeof o.authorize === 'function' ? 'host' : o.authorize === 'accept-all' || o.acceptAll === true ? 'accept-all' : 'unconfigured';
    this.#router = new AgxRouter(mode);
    for (const { pubkey, capability } of o.allow ?? []) this.#router.allow(pubkey, capability);
    for (const [k, fn] of Object.entries(o.handlers ?? {})) this.handle(k, fn);
    this.#guard = new ReplayGuard();
    this.#store = o.seenStore ?? new MemorySeenStore();
    this.#durable = typeof this.#store.putTask === 'function' && typeof this.#store.deleteTask === 'function';
    this.#limiter = new AutoReplyLimiter({ maxAutoDepth: o.maxAutoDepth ?? DEFAULT_MAX_AUTO_DEPTH, ...(o.autoReplyLimits ?? {}) });
    if (o.onMessage) this.#messageListeners.add(o.onMessage);
    if (o.onReceipt) this.#receiptListeners.add(o.onReceipt);
    if (mode === 'unconfigured' && (o.allow ?? []).length === 0 && this.#router.takeUnconfiguredWarning()) {
      this.#warnedUnconfigured = true;
      this.#warn('no authorization configured: every task request is denied (pass authorize, allow or authorize: "accept-all")');
    }
  }

  // --- small helpers

  #warn(msg) {
    if (this.#o.onWarning) this.#o.onWarning(msg);
    else console.warn(`[agx] ${msg}`);
  }

  #report(err) {
    if (this.#o.onError) {
      try {
        this.#o.onError(err);
      } catch {
        // a throwing onError must not take the client down
      }
    }
  }

  #live() {
    if (this.#closed) throw new NostrError('AGX_CLOSED', 'the client was stopped');
  }

  async #whoami() {
    if (this.#me) return this.#me;
    const pk = await this.#signer.getPublicKey();
    if (typeof pk !== 'string' || !/^[0-9a-f]{64}$/.test(pk))
      throw new NostrError('INVALID_PUBLIC_KEY', 'the signer returned a public key that is not 64 lowercase hex');
    this.#me = pk;
    return pk;
  }

  /** Our hex public key (null until known for a non-local signer: after start() or a first send). */
  get publicKey() {
    return this.#me;
  }

  get pendingCount() {
    return this.#pending.size;
  }

  /**
   * Counters of the tasks we serve and request: running and queued handlers (flood limits),
   * accepted, reruns (tasks cut short by a crash and run again at start), republished (results
   * recorded done at a restart, published again), rejected by the flood limits (by reason),
   * outbox (results waiting for a relay to accept them), duplicateResults (a second result for
   * one of our settled requests, dropped), trackedPeers.
   */
  get taskStats() {
    const s = this.#stats;
    return {
      running: this.#gate.running,
      queued: this.#gate.queued,
      trackedPeers: this.#gate.trackedPeers,
      accepted: s.accepted,
      reruns: s.reruns,
      republished: s.republished,
      outbox: this.#outbox.size,
      duplicateResults: s.duplicateResults,
      rejected: { ...s.rejected },
    };
  }

  /** The inbox cursor (unix seconds) the next catch-up poll measures its window from. */
  get cursor() {
    return this.#cursor;
  }

  get pool() {
    return this.#pool;
  }

  /** The relays we publish to and read from. */
  relayUrls() {
    return this.#relays ?? this.#pool.status().map((s) => s.relay);
  }

  /** Registers a capability handler (exact key, "ns.*" or "*"): fn(payload, ctx) => output. */
  handle(capability, fn) {
    if (typeof capability !== 'string' || capability === '') throw new NostrError('INVALID_ARGUMENT', 'capability must be a non-empty string');
    if (typeof fn !== 'function') throw new NostrError('INVALID_ARGUMENT', `handler ${capability} is not a function`);
    this.#handlers.set(capability, fn);
    this.#router.setHandlers([...this.#handlers.keys()]);
    return this;
  }

  /** The capabilities we handle (what an Agent Card advertises). */
  capabilities() {
    return [...this.#handlers.keys()];
  }

  /** Adds a listener for plain-path messages; returns a function that removes it. */
  onMessage(fn) {
    if (typeof fn !== 'function') throw new NostrError('INVALID_ARGUMENT', 'onMessage needs a function');
    this.#messageListeners.add(fn);
    return () => this.#messageListeners.delete(fn);
  }

  /** Adds a listener for receipts of our requests; returns a function that removes it. */
  onReceipt(fn) {
    if (typeof fn !== 'function') throw new NostrError('INVALID_ARGUMENT', 'onReceipt needs a function');
    this.#receiptListeners.add(fn);
    return () => this.#receiptListeners.delete(fn);
  }

  /**
   * Adds a listener for status updates of our requests (working / input-required, from the peer
   * the request went to); returns a function that removes it.
   */
  onTaskUpdate(fn) {
    if (typeof fn !== 'function') throw new NostrError('INVALID_ARGUMENT', 'onTaskUpdate needs a function');
    this.#updateListeners.add(fn);
    return () => this.#updateListeners.delete(fn);
  }

  // --- outbound

  async #publishRumor(rumor, to, signal) {
    const wrap = await wrapRumor(rumor, this.#signer, to, { signal, now: this.#clock() });
    const results = await this.#publishWrap(wrap, signal);
    return { wrap, results };
  }

  async #publishWrap(wrap, signal) {
    const results = await this.#pool.publish(wrap, { relays: this.#relays, timeout: this.#o.publishTimeout, signal });
    if (!results.some((r) => r.status === 'accepted'))
      throw Object.assign(new NostrError('AGX_PUBLISH_FAILED', 'no relay accepted the wrap'), { results });
    return results;
  }

  /**
   * A message a human authored, approved or asked for (autoDepth 0). options: subject, contextId
   * (continue a conversation: its automated-reply count restarts), signal.
   */
  async send(peer, text, opts = {}) {
    this.#live();
    const to = peerHex(peer);
    const me = await this.#whoami();
    const rumor = createMessageRumor(text, me, to, { subject: opts.subject, contextId: opts.contextId, now: this.#clock() });
    if (opts.contextId != null) this.#limiter.humanReset(to, opts.contextId);
    const { wrap, results } = await this.#publishRumor(rumor, to, opts.signal);
    return { rumorId: rumor.id, wrapId: wrap.id, contextId: JSON.parse(rumor.content).contextId, results };
  }

  /**
   * An automated reply to an inbound message: autoDepth = inbound + 1, the same conversation;
   * refused (not sent, surfaced to onWarning, never to the peer) past the ceiling or the local
   * bounds. Resolves { sent: true, rumorId, autoDepth } or { sent: false, refused }.
   */
  async autoReply(inbound, text, opts = {}) {
    this.#live();
    const to = peerHex(inbound.from);
    const depth = Number.isSafeInteger(inbound.autoDepth) ? inbound.autoDepth : 0;
    const verdict = this.#limiter.tryReply(to, inbound.contextId, depth, this.#clock());
    if (verdict !== 'allowed') {
      this.#warn(`automated reply to ${to} not sent: ${verdict} (conversation ${inbound.contextId}, inbound autoDepth ${depth})`);
      return { sent: false, refused: verdict };
    }
    const me = await this.#whoami();
    const autoDepth = replyDepth(depth);
    const rumor = createMessageRumor(text, me, to, { subject: opts.subject, contextId: inbound.contextId, autoDepth, now: this.#clock() });
    const { wrap } = await this.#publishRumor(rumor, to, opts.signal);
    return { sent: true, rumorId: rumor.id, wrapId: wrap.id, autoDepth };
  }

  /** A human reset: the conversation's automated-reply count (or, without contextId, the peer's). */
  resetAutoDepth(peer, contextId) {
    const to = peerHex(peer);
    if (contextId == null) this.#limiter.resetPeer(to);
    else this.#limiter.humanReset(to, String(contextId));
  }

  #settleLocal(taskId) {
    const p = this.#pending.get(taskId);
    if (!p) return null;
    this.#pending.delete(taskId);
    clearTimeout(p.timer);
    if (p.signal) p.signal.removeEventListener('abort', p.onAbort);
    return p;
  }

  /**
   * Sends a task and resolves with the output of its completed result (from that peer only).
   * Rejects AGX_TASK_FAILED (err.result), AGX_TIMEOUT, ABORTED, AGX_CLOSED, AGX_PUBLISH_FAILED, or
   * AGX_TOO_LARGE before anything is sent. options: timeout (ms), signal.
   */
  request(peer, capability, payload, opts = {}) {
    let to, taskId, timeout, signal, me;
    try {
      this.#live();
      to = peerHex(peer);
      taskId = randomId();
      timeout = opts.timeout ?? this.#o.requestTimeout ?? DEFAULT_TIMEOUT;
      checkTimeout(timeout, 'timeout');
      signal = opts.signal;
      if (signal?.aborted) throw new NostrError('ABORTED', 'the request was aborted', { cause: signal.reason });
      me = this.#me;
    } catch (err) {
      return Promise.reject(err);
    }
    const build = (author) => createTaskRequestRumor({ taskId, capability, payload }, author, to, { now: this.#clock() });
    return (async () => {
      const author = me ?? (await this.#whoami());
      const rumor = build(author); // size checks fail here, before anything is sent
      this.#router.addPending(taskId, to);
      return new Promise((resolve, reject) => {
        const fail = (err) => {
          if (!this.#settleLocal(taskId)) return;
          this.#router.cancelPending(taskId);
          reject(err);
        };
        const arm = () => (timeout > 0 ? setTimeout(() => fail(new NostrError('AGX_TIMEOUT', `no result for ${capability} within ${timeout} ms`)), timeout) : null);
        const entry = {
          resolve,
          reject,
          signal,
          rumorId: rumor.id,
          receipts: 0,
          peer: to,
          capability,
          state: 'submitted',
          onUpdate: typeof opts.onUpdate === 'function' ? opts.onUpdate : null,
          arm,
          timer: arm(),
          onAbort: () => fail(new NostrError('ABORTED', 'the request was aborted', { cause: signal.reason })),
          fail,
        };
        this.#pending.set(taskId, entry);
        if (signal) signal.addEventListener('abort', entry.onAbort, { once: true });
        this.#publishRumor(rumor, to, signal).catch(fail);
      });
    })();
  }

  /**
   * Answers an input-required status of our request `taskId` (its peer's handler resumes with
   * `input`). Rejects INVALID_ARGUMENT when no open request of ours is waiting for input under
   * that id, AGX_TOO_LARGE, AGX_PUBLISH_FAILED.
   */
  async provideInput(taskId, input, opts = {}) {
    this.#live();
    const p = this.#pending.get(taskId);
    if (!p || p.state !== 'input-required') throw new NostrError('INVALID_ARGUMENT', `no request ${taskId} is waiting for input`);
    const me = await this.#whoami();
    const rumor = createTaskInputRumor({ taskId, input }, me, p.peer, { now: this.#clock() });
    p.state = 'working'; // answered: the peer's handler resumes
    const { wrap } = await this.#publishRumor(rumor, p.peer, opts.signal);
    return { rumorId: rumor.id, wrapId: wrap.id };
  }

  async #reply(rumor, to) {
    try {
      await this.#publishRumor(rumor, to);
    } catch (err) {
      this.#report(err);
    }
  }

  // --- inbound

  // A task request we may serve (authorized, a handler for it): the flood limits decide between
  // running it now, queueing it and rejecting it (a failed result with a typed error). An accepted
  // one is recorded (commit) before its handler can run. Resolves once it ran (or was set aside).
  async #accept(opened, d, commit) {
    const from = opened.from;
    const now = this.#clock();
    const rec = {
      id: opened.rumor.id,
      state: 'accepted',
      wrap: opened.wrap,
      to: from,
      taskId: opened.task.taskId,
      runs: 1,
      expiresAt: now + SEEN_RETENTION,
    };
    let finish;
    const ran = new Promise((r) => (finish = r));
    const entry = { peer: from, finish, start: () => this.#runHandler(opened, d, rec, false) };
    const verdict = this.#gate.offer(from, now, entry);
    if (typeof verdict === 'object') {
      await commit(null);
      this.#stats.rejected[verdict.rejected]++;
      const me = await this.#whoami();
      const built = createTaskResultRumor({ taskId: opened.task.taskId, status: 'failed', error: rejectionText(verdict) }, me, from, { now: this.#clock() });
      await this.#reply(built.rumor, from);
      return;
    }
    this.#stats.accepted++;
    await commit(rec);
    if (verdict === 'run') this.#launch(entry);
    await ran;
  }

  // Runs a gate entry that holds a slot; when it ends, the slot goes to the next queued entry.
  #launch(entry) {
    const run = this.#closed ? Promise.resolve() : Promise.resolve().then(entry.start);
    const job = run
      .catch((err) => this.#report(err))
      .finally(() => {
        entry.finish();
        const next = this.#gate.release(entry.peer);
        if (next) this.#launch(next.job);
      });
    this.#inflight.add(job);
    job.finally(() => this.#inflight.delete(job));
  }

  // A task left 'accepted' by a process that died: its handler runs again (ctx.redelivered).
  async #rerun(rec) {
    const now = this.#clock();
    let opened;
    try {
      const me = await this.#whoami();
      opened = this.#local
        ? unwrapAgx(rec.wrap, this.#signer, { now })
        : await unwrapAgxAsync(rec.wrap, this.#signer, { now, me, isSignerUnavailable: this.#o.isSignerUnavailable });
    } catch (err) {
      this.#report(err);
      // unavailable signer: kept for the next start; a wrap that no longer opens (expired): dropped
      if (!(err?.signerUnavailable || err?.retry === true)) await this.#forget(rec.id);
      return;
    }
    if (opened.rumor.id !== rec.id || opened.class !== 'task-request' || !opened.task) {
      await this.#forget(rec.id);
      return;
    }
    opened.wrap = rec.wrap;
    const again = { ...rec, runs: (rec.runs ?? 1) + 1 };
    const key = findHandler(this.capabilities(), opened.task.capability);
    if (!key || again.runs > this.#maxRuns) {
      this.#warn(`task ${opened.task.taskId} (${opened.task.capability}) from ${rec.to} was cut short ${again.runs - 1} times: answered "handler failed"`);
      const me = await this.#whoami();
      const built = createTaskResultRumor({ taskId: opened.task.taskId, status: 'failed' }, me, rec.to, { now: this.#clock() });
      await this.#complete(again, built.rumor);
      return;
    }
    if (this.#durable) await this.#store.putTask(again).catch((err) => this.#report(err)); // the run is counted before it starts
    this.#stats.reruns++;
    let finish;
    const ran = new Promise((r) => (finish = r));
    const entry = { peer: rec.to, finish, start: () => this.#runHandler(opened, { handlerKey: key }, again, true) };
    if (this.#gate.offer(rec.to, now, entry, { admitted: true }) === 'run') this.#launch(entry);
    await ran;
  }

  async #forget(id) {
    this.#outbox.delete(id);
    if (!this.#durable) return;
    try {
      await this.#store.deleteTask(id);
    } catch (err) {
      this.#report(err);
    }
  }

  // The result of an accepted task: wrapped, recorded 'done' with that wrap, then published (a crash
  // in between publishes the same event again at the next start: the requester sees one result).
  async #complete(rec, rumor) {
    let wrap;
    try {
      wrap = await wrapRumor(rumor, this.#signer, rec.to, { now: this.#clock() });
    } catch (err) {
      this.#report(err); // the record stays 'accepted': the task runs again at the next start
      return;
    }
    const done = { ...rec, state: 'done', result: wrap };
    if (this.#durable) {
      try {
        await this.#store.putTask(done);
      } catch (err) {
        this.#report(err);
      }
    }
    this.#outbox.set(done.id, done);
    if (!this.#closed) await this.#sendResult(done);
  }

  async #sendResult(rec) {
    if (this.#sending.has(rec.id) || this.#closed) return;
    this.#sending.add(rec.id);
    try {
      await this.#publishWrap(rec.result);
      this.#retryDelay = RETRY_FIRST;
      if (this.#outbox.get(rec.id) === rec) await this.#forget(rec.id);
    } catch (err) {
      this.#report(err);
      this.#scheduleRetry();
    } finally {
      this.#sending.delete(rec.id);
    }
  }

  // Results no relay accepted: published again after a growing delay (and after every poll).
  #scheduleRetry() {
    if (this.#retryTimer || this.#closed) return;
    const delay = this.#retryDelay;
    this.#retryDelay = Math.min(RETRY_MAX, this.#retryDelay * 2);
    this.#retryTimer = setTimeout(() => {
      this.#retryTimer = null;
      this.#flushOutbox();
    }, delay);
  }

  #flushOutbox() {
    if (this.#closed) return Promise.resolve();
    return Promise.all([...this.#outbox.values()].map((rec) => this.#sendResult(rec)));
  }

  async #runHandler(opened, d, rec, redelivered) {
    const { from, task, message } = opened;
    const me = await this.#whoami();
    // The receipt goes before the handler runs (keyed by the rumor id); a re-run sent it already.
    if (!redelivered) await this.#reply(createReceiptRumor(opened.rumor.id, message.contextId, me, from, { now: this.#clock() }), from);
    let result;
    let finished = false;
    const sendStatus = async (status, note) => {
      if (finished || this.#closed) return false;
      const rumor = createTaskStatusRumor({ taskId: task.taskId, status, message: note }, me, from, { now: this.#clock() });
      await this.#publishRumor(rumor, from);
      return true;
    };
    const ctx = {
      from,
      capability: task.capability,
      taskId: task.taskId,
      rumorId: opened.rumor.id,
      /** True when an earlier run of this task was cut short (a crash) and this is a re-run: be idempotent. */
      redelivered,
      /** Tells the requester the task is being worked on (an optional note, at most 2000 characters). */
      working: (note) => sendStatus('working', note),
      /**
       * Sends input-required (with `note`: what is needed) and resolves with the requester's answer
       * (only the requester's). options: timeout (ms; default inputTimeout, 300000), signal.
       */
      requestInput: (note, o = {}) => this.#requestInput(task.taskId, from, note, o, () => finished),
    };
    try {
      const output = await this.#handlers.get(d.handlerKey)(task.payload, ctx);
      result = { taskId: task.taskId, status: 'completed', output };
    } catch (err) {
      if (err instanceof AgxPublicError) result = { taskId: task.taskId, status: 'failed', error: err.message };
      else {
        this.#report(err); // logged locally in full; the peer sees "handler failed"
        result = { taskId: task.taskId, status: 'failed' };
      }
    }
    finished = true;
    this.#endAwait(task.taskId, new NostrError('AGX_TASK_FINISHED', 'the handler finished before the input arrived'));
    let built;
    try {
      built = createTaskResultRumor(result, me, from, { now: this.#clock() });
    } catch (err) {
      // an output that is not JSON: reported locally, "handler failed" to the peer
      this.#report(err);
      built = createTaskResultRumor({ taskId: task.taskId, status: 'failed' }, me, from, { now: this.#clock() });
    }
    if (built.replacedTooLarge) this.#warn(`the result of ${task.capability} for ${from} was too large: sent as failed "result too large"`);
    await this.#complete(rec, built.rumor);
  }

  async #requestInput(taskId, from, note, o, isFinished) {
    if (isFinished() || this.#closed) throw new NostrError('AGX_TASK_FINISHED', 'the task already has its result');
    if (this.#awaiting.has(taskId)) throw new NostrError('INVALID_ARGUMENT', 'this task is already waiting for input');
    const timeout = o.timeout ?? this.#o.inputTimeout ?? DEFAULT_INPUT_TIMEOUT;
    checkTimeout(timeout, 'timeout');
    if (o.signal?.aborted) throw new NostrError('ABORTED', 'the input request was aborted', { cause: o.signal.reason });
    const me = await this.#whoami();
    const rumor = createTaskStatusRumor({ taskId, status: 'input-required', message: note }, me, from, { now: this.#clock() });
    this.#router.awaitInput(taskId, from);
    const answer = new Promise((resolve, reject) => {
      const entry = { from, resolve, reject, timer: null, signal: o.signal, onAbort: null };
      if (timeout > 0) entry.timer = setTimeout(() => this.#endAwait(taskId, new NostrError('AGX_TIMEOUT', `no input for task ${taskId} within ${timeout} ms`)), timeout);
      if (o.signal) {
        entry.onAbort = () => this.#endAwait(taskId, new NostrError('ABORTED', 'the input request was aborted', { cause: o.signal.reason }));
        o.signal.addEventListener('abort', entry.onAbort, { once: true });
      }
      this.#awaiting.set(taskId, entry);
    });
    // The wait may end (timeout, stop) while the status is still being mined and published: no
    // unhandled rejection then; the caller gets it from the returned promise.
    answer.catch(() => {});
    try {
      await this.#publishRumor(rumor, from, o.signal);
    } catch (err) {
      this.#endAwait(taskId, err);
    }
    return answer;
  }

  // Ends a handler's wait for input: resolves with `value` when given as {input}, else rejects with `err`.
  #endAwait(taskId, err, answer) {
    const a = this.#awaiting.get(taskId);
    if (!a) return false;
    this.#awaiting.delete(taskId);
    this.#router.endAwait(taskId);
    clearTimeout(a.timer);
    if (a.signal && a.onAbort) a.signal.removeEventListener('abort', a.onAbort);
    if (answer) a.resolve(answer.input);
    else a.reject(err);
    return true;
  }

  async #deliver(opened, d) {
    if (this.#messageListeners.size === 0) return;
    const m = opened.message;
    const msg = {
      from: opened.from,
      text: m.text,
      subject: m.subject,
      contentType: m.contentType,
      contextId: m.contextId,
      autoDepth: m.autoDepth,
      class: opened.class,
      reason: d.reason,
      task: opened.task ?? null,
      rumorId: opened.rumor.id,
      wrapId: opened.wrapId,
      sentAt: opened.sentAt,
    };
    // reply() is the automated path (autoDepth + 1, bounded); a human reply goes through send().
    msg.reply = (text, opts) => this.autoReply(msg, text, opts);
    for (const fn of [...this.#messageListeners]) {
      try {
        const out = await fn(msg);
        // a listener that returns text (or {text, subject}) answers automatically, for plain messages only
        if (out != null && opened.class === 'text' && d.reason === 'plain-message' && !this.#closed) {
          const text = typeof out === 'string' ? out : out.text;
          if (typeof text === 'string') await msg.reply(text, { subject: out.subject });
        }
      } catch (err) {
        this.#report(err);
      }
    }
  }

  // A second result (or update) for one of our requests that already settled: dropped.
  #alreadySettled(opened) {
    if (opened.class !== 'task-result' && opened.class !== 'task-status') return false;
    const s = this.#settled.get(opened.task?.taskId);
    if (!s || s.peer !== opened.from) return false;
    if (opened.class === 'task-result') this.#stats.duplicateResults++;
    return true;
  }

  #rememberSettled(taskId, peer) {
    const now = this.#clock();
    for (const [k, v] of this.#settled) {
      if (v.until > now && this.#settled.size < SETTLED_CAP) break;
      this.#settled.delete(k);
    }
    this.#settled.set(taskId, { peer, until: now + SEEN_RETENTION });
  }

  async #dispatch(opened, commit) {
    if (opened.kind === 'receipt') {
      for (const p of this.#pending.values()) if (p.rumorId === opened.receipt.refEventId) p.receipts++;
      for (const fn of [...this.#receiptListeners]) {
        try {
          await fn({ from: opened.from, ...opened.receipt });
        } catch (err) {
          this.#report(err);
        }
      }
      return;
    }
    if (this.#alreadySettled(opened)) return;
    let d = this.#router.route(opened);
    if (d.action === 'ask-host') {
      let allowed = false;
      try {
        allowed = (await this.#authorize({ from: opened.from, capability: d.capability })) === true;
      } catch (err) {
        this.#report(err);
      }
      if (this.#closed) return;
      d = this.#router.route(opened, allowed);
    }
    if (d.reason === 'denied-unconfigured' && !this.#warnedUnconfigured && this.#router.takeUnconfiguredWarning()) {
      this.#warnedUnconfigured = true;
      this.#warn('no authorization configured: a task request was denied');
    }
    if (d.action === 'run-handler') return this.#accept(opened, d, commit);
    await commit(null);
    switch (d.action) {
      case 'settle-pending': {
        if (this.#router.settle(d.taskId, opened.from) !== 'settled') return;
        const p = this.#settleLocal(d.taskId);
        if (!p) return;
        this.#rememberSettled(d.taskId, opened.from);
        const t = opened.task;
        const result = { taskId: t.taskId, status: t.status, output: t.output ?? undefined, error: t.error ?? undefined, from: opened.from };
        if (t.status === 'completed') p.resolve(t.output ?? undefined);
        else p.reject(taskFailed(result));
        return;
      }
      case 'task-update': {
        const p = this.#pending.get(d.taskId);
        if (!p) return;
        const t = opened.task;
        p.state = t.status;
        // The peer is alive and on it: the request's timeout starts again.
        if (p.timer !== null) {
          clearTimeout(p.timer);
          p.timer = p.arm();
        }
        const update = { type: 'status', taskId: d.taskId, capability: p.capability, state: t.status, from: opened.from, sentAt: opened.sentAt };
        if (t.message != null) update.message = t.message;
        if (t.status === 'input-required') update.respond = (input, o) => this.provideInput(d.taskId, input, o);
        for (const fn of [p.onUpdate, ...this.#updateListeners]) {
          if (!fn) continue;
          try {
            await fn(update);
          } catch (err) {
            this.#report(err);
          }
        }
        return;
      }
      case 'task-input':
        this.#endAwait(d.taskId, null, { input: opened.task.input ?? undefined });
        return;
      case 'drop':
        return;
      default:
        return this.#deliver(opened, d);
    }
  }

  async #persist() {
    const journal = this.#guard.journal();
    if (journal.length) await this.#store.append(journal);
  }

  /**
   * Processes one received wrap. Resolves 'processed', 'replay', 'discarded' (recorded: never
   * opened again), 'future' (dated > 300 s ahead: skipped, not recorded, polled again),
   * 'unavailable' (the signer is unavailable: not recorded, the poll is incomplete) or 'ignored'.
   */
  ingest(wrap) {
    if (this.#closed || !wrap || typeof wrap.id !== 'string') return Promise.resolve('ignored');
    const busy = this.#opening.get(wrap.id);
    if (busy) return busy.then((r) => (r === 'processed' ? 'replay' : r));
    const job = this.#ingest(wrap);
    this.#opening.set(wrap.id, job);
    const untrack = () => this.#opening.delete(wrap.id);
    job.then(untrack, untrack);
    return job;
  }

  async #ingest(wrap) {
    const now = this.#clock();
    if (this.#guard.knownWrap(wrap.id, now)) return 'replay';
    let me;
    try {
      me = await this.#whoami();
    } catch (err) {
      this.#report(err);
      return 'unavailable'; // no key, nothing opened: retried, nothing discarded
    }
    let opened;
    try {
      opened = this.#local
        ? unwrapAgx(wrap, this.#signer, { now })
        : await unwrapAgxAsync(wrap, this.#signer, { now, me, isSignerUnavailable: this.#o.isSignerUnavailable });
    } catch (err) {
      if (this.#closed) return 'ignored';
      if (err?.code === 'AGX_WRAP_FUTURE') return 'future';
      if (err?.signerUnavailable || (err?.retry !== false && isSignerUnavailable(err))) {
        this.#report(err);
        return 'unavailable';
      }
      if (err?.retry === true) {
        this.#report(err);
        return 'unavailable'; // a local fault: like an unavailable signer, retried, nothing discarded
      }
      this.#guard.discarded(wrap.id, now);
      await this.#persist().catch((e) => this.#report(e));
      this.#report(err);
      return 'discarded';
    }
    if (this.#closed) return 'ignored';
    const rumorId = opened.rumor.id;
    if (this.#claimed.has(rumorId)) {
      this.#guard.discarded(wrap.id, now); // another wrap of a task request being accepted right now
      await this.#persist().catch((e) => this.#report(e));
      return 'replay';
    }
    if (this.#guard.knownRumor(rumorId, now)) {
      this.#guard.processed(rumorId, wrap.id, now); // the new wrap of a known rumor
      await this.#persist().catch((e) => this.#report(e));
      return 'replay';
    }
    // Marked (and made durable) before acting, single writer per identity. A task request is
    // claimed meanwhile and marked when the routing and the flood limits have decided (commit):
    // one that will run is recorded first (putTask: accepted, with its wrap), so a crash at any
    // point either leaves it unmarked (polled again) or recorded (run again at start).
    let committed = false;
    const commit = async (record) => {
      if (committed) return;
      committed = true;
      this.#claimed.delete(rumorId);
      if (record && this.#durable) {
        try {
          await this.#store.putTask(record);
        } catch (err) {
          this.#report(err);
        }
      }
      this.#guard.processed(rumorId, wrap.id, this.#clock());
      try {
        await this.#persist();
      } catch (err) {
        this.#report(err); // still at most once in this process; the store's failure is the host's to see
      }
    };
    if (opened.class === 'task-request') {
      this.#claimed.add(rumorId);
      opened.wrap = wrap;
    } else await commit(null);
    const job = this.#dispatch(opened, commit)
      .catch((err) => this.#report(err))
      .then(() => commit(null));
    this.#inflight.add(job);
    job.finally(() => this.#inflight.delete(job));
    await job;
    return 'processed';
  }

  // --- polling (SPEC.md "Cursor advance")

  /** The lookback of every poll: overlap + the whole backdate window. */
  get pollLookback() {
    return (this.#o.pollOverlap ?? DEFAULT_OVERLAP) + MAX_BACKDATE;
  }

  async #pollRelay(url, filter, onEvent) {
    const pool = this.#pool;
    const timeout = this.#o.pollTimeout ?? DEFAULT_POLL_TIMEOUT;
    let status;
    try {
      status = await pool.ensureRelay(url, { timeout });
    } catch {
      return false;
    }
    const norm = status?.relay ?? url;
    const up = () => {
      const st = pool.status(norm)?.state;
      return st === 'open' || st === 'authenticating';
    };
    if (!up()) return false;
    return new Promise((resolve) => {
      let dropped = false;
      let settled = false;
      const off = pool.on('status', (s) => {
        if (s.relay === norm && s.state !== 'open' && s.state !== 'authenticating') dropped = true;
      });
      let sub = null;
      const finish = (ok) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        off();
        if (sub && !sub.closed) sub.close('poll done');
        resolve(ok);
      };
      const timer = setTimeout(() => finish(false), timeout);
      sub = pool.subscribe([filter], {
        relays: [url],
        id: 'agx-poll',
        onevent: (ev) => onEvent(ev),
        oneose: () => finish(!dropped && up() && (sub ? sub.closeReasons.length === 0 : true)),
        onclose: () => finish(false),
      });
      if (sub.eosed && !settled) finish(!dropped && up() && sub.closeReasons.length === 0);
    });
  }

  /**
   * One catch-up poll: every relay queried for our wraps since cursor - (overlap + 172800 s),
   * every event ingested. The cursor advances only when the poll was complete (every relay sent
   * EOSE, no event left unopened because the signer was unavailable), and then to our clock as read
   * BEFORE the poll. Resolves { complete, cursor, since, seen, processed, unavailable, future }.
   */
  poll() {
    if (this.#polling) return this.#polling.then(() => this.poll());
    const run = this.#pollOnce();
    this.#polling = run;
    const clear = () => {
      if (this.#polling === run) this.#polling = null;
    };
    run.then(clear, clear);
    return run;
  }

  async #pollOnce() {
    this.#live();
    const me = await this.#whoami();
    const startedAt = this.#clock(); // read before the poll
    const back = this.pollLookback;
    const since = this.#cursor > back ? this.#cursor - back : 0;
    const filter = { kinds: [1059], '#p': [me], since };
    const counts = { seen: 0, processed: 0, unavailable: 0, future: 0, discarded: 0, replay: 0 };
    const jobs = [];
    const onEvent = (ev) => {
      counts.seen++;
      jobs.push(
        this.ingest(ev).then((r) => {
          if (r in counts) counts[r]++;
        }),
      );
    };
    const relays = this.relayUrls();
    const answered = await Promise.all(relays.map((url) => this.#pollRelay(url, filter, onEvent)));
    await Promise.all(jobs);
    const complete = relays.length > 0 && answered.every(Boolean) && counts.unavailable === 0 && !this.#closed;
    if (this.#outbox.size) this.#flushOutbox();
    if (complete && startedAt > this.#cursor) {
      this.#cursor = startedAt;
      try {
        await this.#store.setCursor(startedAt);
      } catch (err) {
        this.#report(err);
      }
    }
    return { complete, cursor: this.#cursor, since, ...counts };
  }

  #schedule() {
    const every = this.#o.pollInterval ?? DEFAULT_POLL_INTERVAL;
    if (!every || this.#closed) return;
    this.#timer = setTimeout(async () => {
      this.#timer = null;
      try {
        await this.poll();
      } catch (err) {
        if (!this.#closed) this.#report(err);
      }
      this.#schedule();
    }, every);
  }

  /**
   * Loads the seen store, opens the live subscription (low latency), runs a first catch-up poll
   * and schedules the next ones. advertise: also publish our Agent Card and relay list (opt-in:
   * cards are public and retraction is only best-effort). Resolves { cursor, poll, card? }.
   */
  start({ advertise = false } = {}) {
    if (!this.#started) this.#started = this.#start(advertise);
    return this.#started;
  }

  async #start(advertise) {
    this.#live();
    const me = await this.#whoami();
    const loaded = await this.#store.load();
    const now = this.#clock();
    if (loaded.entries.length) this.#guard.load(loaded.entries, now);
    this.#guard.journal(); // what was loaded is durable already
    if (Number.isSafeInteger(loaded.cursor)) this.#cursor = loaded.cursor;
    // Task records: their ids are seen, in memory and in the store (a crash may have come between
    // the record and the marks; once the record goes, the marks alone keep the wrap a replay).
    const tasks = this.#durable && Array.isArray(loaded.tasks) ? loaded.tasks : [];
    if (tasks.length) {
      const marks = tasks.flatMap((r) => [[r.id, r.expiresAt], [r.wrap.id, r.expiresAt]]);
      this.#guard.load(marks, now);
      this.#guard.journal();
      await this.#store.append(marks).catch((err) => this.#report(err));
    }
    // Live: wraps published from now on (backdated up to two days, hence the since).
    await new Promise((resolve) => {
      this.#sub = this.#pool.subscribe([{ kinds: [1059], '#p': [me], since: now - this.pollLookback }], {
        relays: this.#relays,
        id: 'agx-live',
        onevent: (ev) => {
          this.ingest(ev).catch((err) => this.#report(err));
        },
        oneose: () => resolve(),
        onclose: () => resolve(),
      });
    });
    // Left by a process that died: done results go out again, accepted tasks run again.
    for (const rec of tasks) {
      if (rec.state === 'done') {
        this.#stats.republished++;
        this.#outbox.set(rec.id, rec);
      } else {
        const job = this.#rerun(rec).catch((err) => this.#report(err));
        this.#inflight.add(job);
        job.finally(() => this.#inflight.delete(job));
      }
    }
    this.#flushOutbox();
    const first = await this.poll();
    this.#schedule();
    const out = { cursor: this.#cursor, poll: first };
    if (advertise) {
      const { publishAgentCard, publishRelayList } = await import('./discovery.js');
      const identity = this.#o.identity ?? {};
      out.card = await publishAgentCard(this.#signer, this.#pool, {
        org: identity.org ?? '',
        nip05: identity.nip05 ?? null,
        capabilities: this.capabilities(),
        relays: this.relayUrls(),
        relaysToPublish: this.#relays,
      });
      out.relayList = await publishRelayList(this.#signer, this.#pool, { relays: this.relayUrls(), relaysToPublish: this.#relays });
    }
    return out;
  }

  /** Stops the subscription and timer, rejects open requests (AGX_CLOSED), closes the seen store. */
  async stop() {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    if (this.#retryTimer) clearTimeout(this.#retryTimer);
    this.#retryTimer = null;
    // Queued tasks do not run: their records bring them back at the next start.
    for (const { job } of this.#gate.clear()) job.finish();
    if (this.#sub) this.#sub.close();
    this.#sub = null;
    for (const [, p] of [...this.#pending]) p.fail(new NostrError('AGX_CLOSED', 'the client was stopped'));
    for (const taskId of [...this.#awaiting.keys()]) this.#endAwait(taskId, new NostrError('AGX_CLOSED', 'the client was stopped'));
    await Promise.allSettled([...this.#inflight, ...this.#opening.values()]);
    if (this.#polling) await this.#polling.catch(() => {});
    try {
      await this.#store.close?.();
    } catch (err) {
      this.#report(err);
    }
    if (this.#ownPool) await this.#pool.close();
    this.#router.dispose();
    this.#guard.dispose();
    this.#limiter.dispose();
    this.#gate.dispose();
  }

  // createAgxAgent's names
  serve() {
    return this.start({ advertise: false }).then(() => undefined);
  }
  close() {
    return this.stop();
  }
}

/** The first API slice's name: an AgxClient (serve() = start(), close() = stop()). */
export function createAgxAgent(options = {}) {
  return new AgxClient(options);
}
