// AGX commands: `serve`, `request`, `send`, `card`. Every AGX call goes through agx-adapter.js.
import { statSync } from 'node:fs';
import { resolve as resolvePath } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CliError, EXIT, describe, err, json, log, numberOption, out, parse, untilSignal } from './common.js';
import { resolveSettings } from './settings.js';
import { loadPublicKey, loadSigner, npubOf, peerHex, readAllow } from './keystore.js';
import { sanitizeLine, sanitizeText } from './sanitize.js';
import { AgxPublicError, DEFAULT_MAX_AUTO_DEPTH, checkNip05, createEndpoint, readCard, retractCard, seenDir, startEndpoint } from './agx-adapter.js';

export const SERVE_HELP = `usage: nostr-agents serve [options]

Runs the profile's identity as an AGX agent until Ctrl-C. Task requests are default-deny: the
profile's allow list (identity allow; re-read when it changes) and --allow decide. One serve per
profile at a time (its seen store, <profile>/seen/, is locked); request and send run alongside.

  --handler FILE       a module whose default export maps capabilities to async functions
                       (payload, {from, capability, taskId}) => output; without it, a built-in
                       invoice.review stand-in answers
  --advertise          publish an Agent Card (kind 11337, public) and a NIP-65 relay list
                       (retract the card with: card --retract)
  --allow NPUB         also allow NPUB (every capability) for this run; repeatable
  --allow-all          accept task requests from anyone (explicit opt-in)
  --once               exit after the stored and the first new message or task were handled
  --timeout S          with --once: give up after S seconds (default 30; exit code 5)
  --no-reply           do not answer plain messages (collect them only)
  --max-auto-depth N   automated replies stop at this depth (default: config maxAutoDepth or ${DEFAULT_MAX_AUTO_DEPTH})
  --poll-interval S    catch-up polls of the inbox every S seconds (default 60); a relay that never
                       pushes live events (stored events and EOSE only) is read only by polls

common options: --profile NAME, --relay URL (repeatable, comma-separated), --json (JSON lines)
`;

export const REQUEST_HELP = `usage: nostr-agents request NPUB CAPABILITY [--payload JSON] [--timeout S] [--poll-interval S]

Sends a task request and waits for its result (default 30 s). Prints the output. The request goes
to the profile's relays and the peer's NIP-65 inbox relays; while it waits, the inbox (and the
peer's outbox relays) is polled after --poll-interval seconds (default 3), then less often (up to
30 s), so an answer arrives from relays that never push live events too; 0: no such polls.
common options: --profile NAME, --relay URL, --json
`;

export const SEND_HELP = `usage: nostr-agents send NPUB "text" [--subject S]

Publishes a message and returns (collect replies with: serve --once --no-reply).
common options: --profile NAME, --relay URL, --json
`;

export const CARD_HELP = `usage: nostr-agents card [NPUB] [--verify]
       nostr-agents card --retract [--reason TEXT]

Prints the agent's Agent Card (kind 11337) and NIP-65 relays (without NPUB: the profile's own);
--verify checks its NIP-05 handle against https://<domain>/.well-known/nostr.json (exit code 6 when
it is not verified). --retract publishes a NIP-09 deletion of the profile's own card (the
counterpart of serve --advertise; best-effort: relays need not honor it; exit code 7 when there is
none to retract).
common options: --profile NAME, --relay URL, --json
`;

/** The built-in stand-in for the overview's quickstart. */
const BUILTIN_HANDLERS = {
  'invoice.review': async (payload) => {
    const amount = Number(payload?.amount);
    if (!Number.isFinite(amount)) throw new AgxPublicError('amount must be a number');
    return { approved: amount < 10_000, flags: amount >= 10_000 ? ['over-limit'] : [], standIn: true };
  },
};

async function loadHandlers(file) {
  const url = pathToFileURL(resolvePath(file)).href;
  let mod;
  try {
    mod = await import(url);
  } catch (e) {
    throw new CliError(EXIT.SETUP, `could not load handler module ${file}: ${e.message}`);
  }
  const handlers = mod.default;
  if (!handlers || typeof handlers !== 'object')
    throw new CliError(EXIT.SETUP, `${file}: the default export must be an object mapping capabilities to functions`);
  const keys = Object.keys(handlers);
  if (keys.length === 0) throw new CliError(EXIT.SETUP, `${file}: the default export has no capabilities`);
  for (const k of keys) if (typeof handlers[k] !== 'function') throw new CliError(EXIT.SETUP, `${file}: "${k}" is not a function`);
  return handlers;
}

