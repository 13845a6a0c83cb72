// The serving side of an AgxClient: capability handlers and who may call them (authorize, allow,
// accept-all), the flood limits of served tasks (task-gate.js), exactly-once task records and the
// results' outbox, input-required from a handler, automated replies and their bounds, and the
// Agent Card that start({advertise: true}) publishes. It plugs into an AgxRequester (requester.js)
// through the hooks below and reaches the requester's internals only through `host`.
//
// Served tasks are answered exactly once across crashes when the seen store keeps task records
// (putTask/deleteTask: the three stores here do): a task is recorded 'accepted' (with its wrap)
// before its handler runs, and 'done' (with its result's wrap) before the result is published; at
// start(), an accepted task runs again (ctx.redelivered) and a done one is published again. Once
// its result is out, the record stays (slim: 'sent', ids only) until the request wrap expires, so
// the request stays a replay for as long as any poll can fetch it.
import { NostrError } from '../errors.js';
import { core, checked } from '../core.js';
import { localHandle } from './util.js';
import { unwrapAgx, unwrapAgxAsync } from './unwrap.js';
import { AgxPublicError } from './errors.js';
import { createMessageRumor, createReceiptRumor, createTaskResultRumor, createTaskStatusRumor } from './rumor.js';
import { wrapRumor } from './wrap.js';
import { rejectionText, taskLimits } from './task-gate.js';
import { findHandler } from './capability.js';
import { peerHex } from './util.js';
import { publishAgentCard, publishAccepted, signChecked, RELAY_LIST_KIND } from './discovery.js';
import { checkTimeout } from './requester.js';

const DEFAULT_MAX_AUTO_DEPTH = 8;
const DEFAULT_INPUT_TIMEOUT = 300000; // how long a handler waits for the requester's input
const DEFAULT_MAX_RUNS = 3; // a task cut short by this many crashes is answered "handler failed", not run again
const RETRY_FIRST = 1000; // ms before a result that no relay accepted is published again (doubling)
const RETRY_MAX = 30000;

// Pure: a bundle that uses no class of this file (an AgxRequester's) drops it.
const registry = /* @__PURE__ */ new FinalizationRegistry((native) => native.delete());

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

/**
 * What AgxClient passes to the AgxRequester constructor: the router's mode, the serving options'
 * checks (run after the requester's own) and the factory of the serving half.
 */
export function servingPlugin(options, onCreate) {
  const o = options;
  return {
    routerMode: typeof o.authorize === 'function' ? 'host' : o.authorize === 'accept-all' || o.acceptAll === true ? 'accept-all' : 'unconfigured',
    check() {
      if (o.authorize !== undefined && typeof o.authorize !== 'function' && o.authorize !== 'accept-all')
        throw new NostrError('INVALID_ARGUMENT', "authorize must be a function or 'accept-all'");
      checkTimeout(o.inputTimeout, 'inputTimeout');
      if (o.maxTaskRuns !== undefined && (!Number.isSafeInteger(o.maxTaskRuns) || o.maxTaskRuns < 1))
        throw new NostrError('INVALID_ARGUMENT', 'maxTaskRuns must be an integer >= 1');
      taskLimits(o.taskLimits ?? {});
    },
    create(host) {
      const s = new AgxServing(host, this.routerMode);
      onCreate(s);
      return s;
    },
  };
}

/** The serving half of an AgxClient (not exported from the package: AgxClient's methods front it). */
export class AgxServing {
  #h;
  #o;
  #ep; // the requester's endpoint machine: authorization, handler keys, flood limits, input waits
  #authorize;
  #warnedUnconfigured = false;
  #handlers = new Map();
  #awaiting = new Map(); // taskId -> {from, resolve, reject, timeout} of a handler waiting for input
  #queued = new Map(); // the machine's ticket -> gate entry of a task waiting for a slot
  #ready = new Set(); // tickets the machine handed a slot before their entry was registered
  #limiter;
  #maxRuns;
  #outbox = new Map(); // rumor id -> 'done' record whose result no relay has accepted yet
  #sending = new Set();
  #cancelRetry = null;
  #retryDelay = RETRY_FIRST;
  #stats = { accepted: 0, reruns: 0, republished: 0, rejected: { 'rate-limited': 0, overloaded: 0 } };

