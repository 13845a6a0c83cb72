// AGX commands: `serve`, `request`, `send`, `card`. Every AGX call goes through agx-adapter.js.
import { resolve as resolvePath } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CliError, EXIT, describe, err, json, log, numberOption, out, parse, untilSignal } from './common.js';
import { resolveSettings } from './settings.js';
import { loadSigner, npubOf, peerHex, readAllow } from './keystore.js';
import { sanitizeLine, sanitizeText } from './sanitize.js';
import {
  AgxPublicError,
  DEFAULT_MAX_AUTO_DEPTH,
  advertise,
  createEndpoint,
  fetchCard,
  fetchRelayList,
  openPool,
  verifyNip05,
} from './agx-adapter.js';

export const SERVE_HELP = `usage: nostr-agents serve [options]

Runs the profile's identity as an AGX agent until Ctrl-C.

  --handler FILE       a module whose default export maps capabilities to async functions
                       (payload, {from, capability, taskId}) => output; without it, a built-in
                       invoice.review stand-in answers
  --advertise          publish an Agent Card (kind 11337, public) and a NIP-65 relay list
  --allow NPUB         also allow NPUB (every capability) for this run; repeatable
  --allow-all          accept task requests from anyone (explicit opt-in)
  --once               exit after the stored and the first new message or task were handled
  --timeout S          with --once: give up after S seconds (default 30; exit code 5)
  --no-reply           do not answer plain messages (collect them only)
  --max-auto-depth N   automated replies stop at this depth (default: config maxAutoDepth or ${DEFAULT_MAX_AUTO_DEPTH})

common options: --profile NAME, --relay URL (repeatable, comma-separated), --json (JSON lines)
`;

export const REQUEST_HELP = `usage: nostr-agents request NPUB CAPABILITY [--payload JSON] [--timeout S]

Sends a task request and waits for its result (default 30 s). Prints the output.
common options: --profile NAME, --relay URL, --json
`;

export const SEND_HELP = `usage: nostr-agents send NPUB "text" [--subject S]

Publishes a message and returns (collect replies with: serve --once --no-reply).
common options: --profile NAME, --relay URL, --json
`;