const short = (npub) => `${npub.slice(0, 12)}…${npub.slice(-6)}`;

export async function serve(argv) {
  const { values } = parse(
    argv,
    {
      handler: { type: 'string' },
      advertise: { type: 'boolean' },
      once: { type: 'boolean' },
      allow: { type: 'string', multiple: true },
      'allow-all': { type: 'boolean' },
      'max-auto-depth': { type: 'string' },
      'no-reply': { type: 'boolean' },
      timeout: { type: 'string' },
      'poll-interval': { type: 'string' },
    },
    { max: 0, usage: SERVE_HELP },
  );
  if (values.help) return process.stdout.write(SERVE_HELP), EXIT.OK;
  const settings = resolveSettings(values);
  const configDepth = settings.config.maxAutoDepth;
  const maxAutoDepth = numberOption(values, 'max-auto-depth', Number.isInteger(configDepth) ? configDepth : DEFAULT_MAX_AUTO_DEPTH, { integer: true });
  const onceTimeout = numberOption(values, 'timeout', 30);
  const pollInterval = numberOption(values, 'poll-interval', 60) * 1000;
  // The allow list: allow.json, re-read when it changes (`identity allow` takes effect without a
  // restart), plus this run's --allow flags.
  const flagAllow = (values.allow ?? []).map((peer) => ({ pubkey: peerHex(peer), capability: '*' }));
  const stampOf = () => {
    try {
      const st = statSync(settings.files.allow);
      return `${st.ino}:${st.mtimeMs}:${st.size}`;
    } catch {
      return 'none';
    }
  };
  let allowStamp = stampOf();
  let fileAllow = readAllow(settings); // a broken allow.json at start is EXIT.SETUP
  const allowList = () => {
    const stamp = stampOf();
    if (stamp !== allowStamp) {
      allowStamp = stamp;
      try {
        fileAllow = readAllow(settings);
        log(`allow list reloaded: ${fileAllow.length} entr${fileAllow.length === 1 ? 'y' : 'ies'} in ${settings.files.allow}`);
      } catch (e) {
        log(`warning: keeping the previous allow list: ${describe(e)}`);
      }
    }
    return flagAllow.length ? [...fileAllow, ...flagAllow] : fileAllow;
  };
  const handlers = values.handler ? await loadHandlers(values.handler) : BUILTIN_HANDLERS;
  const { signer, npub } = loadSigner(settings);
  const asJson = !!values.json;
  const emit = (obj) => asJson && json(obj);

  let handled = 0;
  let inflight = 0;
  let eosed = false;
  let onceDone;
  const onceReached = new Promise((r) => (onceDone = r));
  const replies = new Set();
  const checkOnce = () => {
    if (values.once && eosed && handled > 0 && inflight === 0) onceDone('done');
  };

  const endpoint = createEndpoint({
    signer,
    relays: settings.relays,
    store: seenDir(settings),
    maxAutoDepth,
    pollInterval,
    identity: { org: settings.config.org ?? '', nip05: settings.config.nip05 ?? null },
    handlers: Object.fromEntries(
      Object.entries(handlers).map(([key, fn]) => [
        key,
        async (payload, ctx) => {
          inflight++;
          const from = npubOf(ctx.from);
          log(`task ${sanitizeLine(ctx.capability)} from ${short(from)} (${ctx.taskId.slice(0, 8)})`);
          try {
            const output = await fn(payload, ctx);
            log(`task ${sanitizeLine(ctx.capability)} completed`);
            emit({ type: 'task', from: ctx.from, npub: from, capability: ctx.capability, taskId: ctx.taskId, status: 'completed' });
            return output;
          } catch (e) {
            const isPublic = e instanceof AgxPublicError || e?.name === 'AgxPublicError';
            if (isPublic) log(`task ${sanitizeLine(ctx.capability)} failed: ${sanitizeLine(e.message)}`);
            emit({ type: 'task', from: ctx.from, npub: from, capability: ctx.capability, taskId: ctx.taskId, status: 'failed', error: isPublic ? e.message : 'handler failed' });
            throw e;
          } finally {
            handled++;
            inflight--;
          }
        },
      ]),
    ),
    acceptAll: !!values['allow-all'],
    allowList,
    onHandlerError: ({ capability, error }) => log(`handler failed: ${sanitizeLine(capability)}: ${describe(error)} (the peer sees only "handler failed")`),
    onDenied: ({ from, capability, reason }) => {
      const n = npubOf(from);
      log(`denied task ${sanitizeLine(capability)} from ${n}: ${reason}; no reply sent (allow it: nostr-agents identity allow ${n} --profile ${settings.profile})`);
      emit({ type: 'denied', from, npub: n, capability, reason });
    },
    onMessage: (m) => {
      const n = npubOf(m.from);
      if (m.reason !== 'plain-message') {
        const what = m.reason === 'unknown-capability' ? `task for unserved capability ${sanitizeLine(m.task?.capability ?? '')}` : m.reason.replace(/-/g, ' ');
        log(`ignored ${what} from ${short(n)}`);
        emit({ type: 'ignored', from: m.from, npub: n, reason: m.reason, capability: m.task?.capability ?? null });
        return;
      }
      handled++;
      if (asJson)
        emit({ type: 'message', from: m.from, npub: n, subject: m.subject, text: m.text, autoDepth: m.autoDepth, contextId: m.contextId, rumorId: m.rumorId, sentAt: m.sentAt });
      else out(`message from ${n}${m.subject ? ` [${sanitizeLine(m.subject)}]` : ''}:\n${sanitizeText(m.text)}`);
      if (values['no-reply']) return;
      // Only allowed peers get the automated acknowledgement: a reply would confirm to anyone
      // else that this agent exists (as a denied request gets none).
      if (!values['allow-all'] && !allowList().some((e) => e.pubkey === m.from)) {
        log(`not replying to ${short(n)}: not in the allow list (a reply would confirm this agent exists)`);
        return;
      }
      const text = `Received your message${m.subject ? ` "${m.subject.slice(0, 120)}"` : ''}. (nostr-agents serve acknowledges messages; it has no message handler.)`;
      const subject = m.subject ? (m.subject.startsWith('Re: ') ? m.subject : `Re: ${m.subject}`).slice(0, 256) : undefined;
      // m.reply: an automated reply at inbound depth + 1, refused past --max-auto-depth and the
      // client's per-conversation and per-peer bounds.
      const p = m
        .reply(text, { subject })
        .then((r) => {
          if (r.sent) return log(`replied to ${short(n)}`);
          const why =
            r.refused === 'depth-ceiling'
              ? `automated-reply depth ${m.autoDepth + 1} would exceed ${maxAutoDepth}`
              : `the automated-reply bound per ${r.refused === 'peer-bound' ? 'peer' : 'conversation'} is reached`;
          log(`not replying to ${short(n)}: ${why}`);
          emit({ type: 'reply-refused', from: m.from, npub: n, refused: r.refused, autoDepth: m.autoDepth });
        })
        .catch((e) => log(`reply to ${short(n)} failed: ${describe(e)}`))
        .finally(() => replies.delete(p));
      replies.add(p);
    },
    onError: (e) => {
      const code = e && typeof e.code === 'string' ? e.code : '';
      if (code.startsWith('AGX_WRAP') || code.startsWith('NIP59_')) log(`skipped a gift wrap that is not valid AGX for us (${sanitizeLine(code)})`);
      else log(`warning: ${describe(e)}`);
    },
    // A refused automated reply is logged above, with its reason.
    onWarning: (w) => /^automated reply to [0-9a-f]{64} not sent:/.test(w) || log(`warning: ${sanitizeLine(w)}`),
    onIngested: () => checkOnce(),
  });

  const capabilities = Object.keys(handlers);
  try {
    if (!values.handler) log('no --handler: answering invoice.review with a built-in stand-in (canned result)');
    if (values['allow-all']) log('--allow-all: task requests from anyone are accepted');
    else if (allowList().length === 0) log(`no peer is allowed: every task request is denied (nostr-agents identity allow NPUB --profile ${settings.profile})`);
    const started = await startEndpoint(endpoint, { advertise: !!values.advertise, profile: settings.profile });
    eosed = true;
    if (!started.poll.complete) {
      const down = settings.relays.filter((url) => endpoint.pool.status(url).state !== 'open');
      log(`warning: the catch-up poll was incomplete${down.length ? ` (not reachable: ${down.join(', ')})` : ''}; the client keeps reconnecting and polls again every ${pollInterval / 1000} s`);
      emit({ type: 'warning', reason: 'poll-incomplete', unreachable: down });
    }
    if (started.card) {
      const accepted = (r) => r.results.filter((x) => x.status === 'accepted').length;
      const ok = accepted(started.card);
      log(`advertised: Agent Card ${started.card.event.id.slice(0, 12)} and relay list published to ${ok}/${settings.relays.length} relays (cards are public; retract with: nostr-agents card --retract --profile ${settings.profile})`);
      emit({ type: 'advertised', cardId: started.card.event.id, relayListId: started.relayList?.event.id ?? null, accepted: ok });
    }
    log(`serving ${npub} (profile ${settings.profile}) on ${settings.relays.join(', ')}; capabilities: ${capabilities.join(', ')}`);
    emit({ type: 'ready', npub, pubkey: signer.publicKey, profile: settings.profile, relays: settings.relays, capabilities });
    checkOnce();
    const timeout = values.once ? new Promise((r) => setTimeout(() => r('timeout'), onceTimeout * 1000).unref()) : new Promise(() => {});
    const why = await Promise.race([untilSignal(), onceReached, timeout]);
    await Promise.allSettled([...replies]);
    if (why === 'timeout') {
      log(`--once: nothing arrived within ${onceTimeout} s`);
      return EXIT.TIMEOUT;
    }
    return EXIT.OK; // --once done, or stopped with Ctrl-C / SIGTERM
  } finally {
    await endpoint.stop();
    signer.dispose();
  }
}