  constructor(host, mode) {
    const o = host.options;
    this.#h = host;
    this.#o = o;
    this.#ep = host.endpoint;
    const l = taskLimits(o.taskLimits ?? {});
    const rate = l.perPeerRate ?? { count: 0, window: 1 };
    this.#ep.setTaskLimits(l.maxConcurrent, l.perPeerConcurrent, l.maxQueued, l.perPeerQueued, rate.count, rate.window, l.maxTrackedPeers);
    this.#maxRuns = o.maxTaskRuns ?? DEFAULT_MAX_RUNS;
    this.#authorize = o.authorize === 'accept-all' ? undefined : o.authorize;
    for (const { pubkey, capability } of o.allow ?? []) checked(this.#ep.allow(peerHex(pubkey), String(capability)));
    for (const [k, fn] of Object.entries(o.handlers ?? {})) this.handle(k, fn);
    this.#limiter = new AutoReplyLimiter({ maxAutoDepth: o.maxAutoDepth ?? DEFAULT_MAX_AUTO_DEPTH, ...(o.autoReplyLimits ?? {}) });
    if (mode === 'unconfigured' && (o.allow ?? []).length === 0 && this.#ep.takeUnconfiguredWarning()) {
      this.#warnedUnconfigured = true;
      host.warn('no authorization configured: every task request is denied (pass authorize, allow or authorize: "accept-all")');
    }
  }

  // --- AgxClient's public surface

  get taskStats() {
    const s = this.#stats;
    const live = !this.#h.closed();
    return {
      running: live ? this.#ep.running() : 0,
      queued: live ? this.#ep.queued() : 0,
      trackedPeers: live ? this.#ep.trackedPeers() : 0,
      accepted: s.accepted,
      reruns: s.reruns,
      republished: s.republished,
      outbox: this.#outbox.size,
      rejected: { ...s.rejected },
    };
  }

  handle(capability, fn) {
    if (typeof capability !== 'string' || capability === '') throw new NostrError('INVALID_ARGUMENT', 'capability must be a non-empty string');
    if (typeof fn !== 'function') throw new NostrError('INVALID_ARGUMENT', `handler ${capability} is not a function`);
    this.#handlers.set(capability, fn);
    if (!this.#h.closed()) this.#ep.setHandlers(JSON.stringify([...this.#handlers.keys()]));
  }

  capabilities() {
    return [...this.#handlers.keys()];
  }

  async autoReply(inbound, text, opts = {}) {
    const h = this.#h;
    if (h.closed()) throw new NostrError('AGX_CLOSED', 'the client was stopped');
    const to = peerHex(inbound.from);
    const depth = Number.isSafeInteger(inbound.autoDepth) ? inbound.autoDepth : 0;
    const verdict = this.#limiter.tryReply(to, inbound.contextId, depth, h.clock());
    if (verdict !== 'allowed') {
      h.warn(`automated reply to ${to} not sent: ${verdict} (conversation ${inbound.contextId}, inbound autoDepth ${depth})`);
      return { sent: false, refused: verdict };
    }
    const me = await h.whoami();
    const autoDepth = replyDepth(depth);
    const rumor = createMessageRumor(text, me, to, { subject: opts.subject, contextId: inbound.contextId, autoDepth, now: h.clock() });
    const { wrap } = await h.publishRumor(rumor, to, opts.signal);
    return { sent: true, rumorId: rumor.id, wrapId: wrap.id, autoDepth };
  }

  resetAutoDepth(peer, contextId) {
    const to = peerHex(peer);
    if (contextId == null) this.#limiter.resetPeer(to);
    else this.#limiter.humanReset(to, String(contextId));
  }

  // --- hooks of the requester

  /** send() with a contextId: a human touched the conversation. */
  humanReset(to, contextId) {
    this.#limiter.humanReset(to, contextId);
  }

  /** The host's authorize for a task request the machine asks about: true or false, never throws. */
  async authorize(from, capability) {
    try {
      return (await this.#authorize({ from, capability })) === true;
    } catch (err) {
      this.#h.report(err);
      return false;
    }
  }

  /** The machine says a request was denied for want of any authorization: warned once. */
  warnUnconfigured() {
    if (this.#warnedUnconfigured) return;
    this.#warnedUnconfigured = true;
    this.#h.warn('no authorization configured: a task request was denied');
  }

  /** The requester's answer to one of our handlers' input-required. */
  input(taskId, input) {
    this.#endAwait(taskId, null, { input });
  }

  /** The machine's deadline for a handler's wait for input passed. */
  inputExpired(taskId) {
    const a = this.#awaiting.get(taskId);
    if (a) this.#endAwait(taskId, new NostrError('AGX_TIMEOUT', `no input for task ${taskId} within ${a.timeout} ms`));
  }

  /** After a poll: results no relay accepted yet go out again. */
  polled() {
    if (this.#outbox.size) this.#flushOutbox();
  }

  /**
   * At start, before the live subscription: the task records' ids are seen, in memory and in the
   * store (a crash may have come between the record and the marks; once the record goes, the marks
   * alone keep the wrap a replay). Returns what to do once subscribed: done results go out again,
   * accepted tasks run again (left by a process that died).
   */
  async load(loaded, now) {
    const h = this.#h;
    const all = h.durable && Array.isArray(loaded.tasks) ? loaded.tasks : [];
    const tasks = all.filter((r) => r.state !== 'sent'); // a sent one only keeps its marks
    if (all.length) {
      const marks = all.flatMap((r) => [[r.id, r.expiresAt], [r.wrap.id, r.expiresAt]]);
      checked(this.#ep.load(JSON.stringify(marks), h.ms()));
      await h.store.append(marks).catch((err) => h.report(err));
    }
    return () => {
      for (const rec of tasks) {
        if (rec.state === 'done') {
          this.#stats.republished++;
          this.#outbox.set(rec.id, rec);
        } else h.track(this.#rerun(rec).catch((err) => h.report(err)));
      }
      this.#flushOutbox();
    };
  }

  /**
   * After the first poll, when advertising: our Agent Card (our relays in it) and our NIP-65 relay
   * list on our relays and the discovery relays. The list is the one the key has with our relays
   * added (the core's merge: a key's other relays stay; nothing is published when ours are listed).
   * A card the core refuses (identity: org, nip05) throws; what no relay took (or the signer
   * declined) goes to onError, and the client runs on.
   */
  async started(out) {
    const h = this.#h;
    const identity = this.#o.identity ?? {};
    const relays = h.advertiseRelays();
    const local = (err) => err?.code === 'AGX_CARD_INVALID' || err?.code === 'INVALID_UTF8' || err?.code === 'INVALID_ARGUMENT';
    try {
      out.card = await publishAgentCard(h.signer, h.pool(), {
        org: identity.org ?? '',
        nip05: identity.nip05 ?? null,
        capabilities: this.capabilities(),
        relays: h.relayUrls(),
        relaysToPublish: relays,
      });
    } catch (err) {
      if (local(err)) throw err;
      h.report(err);
    }
    try {
      const me = await h.whoami();
      const existing = await h.pool().query([{ kinds: [RELAY_LIST_KIND], authors: [me] }], { relays, maxWait: h.options.relayListTimeout ?? 3000 });
      const template = checked(core().agxAdvertisedRelayList(JSON.stringify(existing), me, JSON.stringify(h.relayUrls()), h.clock()));
      if (template === null) out.relayList = { event: null, results: [] };
      else {
        const event = await signChecked(h.signer, JSON.parse(template));
        out.relayList = { event, results: await publishAccepted(h.pool(), event, relays) };
      }
    } catch (err) {
      if (local(err)) throw err;
      h.report(err);
    }
  }

  /** stop(), first: no more retries; queued tasks do not run (their records bring them back at the next start). */
  stopping() {
    if (this.#cancelRetry) this.#cancelRetry();
    this.#cancelRetry = null;
    for (const ticket of JSON.parse(this.#ep.clearQueue())) this.#queued.get(ticket)?.finish();
    this.#queued.clear();
    this.#ready.clear();
  }

  /** stop(), once open requests failed: handlers waiting for input get AGX_CLOSED. */
  closed() {
    for (const taskId of [...this.#awaiting.keys()]) this.#endAwait(taskId, new NostrError('AGX_CLOSED', 'the client was stopped'));
  }

  dispose() {
    this.#limiter.dispose();
  }

  // --- serving tasks

  async #reply(rumor, to) {
    try {
      await this.#h.publishRumor(rumor, to);
    } catch (err) {
      this.#h.report(err);
    }
  }

  // A task request the machine accepted (authorized, a handler for it, admitted by the flood
  // limits): its record is written before the marks (record-task, then persist), so a crash at any
  // point leaves it either unmarked (polled again) or recorded (run again at start).
  async record(opened, a) {
    const h = this.#h;
    const rec = { id: opened.rumor.id, state: 'accepted', wrap: opened.wrap, to: opened.from, taskId: opened.task.taskId, runs: 1, expiresAt: a.until };
    opened.record = rec;
    if (!h.durable) return;
    try {
      await h.store.putTask(rec);
    } catch (err) {
      h.report(err);
    }
  }

  // The machine's verdict on a task request we serve: run it now, queue it, or reject it (a failed
  // result with a typed error). Resolves once it ran (or was set aside).
  async accept(opened, a) {
    const h = this.#h;
    const from = opened.from;
    if (a.gate === 'rate-limited' || a.gate === 'overloaded') {
      this.#stats.rejected[a.gate]++;
      const me = await h.whoami();
      const built = createTaskResultRumor({ taskId: opened.task.taskId, status: 'failed', error: rejectionText({ rejected: a.gate, retryAfter: a.retryAfter }) }, me, from, { now: h.clock() });
      await this.#reply(built.rumor, from);
      return;
    }
    this.#stats.accepted++;
    const rec = opened.record;
    let finish;
    const ran = new Promise((r) => (finish = r));
    const entry = { peer: from, finish, start: () => this.#runHandler(opened, a, rec, false) };
    if (a.gate === 'run') this.#launch(entry);
    else this.#enqueue(a.ticket, entry);
    await ran;
  }

  // A queued entry: the machine decided before its record and marks were written, so a slot may
  // have been handed to its ticket meanwhile (ready): it runs now then.
  #enqueue(ticket, entry) {
    if (this.#ready.delete(ticket)) this.#launch(entry);
    else this.#queued.set(ticket, entry);
  }

  // Runs a gate entry that holds a slot; when it ends, the slot goes to the next queued entry.
  #launch(entry) {
    const run = this.#h.closed() ? Promise.resolve() : Promise.resolve().then(entry.start);
    this.#h.track(
      run
        .catch((err) => this.#h.report(err))
        .finally(() => {
          entry.finish();
          if (this.#h.closed()) return;
          const ticket = this.#ep.taskDone(entry.peer);
          if (!ticket) return;
          const next = this.#queued.get(ticket);
          this.#queued.delete(ticket);
          if (next) this.#launch(next);
          else this.#ready.add(ticket); // its entry is still being recorded: it runs once registered
        }),
    );
  }

  // A task left 'accepted' by a process that died: its handler runs again (ctx.redelivered).
  async #rerun(rec) {
    const h = this.#h;
    const now = h.clock();
    let opened;
    try {
      opened = localHandle(h.signer)
        ? unwrapAgx(rec.wrap, h.signer, { now })
        : await unwrapAgxAsync(rec.wrap, h.signer, { now, me: await h.whoami(), isSignerUnavailable: h.options.isSignerUnavailable });
    } catch (err) {
      h.report(err);
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
      h.warn(`task ${opened.task.taskId} (${opened.task.capability}) from ${rec.to} was cut short ${again.runs - 1} times: answered "handler failed"`);
      const me = await h.whoami();
      const built = createTaskResultRumor({ taskId: opened.task.taskId, status: 'failed' }, me, rec.to, { now: h.clock() });
      await this.#complete(again, built.rumor);
      return;
    }
    if (h.durable) await h.store.putTask(again).catch((err) => h.report(err)); // the run is counted before it starts
    this.#stats.reruns++;
    let finish;
    const ran = new Promise((r) => (finish = r));
    const entry = { peer: rec.to, finish, start: () => this.#runHandler(opened, { handlerKey: key }, again, true) };
    const v = JSON.parse(this.#ep.offerRerun(rec.to, h.ms()));
    if (v.gate === 'run') this.#launch(entry);
    else this.#enqueue(v.ticket, entry);
    await ran;
  }

  // The result is out: the record stays until the request wrap expires, slimmed to what keeps the
  // request a replay (its rumor and wrap ids).
  async #sent(rec) {
    this.#outbox.delete(rec.id);
    if (!this.#h.durable) return;
    const slim = { id: rec.id, state: 'sent', wrap: { id: rec.wrap.id }, to: rec.to, taskId: rec.taskId, runs: rec.runs, expiresAt: rec.expiresAt };
    try {
      await this.#h.store.putTask(slim);
    } catch (err) {
      this.#h.report(err);
    }
  }

  async #forget(id) {
    this.#outbox.delete(id);
    if (!this.#h.durable) return;
    try {
      await this.#h.store.deleteTask(id);
    } catch (err) {
      this.#h.report(err);
    }
  }

  // The result of an accepted task: wrapped, recorded 'done' with that wrap, then published (a crash
  // in between publishes the same event again at the next start: the requester sees one result).
  async #complete(rec, rumor) {
    const h = this.#h;
    let wrap;
    try {
      wrap = await wrapRumor(rumor, h.signer, rec.to, { now: h.clock() });
    } catch (err) {
      h.report(err); // the record stays 'accepted': the task runs again at the next start
      return;
    }
    const done = { ...rec, state: 'done', result: wrap };
    if (h.durable) {
      try {
        await h.store.putTask(done);
      } catch (err) {
        h.report(err);
      }
    }
    this.#outbox.set(done.id, done);
    if (!h.closed()) await this.#sendResult(done);
  }

  async #sendResult(rec) {
    if (this.#sending.has(rec.id) || this.#h.closed()) return;
    this.#sending.add(rec.id);
    try {
      await this.#h.publishWrap(rec.result);
      this.#retryDelay = RETRY_FIRST;
      if (this.#outbox.get(rec.id) === rec) await this.#sent(rec);
    } catch (err) {
      this.#h.report(err);
      this.#scheduleRetry();
    } finally {
      this.#sending.delete(rec.id);
    }
  }

  // Results no relay accepted: published again after a growing delay (and after every poll).
  #scheduleRetry() {
    if (this.#cancelRetry || this.#h.closed()) return;
    const delay = this.#retryDelay;
    this.#retryDelay = Math.min(RETRY_MAX, this.#retryDelay * 2);
    this.#cancelRetry = this.#h.after(delay, () => {
      this.#cancelRetry = null;
      this.#flushOutbox();
    });
  }

  #flushOutbox() {
    if (this.#h.closed()) return Promise.resolve();
    return Promise.all([...this.#outbox.values()].map((rec) => this.#sendResult(rec)));
  }

  async #runHandler(opened, d, rec, redelivered) {
    const h = this.#h;
    const { from, task, message } = opened;
    const me = await h.whoami();
    // The receipt goes before the handler runs (keyed by the rumor id); a re-run sent it already.
    if (!redelivered) await this.#reply(createReceiptRumor(opened.rumor.id, message.contextId, me, from, { now: h.clock() }), from);
    let result;
    let finished = false;
    // Which of our status envelopes this requester said it understands (the core read its request).
    const updates = { status: task.updates?.status === true, input: task.updates?.input === true };
    const sendStatus = async (status, note) => {
      if (finished || h.closed() || !updates.status) return false;
      const rumor = createTaskStatusRumor({ taskId: task.taskId, status, message: note }, me, from, { now: h.clock() });
      await h.publishRumor(rumor, from);
      return true;
    };
    const ctx = {
      from,
      capability: task.capability,
      taskId: task.taskId,
      rumorId: opened.rumor.id,
      /** True when an earlier run of this task was cut short (a crash) and this is a re-run: be idempotent. */
      redelivered,
      /**
       * What the requester understands beyond the result: status (working() sends something) and
       * input (requestInput() can be answered). A reference peer's request says neither.
       */
      updates,
      /** Tells the requester the task is being worked on (an optional note, at most 2000 characters). */
      working: (note) => sendStatus('working', note),
      /**
       * Sends input-required (with `note`: what is needed) and resolves with the requester's answer
       * (only the requester's). options: timeout (ms; default inputTimeout, 300000), signal.
       */
      requestInput: (note, o = {}) =>
        updates.input
          ? this.#requestInput(task.taskId, from, note, o, () => finished)
          : Promise.reject(new NostrError('AGX_INPUT_UNSUPPORTED', 'the requester did not say it understands input-required: nothing was sent')),
    };
    try {
      const output = await this.#handlers.get(d.handlerKey)(task.payload, ctx);
      result = { taskId: task.taskId, status: 'completed', output };
    } catch (err) {
      if (err instanceof AgxPublicError) result = { taskId: task.taskId, status: 'failed', error: err.message };
      else {
        h.report(err); // logged locally in full; the peer sees "handler failed"
        result = { taskId: task.taskId, status: 'failed' };
      }
    }
    finished = true;
    this.#endAwait(task.taskId, new NostrError('AGX_TASK_FINISHED', 'the handler finished before the input arrived'));
    let built;
    try {
      built = createTaskResultRumor(result, me, from, { now: h.clock() });
    } catch (err) {
      // an output that is not JSON: reported locally, "handler failed" to the peer
      h.report(err);
      built = createTaskResultRumor({ taskId: task.taskId, status: 'failed' }, me, from, { now: h.clock() });
    }
    if (built.replacedTooLarge) h.warn(`the result of ${task.capability} for ${from} was too large: sent as failed "result too large"`);
    await this.#complete(rec, built.rumor);
  }

  async #requestInput(taskId, from, note, o, isFinished) {
    const h = this.#h;
    if (isFinished() || h.closed()) throw new NostrError('AGX_TASK_FINISHED', 'the task already has its result');
    if (this.#awaiting.has(taskId)) throw new NostrError('INVALID_ARGUMENT', 'this task is already waiting for input');
    const timeout = o.timeout ?? this.#o.inputTimeout ?? DEFAULT_INPUT_TIMEOUT;
    checkTimeout(timeout, 'timeout');
    if (o.signal?.aborted) throw new NostrError('ABORTED', 'the input request was aborted', { cause: o.signal.reason });
    const me = await h.whoami();
    const rumor = createTaskStatusRumor({ taskId, status: 'input-required', message: note }, me, from, { now: h.clock() });
    // The machine routes the requester's answer here and holds the wait's deadline.
    checked(this.#ep.awaitInput(taskId, from, timeout, h.ms()));
    h.rearm();
    const answer = new Promise((resolve, reject) => {
      const entry = { from, resolve, reject, timeout, signal: o.signal, onAbort: null };
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
      await h.publishRumor(rumor, from, o.signal);
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
    if (!this.#h.closed()) {
      this.#ep.endAwait(taskId);
      this.#h.rearm();
    }
    if (a.signal && a.onAbort) a.signal.removeEventListener('abort', a.onAbort);
    if (answer) a.resolve(answer.input);
    else a.reject(err);
    return true;
  }
}
