// AgxRequester: the requesting side of an AGX endpoint over a RelayPool with any Signer
// (LocalSigner, Nip07Signer, a NIP-46 or KMS signer: anything with getPublicKey/signEvent/
// nip44Encrypt/nip44Decrypt). It sends messages and task requests, answers input-required, and
// receives receipts, status updates, results and messages; it serves no capability. Everything the
// protocol decides is the core's endpoint machine (endpoint.js): wrap checks, the exactly-once
// order, routing, request and input deadlines, the poll schedule and the cursor. This file executes
// its actions: the live subscription and catch-up polls, publishing to our relays plus the
// recipient's (routes.js), the one timer (clock.js) set for the machine's next deadline, the seen
// store, and the listeners.
//
// AgxClient (client.js) is this class plus the serving side (serve.js: handlers, authorization,
// flood limits, exactly-once task records, automated replies, the Agent Card), which plugs in
// through the constructor's second argument. An app that only requests (the demo page) imports
// this file alone, so a bundler leaves the serving side (and the core bindings only it calls,
// bindings/agx_serve.cpp) out.
import { core, checked } from '../core.js';
import { NostrError } from '../errors.js';
import { verifiedSymbol } from '../event.js';
import { RelayPool } from '../relay/index.js';
import { isSigner } from '../signer.js';
import { taskFailed } from './errors.js';
import { createMessageRumor, createTaskInputRumor, createTaskRequestRumor } from './rumor.js';
import { wrapRumor } from './wrap.js';
import { isSignerUnavailable, signerDecrypt, unwrapError } from './unwrap.js';
import { constants, endpoints, newEndpoint } from './endpoint.js';
import { agxClock } from './clock.js';
import { MemorySeenStore } from './seen-store.js';
import { AgxRoutes } from './routes.js';
import { localHandle, peerHex, randomId } from './util.js';