function parsePayload(text) {
  if (text === undefined) return {};
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new CliError(EXIT.USAGE, `--payload is not JSON: ${e.message}`);
  }
}

export async function request(argv) {
  const { values, positionals } = parse(
    argv,
    { payload: { type: 'string' }, timeout: { type: 'string' }, 'poll-interval': { type: 'string' } },
    { min: 2, max: 2, usage: REQUEST_HELP },
  );
  if (values.help) return process.stdout.write(REQUEST_HELP), EXIT.OK;
  const peer = peerHex(positionals[0]);
  const capability = positionals[1];
  const payload = parsePayload(values.payload);
  const timeout = numberOption(values, 'timeout', 30);
  const pendingPollInterval = numberOption(values, 'poll-interval', 3) * 1000;
  const settings = resolveSettings(values);
  const { signer } = loadSigner(settings);
  // A MemorySeenStore: runs while `serve` holds the profile's store, answers nothing, marks nothing seen.
  const endpoint = createEndpoint({ signer, relays: settings.relays, pendingPollInterval });
  const controller = new AbortController();
  let interrupted = false;
  untilSignal().then(() => {
    interrupted = true;
    controller.abort();
  });
  try {
    await startEndpoint(endpoint, { profile: settings.profile });
    log(`requesting ${sanitizeLine(capability)} from ${short(npubOf(peer))}; waiting up to ${timeout} s for the result (Ctrl-C stops)`);
    const output = await endpoint.request(peer, capability, payload, { timeout: timeout * 1000, signal: controller.signal });
    if (values.json) json({ ok: true, from: peer, npub: npubOf(peer), capability, status: 'completed', output: output ?? null });
    else out(sanitizeText(output === undefined ? '(no output)' : typeof output === 'string' ? output : JSON.stringify(output, null, 2)));
    return EXIT.OK;
  } catch (e) {
    if (interrupted) throw new CliError(EXIT.INTERRUPTED, 'interrupted');
    if (e.code === 'AGX_TASK_FAILED') {
      const reason = e.result?.error ?? 'handler failed';
      if (values.json) json({ ok: false, from: peer, npub: npubOf(peer), capability, status: 'failed', error: reason });
      throw new CliError(EXIT.PEER, `task failed: ${sanitizeLine(reason)}`, { printed: !!values.json });
    }
    if (e.code === 'AGX_TIMEOUT')
      throw new CliError(EXIT.TIMEOUT, `no result within ${timeout} s (denied requests get no reply: is this profile allowed on the agent?)`);
    throw e;
  } finally {
    await endpoint.stop();
    signer.dispose();
  }
}

