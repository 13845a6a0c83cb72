// createAgxAgent: an AGX endpoint over a RelayPool with a LocalSigner. Everything the protocol
// decides (checks, replay, routing, authorization, envelopes, PoW) is the core's; this file owns
// the I/O: subscriptions, publishing, timers and the handlers.
import { NostrError } from '../errors.js';
import { AgxPublicError, taskFailed } from './errors.js';
import { createMessageRumor, createReceiptRumor, createTaskRequestRumor, createTaskResultRumor } from './rumor.js';
import { wrapRumor } from './wrap.js';
import { unwrapAgx } from './unwrap.js';
import { AgxRouter } from './router.js';
import { ReplayGuard } from './replay.js';
import { localHandle, peerHex, randomId } from './util.js';

const MAX_BACKDATE = 172800;
const POLL_OVERLAP = 120;
const DEFAULT_TIMEOUT = 30000;

/**
 * options: signer (LocalSigner), pool (RelayPool), relays?, authorize?({from, capability}) =>
 * boolean | Promise<boolean>, acceptAll?, allow? ([{pubkey, capability}]), handlers? ({key: fn}),
 * onMessage?, onReceipt?, onWarning?, onError?, publishTimeout?.
 */
export function createAgxAgent(options = {}) {
  const { signer, pool } = options;
  if (!localHandle(signer)) throw new NostrError('INVALID_ARGUMENT', 'signer must be a LocalSigner');
  if (!pool || typeof pool.subscribe !== 'function' || typeof pool.publish !== 'function')
    throw new NostrError('INVALID_ARGUMENT', 'pool must be a RelayPool');
  if (options.authorize !== undefined && typeof options.authorize !== 'function')
    throw new NostrError('INVALID_ARGUMENT', 'authorize must be a function');
  const handlers = { ...(options.handlers ?? {}) };
  for (const [k, fn] of Object.entries(handlers))
    if (typeof fn !== 'function') throw new NostrError('INVALID_ARGUMENT', `handler ${k} is not a function`);

  const me = signer.publicKey;
  const mode = options.authorize ? 'host' : options.acceptAll === true ? 'accept-all' : 'unconfigured';
  const router = new AgxRouter(mode);
  for (const { pubkey, capability } of options.allow ?? []) router.allow(pubkey, capability);
  router.setHandlers(Object.keys(handlers));
  const guard = new ReplayGuard();
  const warn = (msg) => (options.onWarning ? options.onWarning(msg) : console.warn(`[agx] ${msg}`));
  const reportError = (err) => {
    if (options.onError) options.onError(err);
  };
  const relays = options.relays;
  const pending = new Map(); // taskId -> { resolve, reject, timer, onAbort, signal, rumorId, receipts }
  const inflight = new Set();
  let sub = null;
  let closed = false;

  if (mode === 'unconfigured' && (options.allow ?? []).length === 0 && router.takeUnconfiguredWarning())
    warn('no authorization configured: every task request is denied (pass authorize, allow or acceptAll: true)');

  function live() {
    if (closed) throw new NostrError('AGX_CLOSED', 'the agent was closed');
  }

  async function publishRumor(rumor, to, signal) {
    const wrap = await wrapRumor(rumor, signer, to, { signal });
    const results = await pool.publish(wrap, { relays, timeout: options.publishTimeout, signal });
    if (!results.some((r) => r.status === 'accepted'))
      throw Object.assign(new NostrError('AGX_PUBLISH_FAILED', 'no relay accepted the wrap'), { results });
    return { wrap, results };
  }

  async function send(peer, text, opts = {}) {
    live();
    const to = peerHex(peer);
    const rumor = createMessageRumor(text, me, to, { subject: opts.subject });
    const { wrap, results } = await publishRumor(rumor, to, opts.signal);
    return { rumorId: rumor.id, wrapId: wrap.id, results };
  }

  function settleLocal(taskId) {
    const p = pending.get(taskId);
    if (!p) return null;
    pending.delete(taskId);
    clearTimeout(p.timer);
    if (p.signal) p.signal.removeEventListener('abort', p.onAbort);
    return p;
  }

  function request(peer, capability, payload, opts = {}) {
    let to, taskId, rumor, timeout, signal;
    try {
      live();
      to = peerHex(peer);
      taskId = randomId();
      timeout = opts.timeout ?? DEFAULT_TIMEOUT;
      signal = opts.signal;
      if (signal?.aborted) throw new NostrError('ABORTED', 'the request was aborted', { cause: signal.reason });
      rumor = createTaskRequestRumor({ taskId, capability, payload }, me, to);
      router.addPending(taskId, to);
    } catch (err) {
      return Promise.reject(err);
    }
    return new Promise((resolve, reject) => {
      const fail = (err) => {
        if (!settleLocal(taskId)) return;
        router.cancelPending(taskId);
        reject(err);
      };
      const entry = {
        resolve,
        reject,
        signal,
        rumorId: rumor.id,
        receipts: 0,
        timer: setTimeout(() => fail(new NostrError('AGX_TIMEOUT', `no result for ${capability} within ${timeout} ms`)), timeout),
        onAbort: () => fail(new NostrError('ABORTED', 'the request was aborted', { cause: signal.reason })),
        fail,
      };
      pending.set(taskId, entry);
      if (signal) signal.addEventListener('abort', entry.onAbort, { once: true });
      publishRumor(rumor, to, signal).catch(fail);
    });
  }

  async function reply(rumor, to) {
    try {
      await publishRumor(rumor, to);
    } catch (err) {
      reportError(err);
    }
  }

  async function runHandler(opened, d) {
    const { from, task, message } = opened;
    // The receipt goes before the handler runs (keyed by the rumor id).
    await reply(createReceiptRumor(opened.rumor.id, message.contextId, me, from), from);
    let result;
    try {
      const output = await handlers[d.handlerKey](task.payload, {
        from,
        capability: task.capability,
        taskId: task.taskId,
        rumorId: opened.rumor.id,
      });
      result = { taskId: task.taskId, status: 'completed', output };
    } catch (err) {
      if (err instanceof AgxPublicError) result = { taskId: task.taskId, status: 'failed', error: err.message };
      else {
        reportError(err);
        result = { taskId: task.taskId, status: 'failed' }; // "handler failed"
      }
    }
    if (closed) return;
    await reply(createTaskResultRumor(result, me, from).rumor, from);
  }

  function deliver(opened, d) {
    if (!options.onMessage) return;
    try {
      options.onMessage({
        from: opened.from,
        text: opened.message.text,
        subject: opened.message.subject,
        class: opened.class,
        reason: d.reason,
        task: opened.task ?? null,
        rumorId: opened.rumor.id,
        wrapId: opened.wrapId,
        sentAt: opened.sentAt,
      });
    } catch (err) {
      reportError(err);
    }
  }

  async function dispatch(opened) {
    if (opened.kind === 'receipt') {
      for (const p of pending.values())
        if (p.rumorId === opened.receipt.refEventId) p.receipts++;
      if (options.onReceipt) options.onReceipt({ from: opened.from, ...opened.receipt });
      return;
    }
    let d = router.route(opened);
    if (d.action === 'ask-host') {
      let allowed = false;
      try {
        allowed = (await options.authorize({ from: opened.from, capability: d.capability })) === true;
      } catch (err) {
        reportError(err);
      }
      if (closed) return;
      d = router.route(opened, allowed);
    }
    if (d.reason === 'denied-unconfigured' && router.takeUnconfiguredWarning())
      warn('no authorization configured: a task request was denied');
    switch (d.action) {
      case 'run-handler':
        return runHandler(opened, d);
      case 'settle-pending': {
        if (router.settle(d.taskId, opened.from) !== 'settled') return;
        const p = settleLocal(d.taskId);
        if (!p) return;
        const t = opened.task;
        const result = { taskId: t.taskId, status: t.status, output: t.output ?? undefined, error: t.error ?? undefined, from: opened.from };
        if (t.status === 'completed') p.resolve(t.output ?? undefined);
        else p.reject(taskFailed(result));
        return;
      }
      case 'drop':
        return;
      default:
        deliver(opened, d);
    }
  }

  /** Processes one received wrap (what the subscription calls): replays are handled once. */
  async function ingest(wrap) {
    if (closed || !wrap || typeof wrap.id !== 'string') return 'ignored';
    const now = Math.floor(Date.now() / 1000);
    if (guard.knownWrap(wrap.id, now)) return 'replay';
    let opened;
    try {
      opened = unwrapAgx(wrap, signer, { now });
    } catch (err) {
      if (!err.retry) guard.discarded(wrap.id, now);
      reportError(err);
      return 'discarded';
    }
    if (guard.knownRumor(opened.rumor.id, now)) {
      guard.processed(opened.rumor.id, wrap.id, now);
      return 'replay';
    }
    guard.processed(opened.rumor.id, wrap.id, now); // marked before acting: single writer
    const job = dispatch(opened).catch(reportError);
    inflight.add(job);
    job.finally(() => inflight.delete(job));
    await job;
    return 'processed';
  }

  /** Subscribes to wraps for us; resolves once the stored ones were received (EOSE). */
  function serve() {
    live();
    if (sub) return Promise.resolve();
    return new Promise((resolve) => {
      const since = Math.floor(Date.now() / 1000) - MAX_BACKDATE - POLL_OVERLAP;
      sub = pool.subscribe([{ kinds: [1059], '#p': [me], since }], {
        relays,
        onevent: (ev) => {
          ingest(ev).catch(reportError);
        },
        oneose: () => resolve(),
        onclose: () => resolve(),
      });
    });
  }

  /** Stops the subscription, rejects open requests (AGX_CLOSED), frees the core state. */
  async function close() {
    if (closed) return;
    closed = true;
    if (sub) sub.close();
    sub = null;
    for (const [, p] of [...pending]) p.fail(new NostrError('AGX_CLOSED', 'the agent was closed'));
    await Promise.allSettled([...inflight]);
    router.dispose();
    guard.dispose();
  }

  return {
    get publicKey() {
      return me;
    },
    get pendingCount() {
      return pending.size;
    },
    send,
    request,
    serve,
    ingest,
    close,
  };
}