export const CARD_HELP = `usage: nostr-agents card NPUB [--verify]

Prints the agent's Agent Card (kind 11337) and NIP-65 relays; --verify checks its NIP-05 handle
against https://<domain>/.well-known/nostr.json (exit code 6 when it does not match).
common options: --relay URL, --json
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
    },
    { max: 0, usage: SERVE_HELP },
  );
  if (values.help) return process.stdout.write(SERVE_HELP), EXIT.OK;
  const settings = resolveSettings(values);
  const configDepth = settings.config.maxAutoDepth;
  const maxAutoDepth = numberOption(values, 'max-auto-depth', Number.isInteger(configDepth) ? configDepth : DEFAULT_MAX_AUTO_DEPTH, { integer: true });
  const onceTimeout = numberOption(values, 'timeout', 30);
  const allowList = readAllow(settings);
  for (const peer of values.allow ?? []) allowList.push({ pubkey: peerHex(peer), capability: '*' });
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
    seenFile: settings.files.seen,
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
      if (asJson) emit({ type: 'message', from: m.from, npub: n, subject: m.subject, text: m.text, autoDepth: m.autoDepth, rumorId: m.rumorId, sentAt: m.sentAt });
      else out(`message from ${n}${m.subject ? ` [${sanitizeLine(m.subject)}]` : ''}:\n${sanitizeText(m.text)}`);
      if (values['no-reply']) return;
      // Only allowed peers get the automated acknowledgement: a reply would confirm to anyone
      // else that this agent exists (as a denied request gets none).
      if (!values['allow-all'] && !allowList.some((e) => e.pubkey === m.from)) {
        log(`not replying to ${short(n)}: not in the allow list (a reply would confirm this agent exists)`);
        return;
      }
      const text = `Received your message${m.subject ? ` "${m.subject.slice(0, 120)}"` : ''}. (nostr-agents serve acknowledges messages; it has no message handler.)`;
      const p = endpoint
        .reply(m, text, { maxAutoDepth })
        .then((r) => log(r ? `replied to ${short(n)}` : `not replying to ${short(n)}: automated-reply depth ${m.autoDepth + 1} would exceed ${maxAutoDepth}`))
        .catch((e) => log(`reply to ${short(n)} failed: ${describe(e)}`))
        .finally(() => replies.delete(p));
      replies.add(p);
    },
    onError: (e) => {
      const code = e && typeof e.code === 'string' ? e.code : '';
      if (code.startsWith('AGX_WRAP') || code.startsWith('NIP59_')) log(`skipped a gift wrap that is not valid AGX for us (${sanitizeLine(code)})`);
      else log(`warning: ${describe(e)}`);
    },
    onWarning: (w) => log(`warning: ${sanitizeLine(w)}`),
    onIngested: () => checkOnce(),
  });

  const capabilities = Object.keys(handlers);
  try {
    if (!values.handler) log('no --handler: answering invoice.review with a built-in stand-in (canned result)');
    if (values['allow-all']) log('--allow-all: task requests from anyone are accepted');
    else if (allowList.length === 0) log(`no peer is allowed: every task request is denied (nostr-agents identity allow NPUB --profile ${settings.profile})`);
    await endpoint.start();
    eosed = true;
    if (values.advertise) {
      const r = await advertise({ signer, pool: endpoint.pool, relays: settings.relays, capabilities, org: settings.config.org, nip05: settings.config.nip05 });
      const ok = r.cardResults.filter((x) => x.status === 'accepted').length;
      log(`advertised: Agent Card ${r.card.id.slice(0, 12)} and relay list published to ${ok}/${settings.relays.length} relays (cards are public)`);
      emit({ type: 'advertised', cardId: r.card.id, relayListId: r.relayList.id, accepted: ok });
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
    await endpoint.close();
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
  const { values, positionals } = parse(argv, { payload: { type: 'string' }, timeout: { type: 'string' } }, { min: 2, max: 2, usage: REQUEST_HELP });
  if (values.help) return process.stdout.write(REQUEST_HELP), EXIT.OK;
  const peer = peerHex(positionals[0]);
  const capability = positionals[1];
  const payload = parsePayload(values.payload);
  const timeout = numberOption(values, 'timeout', 30);
  const settings = resolveSettings(values);
  const { signer } = loadSigner(settings);
  const endpoint = createEndpoint({ signer, relays: settings.relays });
  const controller = new AbortController();
  let interrupted = false;
  untilSignal().then(() => {
    interrupted = true;
    controller.abort();
  });
  try {
    await endpoint.start();
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
    await endpoint.close();
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
    if (values.json) json({ ok: true, to: peer, npub: npubOf(peer), rumorId: r.rumorId, wrapId: r.wrapId, accepted });
    else out(`sent to ${npubOf(peer)} (accepted by ${accepted.join(', ')}); collect the reply with: nostr-agents serve --once --no-reply --profile ${settings.profile}`);
    return EXIT.OK;
  } finally {
    await endpoint.close();
    signer.dispose();
  }
}

export async function card(argv) {
  const { values, positionals } = parse(argv, { verify: { type: 'boolean' } }, { min: 1, max: 1, usage: CARD_HELP });
  if (values.help) return process.stdout.write(CARD_HELP), EXIT.OK;
  const pubkey = peerHex(positionals[0]);
  const settings = resolveSettings(values);
  const pool = openPool(settings.relays);
  try {
    const [found, relayList] = await Promise.all([
      fetchCard({ pool, relays: settings.relays, pubkey }),
      fetchRelayList({ pool, relays: settings.relays, pubkey }),
    ]);
    if (!found) {
      if (values.json) json({ ok: false, npub: npubOf(pubkey), pubkey, card: null });
      throw new CliError(EXIT.NOT_FOUND, `no valid Agent Card from ${npubOf(pubkey)} on ${settings.relays.join(', ')}`, { printed: !!values.json });
    }
    let verification;
    if (values.verify) verification = found.nip05 ? await verifyNip05(found.nip05, pubkey) : { ok: false, reason: 'the card claims no NIP-05 handle' };
    if (values.json) json({ ok: verification ? verification.ok : true, card: found, relayList, ...(verification && { nip05Verified: verification.ok, nip05Reason: verification.reason }) });
    else {
      out(`npub          ${found.npub}`);
      if (found.org) out(`org           ${sanitizeLine(found.displayName)}`);
      out(`nip05         ${found.nip05 ? sanitizeLine(found.nip05) + (verification ? (verification.ok ? ' (verified)' : ' (NOT verified)') : ' (unverified: use --verify)') : '-'}`);
      out(`capabilities  ${found.capabilities.map(sanitizeLine).join(', ') || '-'}`);
      out(`relays        ${found.relays.map(sanitizeLine).join(', ') || '-'}`);
      if (relayList.length) out(`NIP-65 relays ${relayList.map(sanitizeLine).join(', ')}`);
      out(`published     ${new Date(found.createdAt * 1000).toISOString()}`);
      if (verification && !verification.ok) err(`NIP-05: ${sanitizeLine(verification.reason)}`);
    }
    if (verification && !verification.ok) return EXIT.PEER;
    return EXIT.OK;
  } finally {
    await pool.close();
  }
}


