// AgxRequester: the requesting side of an AGX endpoint over a RelayPool with any Signer
// (LocalSigner, Nip07Signer, a NIP-46 or KMS signer: anything with getPublicKey/signEvent/
// nip44Encrypt/nip44Decrypt). It sends messages and task requests, answers input-required, and
// receives receipts, status updates, results and messages; it serves no capability. Everything the
// protocol decides (wrap checks, replay, routing, envelopes, PoW) is the core's; this file owns the
// I/O: the live subscription, catch-up polls by the cursor rules and the core's poll schedule,
// publishing to our relays plus the recipient's (routes.js), timers and the seen store.
//
// AgxClient (client.js) is this class plus the serving side (serve.js: handlers, authorization,
// flood limits, exactly-once task records, automated replies, the Agent Card), which plugs in
// through the constructor's second argument. An app that only requests (the demo page) imports
// this file alone, so a bundler leaves the serving side (and the core bindings only it calls,
// bindings/agx_serve.cpp) out.
import { core } from '../core.js';
import { NostrError } from '../errors.js';
import { RelayPool } from '../relay/index.js';
import { isSigner } from '../signer.js';
import { taskFailed } from './errors.js';
import { createMessageRumor, createTaskInputRumor, createTaskRequestRumor } from './rumor.js';
import { wrapRumor } from './wrap.js';
import { unwrapAgx, unwrapAgxAsync, isSignerUnavailable } from './unwrap.js';
import { AgxRouter } from './router.js';
import { ReplayGuard } from './replay.js';
import { MemorySeenStore } from './seen-store.js';
import { AgxRoutes } from './routes.js';
import { localHandle, peerHex, randomId } from './util.js';

const MAX_BACKDATE = 172800; // SPEC.md MAX_WRAP_BACKDATE_SEC
export const SEEN_RETENTION = 3 * 24 * 3600; // the core's kSeenRetention (longer than the poll window)
const DEFAULT_OVERLAP = 120;
const DEFAULT_TIMEOUT = 30000;
const DEFAULT_POLL_INTERVAL = 60000; // the core's kDefaultIdlePollMs
const DEFAULT_PENDING_POLL_INTERVAL = 3000; // the core's kDefaultPendingPollMs
const DEFAULT_POLL_TIMEOUT = 10000;
const SETTLED_CAP = 10000; // task ids of our settled requests remembered (a second result is dropped)
// The core poll schedule's events (bindings/agx_routes.cpp).
const REQUEST_OPENED = 0;
const POLL_STARTED = 1;
const POLL_FINISHED = 2;
// A client dropped without stop(): its core poll schedule goes with it.
const schedules = /* @__PURE__ */ new FinalizationRegistry((native) => native.delete());

export function checkTimeout(v, what) {
  if (v !== undefined && (!Number.isFinite(v) || v < 0)) throw new NostrError('INVALID_ARGUMENT', `${what} must be a non-negative number of ms`);
}

/**
 * options:
 *   signer (required: any Signer), pool (a RelayPool) or relays (URLs; the requester then owns a
 *   pool), onMessage, onReceipt, onError, seenStore (default MemorySeenStore), requestTimeout (ms,
 *   30000), publishTimeout, pollInterval (ms, 60000; 0 = no timer), pendingPollInterval (ms, 3000:
 *   while a request waits, polls come after this and back off to 30 s; 0 = off), pollTimeout (ms
 *   per relay, 10000), pollOverlap (s, 120; at most 86399, so the poll window stays inside the
 *   3-day replay retention: INVALID_ARGUMENT beyond), isSignerUnavailable (err => boolean), now
 *   (() => seconds; the clock), maxSeen (processed ids kept in memory, 200000: at the cap, new
 *   wraps are refused with AGX_OVERLOADED, reported to onError and warned once, and polled again
 *   once ids expire; nothing processed is ever forgotten before its retention ends),
 *   discoveryRelays (URLs where relay lists are also looked up and ours published),
 *   allowLocalRelays (peers' ws:// and local relays count: development only), relayListTimeout
 *   (ms, 3000), lookup (host => addresses: the DNS check of peers' relays; Node's DNS by default),
 *   keepUnknownContentTypes (deliver messages of unknown content types to onMessage instead of
 *   dropping them).
 *
 * Every wrap goes to our relays plus the recipient's NIP-65 inbox relays (looked up and cached by
 * the core's rules: wss:// public hosts only, at most 10, 10 minutes). Polls read our relays, and
 * while requests wait the outbox relays of their peers too.
 *
 * A requester resolves one result per task id; a second one for a settled task is dropped. Task
 * requests that reach it (it has no handlers) take the plain path: onMessage, reason
 * 'unknown-capability', never answered.
 *
 * `serving` (AgxClient's; not public API): (host) => the serving half, given the internals it
 * needs as `host`, with its hooks (serve.js).
 */