export async function send(argv) {
  const { values, positionals } = parse(argv, { subject: { type: 'string' } }, { min: 2, max: 2, usage: SEND_HELP });
  if (values.help) return process.stdout.write(SEND_HELP), EXIT.OK;
  const peer = peerHex(positionals[0]);
  const settings = resolveSettings(values);
  const { signer } = loadSigner(settings);
  const endpoint = createEndpoint({ signer, relays: settings.relays });
  try {
    const r = await endpoint.send(peer, positionals[1], { subject: values.subject });
    const accepted = r.results.filter((x) => x.status === 'accepted').map((x) => x.relay);
    if (values.json) json({ ok: true, to: peer, npub: npubOf(peer), rumorId: r.rumorId, wrapId: r.wrapId, contextId: r.contextId, accepted });
    else out(`sent to ${npubOf(peer)} (accepted by ${accepted.join(', ')}); collect the reply with: nostr-agents serve --once --no-reply --profile ${settings.profile}`);
    return EXIT.OK;
  } finally {
    await endpoint.stop();
    signer.dispose();
  }
}

export async function card(argv) {
  const { values, positionals } = parse(argv, { verify: { type: 'boolean' }, retract: { type: 'boolean' }, reason: { type: 'string' } }, { min: 0, max: 1, usage: CARD_HELP });
  if (values.help) return process.stdout.write(CARD_HELP), EXIT.OK;
  if (values.retract && values.verify) throw new CliError(EXIT.USAGE, `--retract and --verify do not go together\n${CARD_HELP}`);
  if (values.reason !== undefined && !values.retract) throw new CliError(EXIT.USAGE, `--reason goes with --retract\n${CARD_HELP}`);
  const settings = resolveSettings(values);
  if (values.retract) return retract(values, positionals, settings);
  const pubkey = positionals.length ? peerHex(positionals[0]) : loadPublicKey(settings).pubkey;
  const npub = npubOf(pubkey);
  const { card: found, relayList } = await readCard({ relays: settings.relays, pubkey });
  if (!found) {
    if (values.json) json({ ok: false, npub, pubkey, card: null, relayList });
    throw new CliError(EXIT.NOT_FOUND, `no valid Agent Card from ${npub} on ${settings.relays.join(', ')}`, { printed: !!values.json });
  }
  const verification = values.verify ? await checkNip05(found.nip05, pubkey) : undefined;
  if (values.json)
    json({
      ok: verification ? verification.ok : true,
      npub,
      card: { ...found, npub },
      relayList,
      ...(verification && { nip05Verified: verification.ok, nip05Reason: verification.reason }),
    });
  else {
    out(`npub          ${npub}`);
    if (found.org) out(`org           ${sanitizeLine(found.displayName ?? found.org)}`);
    out(`nip05         ${found.nip05 ? sanitizeLine(found.nip05) + (verification ? (verification.ok ? ' (verified)' : ' (NOT verified)') : ' (unverified: use --verify)') : '-'}`);
    out(`capabilities  ${found.capabilities.map(sanitizeLine).join(', ') || '-'}`);
    out(`relays        ${found.relays.map(sanitizeLine).join(', ') || '-'}`);
    if (relayList) out(`NIP-65 relays ${relayList.relays.map(sanitizeLine).join(', ') || '-'}`);
    out(`published     ${new Date(found.createdAt * 1000).toISOString()}`);
    if (verification && !verification.ok) err(`NIP-05: ${sanitizeLine(verification.reason)}`);
  }
  if (verification && !verification.ok) return EXIT.PEER;
  return EXIT.OK;
}

// card --retract: a NIP-09 deletion of the profile's own Agent Card(s), best-effort by nature.
async function retract(values, positionals, settings) {
  const { signer, npub } = loadSigner(settings);
  try {
    if (positionals.length && peerHex(positionals[0]) !== signer.publicKey)
      throw new CliError(EXIT.USAGE, `--retract retracts the profile's own card (${npub}), not another key's`);
    const r = await retractCard({ signer, relays: settings.relays, reason: values.reason });
    if (r.retracted.length === 0) {
      if (values.json) json({ ok: false, npub, retracted: [] });
      throw new CliError(EXIT.NOT_FOUND, `no Agent Card of ${npub} on ${settings.relays.join(', ')}: nothing to retract`, { printed: !!values.json });
    }
    const accepted = r.results.filter((x) => x.status === 'accepted').map((x) => x.relay);
    if (values.json) json({ ok: true, npub, retracted: r.retracted, deletionId: r.event.id, accepted });
    else
      out(
        `retracted ${r.retracted.length} Agent Card event(s) of ${npub} with a NIP-09 deletion (accepted by ${accepted.join(', ')}); ` +
          'relays need not honor it, and copies elsewhere may remain',
      );
    return EXIT.OK;
  } finally {
    signer.dispose();
  }
}