// I/O defaults (not protocol): how long a request, a relay's poll answer may take.
const DEFAULT_TIMEOUT = 30000;
const DEFAULT_POLL_TIMEOUT = 10000;

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
  #ep; // the core's endpoint machine (AgxEndpoint)
  #routes;
  #ours; // our relays, normalized
  #cancelTimer = null; // the one timer, set for the machine's next deadline
  #store;
  #serve = null;
  #messageListeners = new Set();
  #receiptListeners = new Set();
  #updateListeners = new Set();
  #pending = new Map();
  #inflight = new Set();
  #opening = new Map(); // wrapId -> Promise of its ingest result
  #sub = null;
  #polling = null;
  #started = null;
  #closed = false;
  #clock;
  #durable = false;
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
    this.#clock = agxClock(typeof o.now === 'function' ? o.now : undefined);
    if (o.pool) {
      this.#pool = o.pool;
      this.#relays = o.relays;
    } else {
      this.#pool = new RelayPool({ relays: o.relays, relayInfo: false, signer: o.signer });
      this.#ownPool = true;
      this.#relays = undefined;
    }
    this.#ep = newEndpoint({
      mode: serving?.routerMode ?? 'unconfigured',
      seenCap: o.maxSeen ?? 0,
      pollOverlap: o.pollOverlap,
      idlePollMs: o.pollInterval,
      pendingPollMs: o.pendingPollInterval,
    });
    endpoints.register(this, this.#ep, this);
    if (o.keepUnknownContentTypes === true) this.#ep.setKeepUnknownContentTypes(true);
    this.#routes = new AgxRoutes({
      pool: this.#pool,
      ours: this.#relays ?? this.#pool.relays ?? [],
      discoveryRelays: o.discoveryRelays,
      allowLocalRelays: o.allowLocalRelays === true,
      lookupTimeout: o.relayListTimeout,
      lookup: o.lookup,
      clock: this.#clock.seconds,
    });
    this.#ours = this.#routes.ours;
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
      endpoint: this.#ep,
      store: this.#store,
      durable: this.#durable,
      clock: () => this.#clock.seconds(),
      ms: () => this.#clock.ms(),
      after: (delay, fn) => this.#clock.after(delay, fn),
      rearm: () => this.#arm(),
      act: (opened, actions) => this.#act(opened, actions),
      closed: () => this.#closed,
      whoami: () => this.#whoami(),
      warn: (msg) => this.#warn(msg),
      report: (err) => this.#report(err),
      publishRumor: (rumor, to, signal) => this.#publishRumor(rumor, to, signal),
      publishWrap: (wrap, signal) => this.#publishWrap(wrap, signal),
      advertiseRelays: () => this.#routes.lookupRelays,
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

  /** Our hex public key (null until known for a non-local signer: after start() or a first send). */
  get publicKey() {
    return this.#me;
  }

  get pendingCount() {
    return this.#pending.size;
  }

  /** Counters of the tasks we request: duplicateResults (a second result for one of our settled requests, dropped). */
  get taskStats() {
    return { duplicateResults: this.#closed ? this.#duplicates : this.#ep.duplicateResults() };
  }
  #duplicates = 0; // kept once the machine is gone

  /**
   * The replay memory: processed ids kept (never forgotten before their retention), the cap,
   * discarded wrap ids cached, and how many wraps were refused because the store was full.
   */
  get replayStats() {
    if (this.#closed) return { processed: 0, cap: 0, cached: 0, overloaded: this.#overloaded };
    return { processed: this.#ep.processed(), cap: this.#ep.cap(), cached: this.#ep.cached(), overloaded: this.#overloaded };
  }

  // A full replay store: the wrap is refused (not recorded, polled again once ids expire), loudly.
  #refuse(err) {
    this.#overloaded++;
    const e =
      err?.code === 'AGX_OVERLOADED'
        ? err
        : new NostrError('AGX_OVERLOADED', 'the replay store is full: new work is refused until processed ids expire');
    e.processed = this.#closed ? 0 : this.#ep.processed();
    e.cap = this.#closed ? 0 : this.#ep.cap();
    if (!this.#overloadWarned) {
      this.#overloadWarned = true;
      this.#warn(`replay store full (${e.processed} of ${e.cap} processed ids): new wraps are refused until ids expire (raise maxSeen)`);
    }
    this.#report(e);
    return 'overloaded';
  }

  /** The inbox cursor (unix seconds) the next catch-up poll measures its window from. */
  get cursor() {
    return this.#closed ? this.#lastCursor : this.#ep.cursor();
  }
  #lastCursor = 0;

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
    const wrap = await wrapRumor(rumor, this.#signer, to, { signal, now: this.#clock.seconds() });
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
    const rumor = createMessageRumor(text, me, to, { subject: opts.subject, contextId: opts.contextId, now: this.#clock.seconds() });
    if (opts.contextId != null) this.#serve?.humanReset(to, opts.contextId);
    const { wrap, results } = await this.#publishRumor(rumor, to, opts.signal);
    return { rumorId: rumor.id, wrapId: wrap.id, contextId: JSON.parse(rumor.content).contextId, results };
  }

  #settleLocal(taskId) {
    const p = this.#pending.get(taskId);
    if (!p) return null;
    this.#pending.delete(taskId);
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
    const build = (author) => createTaskRequestRumor({ taskId, capability, payload }, author, to, { now: this.#clock.seconds(), acceptsUpdates: true });
    return (async () => {
      const author = me ?? (await this.#whoami());
      const rumor = build(author); // size checks fail here, before anything is sent
      this.#live();
      // The machine holds the request, its peer and its deadline (timeout 0: none).
      checked(this.#ep.openRequest(taskId, to, timeout, this.#clock.ms()));
      return new Promise((resolve, reject) => {
        const fail = (err) => {
          if (!this.#settleLocal(taskId)) return;
          if (!this.#closed) this.#ep.cancelRequest(taskId);
          this.#arm();
          reject(err);
        };
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
          timeout,
          onAbort: () => fail(new NostrError('ABORTED', 'the request was aborted', { cause: signal.reason })),
          fail,
        };
        this.#pending.set(taskId, entry);
        if (signal) signal.addEventListener('abort', entry.onAbort, { once: true });
        this.#arm(); // its deadline, and the short polls while it waits
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
    const rumor = createTaskInputRumor({ taskId, input }, me, p.peer, { now: this.#clock.seconds() });
    p.state = 'working'; // answered: the peer's handler resumes
    this.#live();
    this.#ep.inputSent(taskId, this.#clock.ms());
    this.#arm();
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

  // Executes the machine's actions for one opened message, in order: the marks are durable before
  // anything after them acts. Resolves true, or false when the replay store refused it.
  async #act(opened, actions) {
    for (const a of actions) {
      if (this.#closed && a.kind !== 'persist') return true;
      switch (a.kind) {
        case 'persist':
          this.#overloadWarned = false;
          try {
            await this.#store.append(a.marks);
          } catch (err) {
            this.#report(err); // still at most once in this process; the store's failure is the host's to see
          }
          break;
        case 'warn-unconfigured':
          this.#serve?.warnUnconfigured();
          break;
        case 'ask-host': {
          // The host's authorize decides; the machine keeps the request claimed meanwhile.
          const allowed = this.#serve ? await this.#serve.authorize(opened.from, a.capability) : false;
          if (this.#closed) return true;
          const next = JSON.parse(this.#ep.hostVerdict(a.rumorId, allowed, this.#clock.ms()));
          if (next.length === 0) {
            this.#refuse();
            return false;
          }
          return this.#act(opened, next);
        }
        case 'record-task':
          opened.wrap ??= this.#wrapOf.get(opened.wrapId);
          await this.#serve?.record(opened, a);
          break;
        case 'run-handler':
          opened.wrap ??= this.#wrapOf.get(opened.wrapId);
          if (this.#serve) await this.#serve.accept(opened, a);
          break;
        case 'deliver':
          await this.#deliver(opened, a);
          break;
        case 'receipt':
          for (const p of this.#pending.values()) if (p.rumorId === a.rumorId) p.receipts++;
          for (const fn of [...this.#receiptListeners]) {
            try {
              await fn({ from: opened.from, ...opened.receipt });
            } catch (err) {
              this.#report(err);
            }
          }
          break;
        case 'settle': {
          const p = this.#settleLocal(a.taskId);
          this.#arm();
          if (!p) break;
          const t = opened.task;
          const result = { taskId: t.taskId, status: t.status, output: t.output ?? undefined, error: t.error ?? undefined, from: opened.from };
          if (t.status === 'completed') p.resolve(t.output ?? undefined);
          else p.reject(taskFailed(result));
          break;
        }
        case 'update': {
          this.#arm(); // the machine restarted the request's deadline
          const p = this.#pending.get(a.taskId);
          if (!p) break;
          const t = opened.task;
          p.state = t.status;
          const update = { type: 'status', taskId: a.taskId, capability: p.capability, state: t.status, from: opened.from, sentAt: opened.sentAt };
          if (t.message != null) update.message = t.message;
          if (t.status === 'input-required') update.respond = (input, o) => this.provideInput(a.taskId, input, o);
          for (const fn of [p.onUpdate, ...this.#updateListeners]) {
            if (!fn) continue;
            try {
              await fn(update);
            } catch (err) {
              this.#report(err);
            }
          }
          break;
        }
        case 'input':
          this.#serve?.input(a.taskId, opened.task.input ?? undefined);
          break;
        case 'drop':
          // SPEC.md "Content types": ignored; the host hears of it as it does of a discarded wrap
          if (a.reason === 'unknown-content-type')
            this.#report(
              Object.assign(new NostrError('AGX_CONTENT_TYPE_UNKNOWN', `a message of an unknown content type was ignored`), {
                from: opened.from,
                contentType: opened.message.contentType,
                rumorId: opened.rumor.id,
              }),
            );
          break;
        default:
          break; // duplicate-result: counted by the machine
      }
    }
    return true;
  }

  #wrapOf = new Map(); // wrapId -> wrap, while it is being decided (a task record keeps its wrap)

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

  // One crossing with a LocalSigner (the wrap in; verdict, message and actions out); the signer's
  // two decryptions in between for any other signer. A wrap the pool's feed verified is not
  // verified again.
  async #open(wrap) {
    const verified = wrap[verifiedSymbol] === true;
    const json = JSON.stringify(wrap);
    if (this.#local) return JSON.parse(this.#ep.receiveWithHandle(localHandle(this.#signer), json, this.#clock.ms(), verified));
    const me = await this.#whoami();
    const pre = JSON.parse(this.#ep.beforeOpen(json, me, this.#clock.ms(), verified));
    if (pre.verdict !== 'processed' || this.#closed) return pre;
    const classify = this.#o.isSignerUnavailable ?? isSignerUnavailable;
    let sealJson, rumorJson;
    try {
      sealJson = await signerDecrypt(this.#signer, wrap.pubkey, wrap.content, classify);
      let seal = null;
      try {
        seal = JSON.parse(sealJson);
      } catch {
        // not JSON: the core says so below
      }
      rumorJson = seal && typeof seal.pubkey === 'string' && typeof seal.content === 'string' ? await signerDecrypt(this.#signer, seal.pubkey, seal.content, classify) : '';
    } catch (err) {
      if (this.#closed) return { verdict: 'ignored', actions: [] };
      this.#ep.openFailed(wrap.id, err?.disposition === 'discard', this.#clock.ms());
      return { verdict: err?.disposition === 'discard' ? 'discarded' : 'retry', error: err, actions: [] };
    }
    if (this.#closed) return { verdict: 'ignored', actions: [] };
    return JSON.parse(this.#ep.opened(json, sealJson, rumorJson, me, this.#clock.ms()));
  }

  async #ingest(wrap) {
    if (!this.#local) {
      try {
        await this.#whoami();
      } catch (err) {
        this.#report(err);
        return 'unavailable'; // no key, nothing opened: retried, nothing discarded
      }
    }
    let r;
    try {
      r = await this.#open(wrap);
    } catch (err) {
      if (this.#closed) return 'ignored';
      this.#report(err);
      return 'unavailable';
    }
    if (this.#closed) return 'ignored';
    const err = () => r.error ?? unwrapError(r.code, r.message, r.verdict);
    switch (r.verdict) {
      case 'processed':
      case 'pending':
        break;
      case 'overloaded':
        return this.#refuse(err());
      case 'retry':
        this.#report(err());
        return 'unavailable';
      case 'invalid':
      case 'discarded':
        this.#report(err());
        return r.verdict;
      default:
        return r.verdict; // replay, future, ignored
    }
    const opened = r.opened;
    if (opened.class === 'task-request') this.#wrapOf.set(opened.wrapId, wrap);
    let ok = true;
    const job = this.#track(
      this.#act(opened, r.actions)
        .then((v) => (ok = v))
        .catch((e) => this.#report(e))
        .finally(() => this.#wrapOf.delete(opened.wrapId)),
    );
    await job;
    return ok ? 'processed' : 'overloaded';
  }

  // --- polling (SPEC.md "Cursor advance": the window and the cursor are the machine's)

  /** The lookback of every poll: overlap + the whole backdate window. */
  get pollLookback() {
    return this.#closed ? 0 : this.#ep.lookback();
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
        cancel();
        off();
        if (sub && !sub.closed) sub.close('poll done');
        resolve(ok);
      };
      const cancel = this.#clock.after(timeout, () => finish(false));
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
    const run = this.#pollOnce();
    this.#polling = run;
    const clear = () => {
      if (this.#polling === run) this.#polling = null;
      this.#arm();
    };
    run.then(clear, clear);
    return run;
  }

  async #pollOnce() {
    this.#live();
    const me = await this.#whoami();
    this.#live();
    const before = this.#ep.cursor();
    const since = this.#ep.pollBegin(this.#clock.ms()); // the clock read before the poll
    this.#arm(); // no poll deadline while this one runs
    let complete = false;
    const counts = { seen: 0, processed: 0, unavailable: 0, future: 0, discarded: 0, replay: 0, invalid: 0, overloaded: 0 };
    try {
      const filter = { kinds: [constants().kinds.giftWrap], '#p': [me], since };
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
      complete = relays.length > 0 && answered.every(Boolean) && counts.unavailable === 0 && counts.overloaded === 0 && !this.#closed;
    } finally {
      if (!this.#closed) this.#ep.pollEnd(complete, this.#clock.ms());
    }
    this.#serve?.polled();
    const cursor = this.cursor;
    if (cursor > before) {
      try {
        await this.#store.setCursor(cursor);
      } catch (err) {
        this.#report(err);
      }
    }
    return { complete, cursor, since, ...counts };
  }

  // The one timer, set for the machine's next deadline (request and input timeouts, catch-up polls).
  #arm() {
    if (this.#cancelTimer) this.#cancelTimer();
    this.#cancelTimer = null;
    if (this.#closed) return;
    const at = this.#ep.nextDeadline();
    if (at < 0) return;
    this.#cancelTimer = this.#clock.after(at - this.#clock.ms(), () => this.#wake());
  }

  #wake() {
    this.#cancelTimer = null;
    if (this.#closed) return;
    for (const a of JSON.parse(this.#ep.handleTimeout(this.#clock.ms()))) {
      if (a.kind === 'expire-request') {
        const p = this.#pending.get(a.taskId);
        if (p) p.fail(new NostrError('AGX_TIMEOUT', `no result for ${p.capability} within ${p.timeout} ms`));
      } else if (a.kind === 'expire-input') this.#serve?.inputExpired(a.taskId);
      else if (a.kind === 'poll')
        this.poll().catch((err) => {
          if (!this.#closed) this.#report(err);
        });
    }
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
    this.#live();
    const nowMs = this.#clock.ms();
    if (loaded.entries.length) checked(this.#ep.load(JSON.stringify(loaded.entries), nowMs)); // durable already
    if (Number.isSafeInteger(loaded.cursor)) this.#ep.setCursor(loaded.cursor);
    const resume = this.#serve ? await this.#serve.load(loaded, this.#clock.seconds()) : null;
    // Live: wraps published from now on (backdated up to two days, hence the since).
    await new Promise((resolve) => {
      this.#sub = this.#pool.subscribe([{ kinds: [constants().kinds.giftWrap], '#p': [me], since: this.#clock.seconds() - this.pollLookback }], {
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
    if (!this.#closed) this.#ep.startPolling();
    this.#arm();
    const out = { cursor: this.cursor, poll: first };
    if (options.advertise && this.#serve) await this.#serve.started(out); // Agent Card and relay list
    return out;
  }

  /** Stops the subscription and timer, rejects open requests (AGX_CLOSED), closes the seen store. */
  async stop() {
    if (this.#closed) return;
    this.#lastCursor = this.#ep.cursor();
    this.#duplicates = this.#ep.duplicateResults();
    this.#closed = true;
    this.#ep.close(); // no action after this
    if (this.#cancelTimer) this.#cancelTimer();
    this.#cancelTimer = null;
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
    this.#routes.dispose();
    endpoints.unregister(this);
    this.#serve?.dispose();
    this.#ep.delete();
  }
}