export class AgxRequester {
  #o;
  #signer;
  #local;
  #pool;
  #ownPool = false;
  #relays;
  #me = null;
  #router;
  #routes;
  #ours; // our relays, normalized
  #polls; // the core's poll schedule (AgxPollSchedule: on(event, nowMs, pendingOpen) -> deadline)
  #deadline = -1; // its deadline (ms), -1: none
  #ticking = false; // the schedule's timer runs (after start's first poll)
  #guard;
  #store;
  #serve = null;
  #messageListeners = new Set();
  #receiptListeners = new Set();
  #updateListeners = new Set();
  #pending = new Map();
  #inflight = new Set();
  #opening = new Map(); // wrapId -> Promise of its ingest result
  #sub = null;
  #timer = null;
  #cursor = 0;
  #polling = null;
  #started = null;
  #closed = false;
  #clock;
  #durable = false;
  #claimed = new Set(); // rumor ids of task requests being accepted (not yet marked seen)
  #settled = new Map(); // taskId -> {peer, until} of our requests already settled
  #duplicateResults = 0;
  #overloaded = 0; // wraps refused because the replay store was full
  #overloadWarned = false;

  constructor(options = {}, serving = null) {
    const o = options;
    if (!isSigner(o.signer)) throw new NostrError('INVALID_ARGUMENT', 'signer must be a Signer (getPublicKey, signEvent, nip44Encrypt, nip44Decrypt)');
    if (o.pool !== undefined && (!o.pool || typeof o.pool.subscribe !== 'function' || typeof o.pool.publish !== 'function'))
      throw new NostrError('INVALID_ARGUMENT', 'pool must be a RelayPool');
    if (o.pool === undefined && (!Array.isArray(o.relays) || o.relays.length === 0))
      throw new NostrError('INVALID_ARGUMENT', 'pass a pool or a non-empty relays list');
    if (o.seenStore !== undefined && (typeof o.seenStore?.load !== 'function' || typeof o.seenStore?.append !== 'function' || typeof o.seenStore?.setCursor !== 'function'))
      throw new NostrError('INVALID_ARGUMENT', 'seenStore must have load, append and setCursor');
    for (const k of ['requestTimeout', 'publishTimeout', 'pollInterval', 'pendingPollInterval', 'pollTimeout', 'relayListTimeout']) checkTimeout(o[k], k);
    if (o.discoveryRelays !== undefined && (!Array.isArray(o.discoveryRelays) || !o.discoveryRelays.every((r) => typeof r === 'string')))
      throw new NostrError('INVALID_ARGUMENT', 'discoveryRelays must be an array of relay URLs');
    if (o.lookup !== undefined && typeof o.lookup !== 'function') throw new NostrError('INVALID_ARGUMENT', 'lookup must be a function');
    if (o.pollOverlap !== undefined && (!Number.isSafeInteger(o.pollOverlap) || o.pollOverlap < 0))
      throw new NostrError('INVALID_ARGUMENT', 'pollOverlap must be non-negative integer seconds');
    if (o.pollOverlap !== undefined && core().agxCheckPollOverlap(o.pollOverlap) !== 0) {
      const { message } = core().lastError();
      throw new NostrError('INVALID_ARGUMENT', message);
    }
    if (o.maxSeen !== undefined && (!Number.isSafeInteger(o.maxSeen) || o.maxSeen < 2))
      throw new NostrError('INVALID_ARGUMENT', 'maxSeen must be an integer >= 2');
    serving?.check?.(o);
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
    this.#router = new AgxRouter(serving?.routerMode ?? 'unconfigured');
    if (o.keepUnknownContentTypes === true) this.#router.keepUnknownContentTypes();
    this.#routes = new AgxRoutes({
      pool: this.#pool,
      ours: this.#relays ?? this.#pool.relays ?? [],
      discoveryRelays: o.discoveryRelays,
      allowLocalRelays: o.allowLocalRelays === true,
      lookupTimeout: o.relayListTimeout,
      lookup: o.lookup,
      clock: this.#clock,
    });
    this.#ours = this.#routes.ours;
    this.#polls = new (core().AgxPollSchedule)(o.pollInterval ?? DEFAULT_POLL_INTERVAL, o.pendingPollInterval ?? DEFAULT_PENDING_POLL_INTERVAL);
    schedules.register(this, this.#polls, this);
    this.#guard = new ReplayGuard({ cap: o.maxSeen ?? 0 });
    this.#store = o.seenStore ?? new MemorySeenStore();
    this.#durable = typeof this.#store.putTask === 'function' && typeof this.#store.deleteTask === 'function';
    if (o.onMessage) this.#messageListeners.add(o.onMessage);
    if (o.onReceipt) this.#receiptListeners.add(o.onReceipt);
    if (serving) this.#serve = serving.create(this.#host());
  }

  // What the serving half reaches of ours (serve.js).
  #host() {
    return {
      options: this.#o,
      signer: this.#signer,
      router: this.#router,
      guard: this.#guard,
      store: this.#store,
      durable: this.#durable,
      clock: () => this.#clock(),
      closed: () => this.#closed,
      whoami: () => this.#whoami(),
      warn: (msg) => this.#warn(msg),
      report: (err) => this.#report(err),
      publishRumor: (rumor, to, signal) => this.#publishRumor(rumor, to, signal),
      publishWrap: (wrap, signal) => this.#publishWrap(wrap, signal),
      advertiseRelays: () => this.#routes.lookupRelays,
      unwrap: (wrap, now) => this.#unwrap(wrap, now),
      track: (job) => this.#track(job),
      pool: () => this.#pool,
      relays: () => this.#relays,
      relayUrls: () => this.relayUrls(),
    };
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

  #track(job) {
    this.#inflight.add(job);
    job.finally(() => this.#inflight.delete(job));
    return job;
  }

  async #whoami() {
    if (this.#me) return this.#me;
    const pk = await this.#signer.getPublicKey();
    if (typeof pk !== 'string' || !/^[0-9a-f]{64}$/.test(pk))
      throw new NostrError('INVALID_PUBLIC_KEY', 'the signer returned a public key that is not 64 lowercase hex');
    this.#me = pk;
    return pk;
  }

  async #unwrap(wrap, now) {
    if (this.#local) return unwrapAgx(wrap, this.#signer, { now });
    const me = await this.#whoami();
    return unwrapAgxAsync(wrap, this.#signer, { now, me, isSignerUnavailable: this.#o.isSignerUnavailable });
  }

  /** Our hex public key (null until known for a non-local signer: after start() or a first send). */
  get publicKey() {
    return this.#me;
  }

  get pendingCount() {
    return this.#pending.size;
  }

  /** Counters of the tasks we request: duplicateResults (a second result for one of our settled requests, dropped). */
  get taskStats() {
    return { duplicateResults: this.#duplicateResults };
  }

  /**
   * The replay memory: processed ids kept (never forgotten before their retention), the cap,
   * discarded wrap ids cached, and how many wraps were refused because the store was full.
   */
  get replayStats() {
    if (this.#closed) return { processed: 0, cap: 0, cached: 0, overloaded: this.#overloaded };
    return { processed: this.#guard.size, cap: this.#guard.cap, cached: this.#guard.cached, overloaded: this.#overloaded };
  }

  // A full replay store: the wrap is refused (not recorded, polled again once ids expire), loudly.
  #refuse(err) {
    this.#overloaded++;
    const e =
      err?.code === 'AGX_OVERLOADED'
        ? err
        : new NostrError('AGX_OVERLOADED', 'the replay store is full: new work is refused until processed ids expire');
    e.processed = this.#guard.size;
    e.cap = this.#guard.cap;
    if (!this.#overloadWarned) {
      this.#overloadWarned = true;
      this.#warn(`replay store full (${e.processed} of ${e.cap} processed ids): new wraps are refused until ids expire (raise maxSeen)`);
    }
    this.#report(e);
    return 'overloaded';
  }

  /** The inbox cursor (unix seconds) the next catch-up poll measures its window from. */
  get cursor() {
    return this.#cursor;
  }

  get pool() {
    return this.#pool;
  }

  /** The relays we publish to and read from (ours). */
  relayUrls() {
    return [...this.#ours];
  }

  /**
   * Where a wrap to `peer` (npub or hex) goes: our relays, then the peer's NIP-65 inbox relays
   * (looked up on ours and the discovery relays when not cached).
   */
  relaysFor(peer) {
    try {
      return this.#routes.targets(peerHex(peer));
    } catch (err) {
      return Promise.reject(err);
    }
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
    const to = wrap.tags.find((t) => t[0] === 'p')[1]; // the wrap's one p tag: its recipient
    const relays = await this.#routes.targets(to);
    const results = await this.#pool.publish(wrap, { relays, timeout: this.#o.publishTimeout, signal });
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
    if (opts.contextId != null) this.#serve?.humanReset(to, opts.contextId);
    const { wrap, results } = await this.#publishRumor(rumor, to, opts.signal);
    return { rumorId: rumor.id, wrapId: wrap.id, contextId: JSON.parse(rumor.content).contextId, results };
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
   * AGX_TOO_LARGE before anything is sent. options: timeout (ms), signal, onUpdate.
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
    // acceptsUpdates: we understand status and input envelopes (the responder sends them only then)
    const build = (author) => createTaskRequestRumor({ taskId, capability, payload }, author, to, { now: this.#clock(), acceptsUpdates: true });
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
        this.#waitingStarts();
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
    this.#waitingStarts();
    const { wrap } = await this.#publishRumor(rumor, p.peer, opts.signal);
    return { rumorId: rumor.id, wrapId: wrap.id };
  }

  // --- inbound

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
    // reply() is the automated path (autoDepth + 1, bounded: the serving side's); a human reply
    // goes through send(). Only what the core says may be answered gets one: never a denied
    // request, task traffic we do not service or an unknown content type.
    if (this.#serve && d.mayReply) msg.reply = (text, opts) => this.#serve.autoReply(msg, text, opts);
    for (const fn of [...this.#messageListeners]) {
      try {
        const out = await fn(msg);
        // a listener that returns text (or {text, subject}) answers automatically, for plain messages only
        if (msg.reply && out != null && !this.#closed) {
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
    if (opened.class === 'task-result') this.#duplicateResults++;
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
    if (this.#serve) {
      d = await this.#serve.decide(opened, d); // the host's authorize (ask-host), the one-time warning
      if (!d) return;
      if (d.action === 'run-handler') return this.#serve.accept(opened, d, commit);
    }
    if (!(await commit(null))) return; // the replay store is full: not acted on
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
        this.#serve?.input(d.taskId, opened.task.input ?? undefined);
        return;
      case 'drop':
        // SPEC.md "Content types": ignored; the host hears of it as it does of a discarded wrap
        if (d.reason === 'unknown-content-type')
          this.#report(
            Object.assign(new NostrError('AGX_CONTENT_TYPE_UNKNOWN', `a message of an unknown content type was ignored`), {
              from: opened.from,
              contentType: opened.message.contentType,
              rumorId: opened.rumor.id,
            }),
          );
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
   * Processes one received wrap. Resolves 'processed', 'replay', 'invalid' (a public check failed:
   * recorded nowhere), 'discarded' (it passed the public checks and did not open or check out:
   * cached, not opened again while cached), 'future' (dated > 300 s ahead: skipped, not recorded,
   * polled again), 'unavailable' (the signer is unavailable: not recorded, the poll is
   * incomplete), 'overloaded' (the replay store is full: not recorded, the poll is incomplete) or
   * 'ignored'.
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
    if (!this.#guard.hasRoom(now)) return this.#refuse(); // before paying for a decryption
    try {
      await this.#whoami();
    } catch (err) {
      this.#report(err);
      return 'unavailable'; // no key, nothing opened: retried, nothing discarded
    }
    let opened;
    try {
      opened = await this.#unwrap(wrap, now);
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
      this.#report(err);
      if (err?.disposition === 'ignore') return 'invalid'; // junk takes no place in the replay memory
      this.#guard.discarded(wrap.id, now);
      return 'discarded';
    }
    if (this.#closed) return 'ignored';
    const rumorId = opened.rumor.id;
    if (this.#claimed.has(rumorId)) {
      this.#guard.discarded(wrap.id, now); // another wrap of a task request being accepted right now
      return 'replay';
    }
    if (this.#guard.knownRumor(rumorId, now)) {
      this.#guard.discarded(wrap.id, now); // the new wrap of a known rumor (cached: the rumor id decides)
      return 'replay';
    }
    // Marked (and made durable) before acting, single writer per identity. A task request is
    // claimed meanwhile and marked when the routing and the flood limits have decided (commit):
    // one that will run is recorded first (putTask: accepted, with its wrap), so a crash at any
    // point either leaves it unmarked (polled again) or recorded (run again at start). The marks
    // are taken in memory first, synchronously: a full store refuses (false) before anything acts.
    let committed = false;
    let refused = false;
    const commit = async (record) => {
      if (committed) return !refused;
      committed = true;
      this.#claimed.delete(rumorId);
      try {
        this.#guard.processed(rumorId, wrap.id, this.#clock(), record?.expiresAt ?? 0);
      } catch (err) {
        refused = true;
        this.#refuse(err);
        return false;
      }
      this.#overloadWarned = false;
      if (record && this.#durable) {
        try {
          await this.#store.putTask(record);
        } catch (err) {
          this.#report(err);
        }
      }
      try {
        await this.#persist();
      } catch (err) {
        this.#report(err); // still at most once in this process; the store's failure is the host's to see
      }
      return true;
    };
    if (opened.class === 'task-request') {
      this.#claimed.add(rumorId);
      opened.wrap = wrap;
    } else if (!(await commit(null))) return 'overloaded';
    const job = this.#track(
      this.#dispatch(opened, commit)
        .catch((err) => this.#report(err))
        .then(() => commit(null)),
    );
    await job;
    return refused ? 'overloaded' : 'processed';
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
   * EOSE, no event left unopened because the signer was unavailable or the replay store was full),
   * and then to our clock as read
   * BEFORE the poll. Resolves { complete, cursor, since, seen, processed, unavailable, future }.
   */
  poll() {
    if (this.#closed) return Promise.reject(new NostrError('AGX_CLOSED', 'the client was stopped'));
    if (this.#polling) return this.#polling.then(() => this.poll());
    this.#deadline = this.#polls.on(POLL_STARTED, 0, false);
    if (this.#timer) clearTimeout(this.#timer); // this poll is the one it was set for
    this.#timer = null;
    const run = this.#pollOnce();
    this.#polling = run;
    const clear = () => {
      if (this.#polling === run) this.#polling = null;
      if (this.#closed) return;
      this.#deadline = this.#polls.on(POLL_FINISHED, Date.now(), this.#pending.size > 0);
      this.#arm();
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
    const counts = { seen: 0, processed: 0, unavailable: 0, future: 0, discarded: 0, replay: 0, invalid: 0, overloaded: 0 };
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
    // While requests wait: also the outbox relays of their peers, where the answers are published
    // even when we never advertised ours (best-effort: they do not make a poll incomplete).
    const extra = this.#routes.pollRelays([...new Set([...this.#pending.values()].map((p) => p.peer))]);
    const [answered] = await Promise.all([
      Promise.all(relays.map((url) => this.#pollRelay(url, filter, onEvent))),
      Promise.all(extra.map((url) => this.#pollRelay(url, filter, onEvent))),
    ]);
    await Promise.all(jobs);
    // A wrap refused for a full replay store is polled again: the cursor stays.
    const complete = relays.length > 0 && answered.every(Boolean) && counts.unavailable === 0 && counts.overloaded === 0 && !this.#closed;
    this.#serve?.polled();
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

  // The one timer, set for the core schedule's deadline (catch-up polls; short ones while requests wait).
  #arm() {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    if (!this.#ticking || this.#closed) return;
    const at = this.#deadline;
    if (at < 0) return;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      this.poll().catch((err) => {
        if (!this.#closed) this.#report(err);
      });
    }, Math.max(0, at - Date.now()));
  }

  // A request (or an answer to input-required) now waits: the short polls start again.
  #waitingStarts() {
    this.#deadline = this.#polls.on(REQUEST_OPENED, Date.now(), true);
    this.#arm();
  }

  /**
   * Loads the seen store, opens the live subscription (low latency), runs a first catch-up poll
   * and schedules the next ones. Resolves { cursor, poll }. A requester publishes nothing (no card,
   * no relay list: AgxClient's start() does); while its requests wait it also polls their peers'
   * outbox relays, where their answers are published.
   */
  start(options = {}) {
    if (!this.#started) this.#started = this.#start(options);
    return this.#started;
  }

  async #start(options) {
    this.#live();
    const me = await this.#whoami();
    const loaded = await this.#store.load();
    const now = this.#clock();
    if (loaded.entries.length) this.#guard.load(loaded.entries, now);
    this.#guard.journal(); // what was loaded is durable already
    if (Number.isSafeInteger(loaded.cursor)) this.#cursor = loaded.cursor;
    const resume = this.#serve ? await this.#serve.load(loaded, now) : null;
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
    resume?.();
    const first = await this.poll();
    this.#ticking = true;
    this.#arm();
    const out = { cursor: this.#cursor, poll: first };
    if (options.advertise && this.#serve) await this.#serve.started(out); // Agent Card and relay list
    return out;
  }

  /** Stops the subscription and timer, rejects open requests (AGX_CLOSED), closes the seen store. */
  async stop() {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    this.#serve?.stopping();
    if (this.#sub) this.#sub.close();
    this.#sub = null;
    for (const [, p] of [...this.#pending]) p.fail(new NostrError('AGX_CLOSED', 'the client was stopped'));
    this.#serve?.closed();
    await Promise.allSettled([...this.#inflight, ...this.#opening.values()]);
    if (this.#polling) await this.#polling.catch(() => {});
    try {
      await this.#store.close?.();
    } catch (err) {
      this.#report(err);
    }
    if (this.#ownPool) await this.#pool.close();
    this.#router.dispose();
    this.#routes.dispose();
    schedules.unregister(this);
    this.#polls.delete();
    this.#guard.dispose();
    this.#serve?.dispose();
  }
}
