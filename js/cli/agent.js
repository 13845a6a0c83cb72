// NIP-XX commands: `agent serve`, `ask` (also `agent ask`) and `info` (also `agent info`).
import { resolve as resolvePath } from 'node:path';
import { pathToFileURL } from 'node:url';
import { nostr } from './nostr.js';
import { CliError, EXIT, describe, err, json, log, numberOption, out, parse, untilSignal } from './common.js';
import { resolveSettings } from './settings.js';
import { hasIdentity, loadSigner, npubOf, peerHex } from './keystore.js';
import { sanitizeLine, sanitizeText } from './sanitize.js';

const { serveAgent, prompt, discover, RelayPool, LocalSigner, AgentError, DEFAULT_IDLE_TIMEOUT } = nostr;

export const AGENT_HELP = `usage: nostr-agents agent <serve|ask|info> [options]

  agent serve (--handler FILE | --echo | --tools) [--allow NPUB]...
        publishes ai.info and answers prompts until Ctrl-C. FILE default-exports an async
        generator handler(ctx) yielding text, {type:'status'}, {type:'tool_call'}, {type:'usage'};
        it may export \`info\` (ai.info fields, e.g. tool_names, supported_models)
  ask NPUB "message" [--model M] [--session S] [--thinking low|medium|high|max] [--timeout S] [--idle-timeout S]
        streams the answer; Ctrl-C sends ai.cancel (exit code 130). --timeout: the whole answer
        (default 300 s); --idle-timeout: silence from the agent (default 120 s; 0 waits forever);
        either ends with exit code 5
  info NPUB   prints the agent's ai.info

common options: --profile NAME, --relay URL, --json (ask: one JSON object per update)
`;

async function* echoHandler({ message }) {
  yield { type: 'status', state: 'thinking' };
  const words = message.split(/(?<=\s)/);
  for (const w of words) yield w;
  yield { type: 'usage', input_tokens: words.length, output_tokens: words.length };
}

async function* toolsHandler({ message }) {
  yield { type: 'status', state: 'tool_use', info: 'counting words' };
  const started = Date.now();
  yield { type: 'tool_call', name: 'word_count', phase: 'start', arguments: { text: message.slice(0, 200) } };
  const count = message.split(/\s+/).filter(Boolean).length;
  yield { type: 'tool_call', name: 'word_count', phase: 'result', output: { count }, success: true, duration_ms: Date.now() - started };
  yield { type: 'status', state: 'thinking' };
  yield `Your message has ${count} word${count === 1 ? '' : 's'}.`;
  yield { type: 'usage', input_tokens: count, output_tokens: 6 };
}

async function loadAgentModule(file) {
  let mod;
  try {
    mod = await import(pathToFileURL(resolvePath(file)).href);
  } catch (e) {
    throw new CliError(EXIT.SETUP, `could not load handler module ${file}: ${e.message}`);
  }
  if (typeof mod.default !== 'function') throw new CliError(EXIT.SETUP, `${file}: the default export must be an (async generator) function`);
  const info = mod.info ?? {};
  if (typeof info !== 'object' || Array.isArray(info)) throw new CliError(EXIT.SETUP, `${file}: the \`info\` export must be an object`);
  return { handler: mod.default, info };
}

/** The handler with a log line per run and `handler failed` for errors that are not AgentErrors. */
function logged(handler) {
  return async function* (ctx) {
    const who = npubOf(ctx.sender);
    log(`prompt ${ctx.promptId.slice(0, 8)} from ${who.slice(0, 14)}… session ${sanitizeLine(ctx.session).slice(0, 40)}${ctx.model ? ` model ${sanitizeLine(ctx.model)}` : ''}`);
    let ok = false;
    try {
      const it = handler(ctx);
      if (it && (typeof it[Symbol.asyncIterator] === 'function' || typeof it[Symbol.iterator] === 'function')) yield* it;
      else {
        const v = await it;
        if (typeof v === 'string' && v.length) yield v;
      }
      ok = true;
    } catch (e) {
      if (!(e instanceof AgentError)) log(`handler failed: ${describe(e)} (the client sees only INTERNAL_ERROR)`);
      else log(`run ${ctx.promptId.slice(0, 8)} ended with ${e.code}: ${describe(e)}`);
      throw e;
    } finally {
      if (ctx.signal.aborted) log(`run ${ctx.promptId.slice(0, 8)} cancelled by the client`);
      else if (ok) log(`run ${ctx.promptId.slice(0, 8)} answered`);
    }
  };
}

export async function serveCommand(argv) {
  const { values } = parse(
    argv,
    { handler: { type: 'string' }, echo: { type: 'boolean' }, tools: { type: 'boolean' }, allow: { type: 'string', multiple: true } },
    { max: 0, usage: AGENT_HELP },
  );
  if (values.help) return process.stdout.write(AGENT_HELP), EXIT.OK;
  const chosen = [values.handler !== undefined, !!values.echo, !!values.tools].filter(Boolean).length;
  if (chosen !== 1) throw new CliError(EXIT.USAGE, `give exactly one of --handler FILE, --echo, --tools\n${AGENT_HELP}`);
  let handler;
  let info;
  if (values.echo) [handler, info] = [echoHandler, { tool_names: [] }];
  else if (values.tools) [handler, info] = [toolsHandler, { tool_names: ['word_count'] }];
  else ({ handler, info } = await loadAgentModule(values.handler));
  const settings = resolveSettings(values);
  const policy = values.allow?.length ? { allow: values.allow.map(peerHex) } : {};
  const { signer, npub } = loadSigner(settings);
  const pool = new RelayPool({ relays: settings.relays });
  let agent;
  try {
    agent = await serveAgent({
      signer,
      pool,
      relays: settings.relays,
      info: { supports_streaming: true, ...info },
      handler: logged(handler),
      policy,
      onError: (e) => {
        if (e instanceof AgentError) return; // logged by the handler wrapper
        log(`warning: ${describe(e)}`);
      },
    });
    const mode = values.echo ? 'echo' : values.tools ? 'tools' : values.handler;
    log(`agent ${npub} (profile ${settings.profile}) serving on ${settings.relays.join(', ')} with ${mode}${policy.allow ? `; allowed: ${policy.allow.length} key(s)` : '; anyone may prompt (restrict with --allow)'}`);
    if (values.json) json({ type: 'ready', npub, pubkey: agent.pubkey, relays: settings.relays, info: agent.info, infoEventId: agent.infoEvent.id });
    await untilSignal();
    return EXIT.OK;
  } finally {
    if (agent) await agent.stop();
    await pool.close();
    signer.dispose();
  }
}

export async function ask(argv) {
  const { values, positionals } = parse(
    argv,
    { model: { type: 'string' }, session: { type: 'string' }, thinking: { type: 'string' }, timeout: { type: 'string' }, 'idle-timeout': { type: 'string' } },
    { min: 2, max: 2, usage: AGENT_HELP },
  );
  if (values.help) return process.stdout.write(AGENT_HELP), EXIT.OK;
  const agentKey = peerHex(positionals[0]);
  const message = positionals[1];
  if (message.length === 0) throw new CliError(EXIT.USAGE, 'the message is empty');
  if (values.thinking !== undefined && !['low', 'medium', 'high', 'max'].includes(values.thinking))
    throw new CliError(EXIT.USAGE, '--thinking must be low, medium, high or max');
  const timeout = numberOption(values, 'timeout', 300);
  // An agent that never answers: the run ends RUN_INCOMPLETE (exit 5) after this many seconds of silence.
  const idleTimeout = numberOption(values, 'idle-timeout', DEFAULT_IDLE_TIMEOUT / 1000);
  const settings = resolveSettings(values);
  let signer;
  if (hasIdentity(settings)) signer = loadSigner(settings).signer;
  else {
    signer = LocalSigner.generate();
    err(`(no identity in profile "${settings.profile}": asking with a one-time key, so no session continuity)`);
  }
  const pool = new RelayPool({ relays: settings.relays });
  const asJson = !!values.json;
  const run = prompt({
    pool,
    relays: settings.relays,
    signer,
    agent: agentKey,
    message,
    model: values.model,
    session: values.session,
    thinking: values.thinking,
    idleTimeout: idleTimeout * 1000,
  });

  let interrupted = 0;
  let timedOut = false;
  const onSigint = () => {
    interrupted++;
    if (interrupted > 1) process.exit(EXIT.INTERRUPTED);
    err('\n(cancelling: ai.cancel sent; Ctrl-C again to quit at once)');
    run.cancel('user_cancel').catch(() => {});
  };
  process.on('SIGINT', onSigint);
  process.on('SIGTERM', onSigint);
  const timer = setTimeout(() => {
    timedOut = true;
    run.cancel('timeout').catch(() => {});
  }, timeout * 1000);
  timer.unref();

  let printed = '';
  let midLine = false;
  const toStderr = (line) => {
    if (midLine && process.stdout.isTTY && process.stderr.isTTY) process.stdout.write('\n'), (midLine = false);
    err(line);
  };
  let final = null;
  try {
    for await (const u of run) {
      if (asJson) {
        if (u.type === 'terminal') continue;
        json(u);
        continue;
      }
      if (u.type === 'status') toStderr(`· ${u.state}${u.progress !== undefined ? ` ${Math.round(u.progress * 100)}%` : ''}${u.info ? `: ${sanitizeLine(u.info).slice(0, 200)}` : ''}`);
      else if (u.type === 'tool_call') {
        const detail = u.phase === 'result' ? (u.success === false ? 'failed' : 'done') + (u.duration_ms !== undefined ? ` in ${u.duration_ms} ms` : '') : 'started';
        const args = u.phase === 'start' && u.arguments !== undefined ? ` ${sanitizeLine(JSON.stringify(u.arguments)).slice(0, 200)}` : '';
        toStderr(`⚙ tool ${sanitizeLine(u.name ?? '?')} ${detail}${args}`);
      } else if (u.type === 'delta') {
        if (u.text.startsWith(printed)) {
          const more = u.text.slice(printed.length);
          if (more) process.stdout.write(sanitizeText(more)), (midLine = !more.endsWith('\n'));
          printed = u.text;
        }
      } else if (u.type === 'rejected') toStderr(`(ignored an invalid event from the agent: ${sanitizeLine(u.reason)})`);
    }
    final = await run.result;
    if (asJson) json({ type: 'terminal', ok: true, text: final.text, usage: final.usage ?? null, eventId: final.eventId, agent: agentKey, promptId: run.id });
    else {
      if (final.text.startsWith(printed)) process.stdout.write(sanitizeText(final.text.slice(printed.length)));
      else process.stdout.write((printed ? '\n' : '') + sanitizeText(final.text));
      process.stdout.write('\n');
      const u = final.usage;
      err(u ? `usage: ${u.input_tokens} input tokens, ${u.output_tokens} output tokens` : 'usage: not reported');
    }
    return EXIT.OK;
  } catch (e) {
    if (midLine) process.stdout.write('\n');
    const code = typeof e?.code === 'string' ? e.code : 'ERROR';
    const idle = code === 'RUN_INCOMPLETE';
    const exitCode = interrupted ? EXIT.INTERRUPTED : timedOut || idle ? EXIT.TIMEOUT : e instanceof AgentError ? EXIT.PEER : code.startsWith('RELAY_') || code === 'POOL_CLOSED' ? EXIT.RELAY : EXIT.FAILURE;
    const confirmed = e instanceof AgentError && !!e.eventId;
    // The agent's retry_after (RATE_LIMIT and other transient failures): when to try again.
    const retryAfter = e instanceof AgentError && Number.isInteger(e.retryAfter) ? e.retryAfter : undefined;
    if (asJson) json({ type: 'terminal', ok: false, error: { code, message: e.message, confirmed, ...(retryAfter !== undefined && { retryAfter }) }, agent: agentKey, promptId: run.id, exitCode });
    const retry = retryAfter !== undefined ? ` (retry after ${retryAfter} s)` : '';
    const what = interrupted
      ? `cancelled${confirmed ? ' (the agent confirmed)' : ''}`
      : timedOut
        ? `no answer within ${timeout} s`
        : idle
          ? `the agent sent nothing for ${idleTimeout} s (RUN_INCOMPLETE; --idle-timeout S waits longer, 0 forever)`
          : describe(e) + retry;
    throw new CliError(exitCode, what, { printed: true });
  } finally {
    clearTimeout(timer);
    process.off('SIGINT', onSigint);
    process.off('SIGTERM', onSigint);
    await pool.close();
    signer.dispose();
  }
}

export async function info(argv) {
  const { values, positionals } = parse(argv, {}, { min: 1, max: 1, usage: AGENT_HELP });
  if (values.help) return process.stdout.write(AGENT_HELP), EXIT.OK;
  const agentKey = peerHex(positionals[0]);
  const settings = resolveSettings(values);
  const pool = new RelayPool({ relays: settings.relays });
  try {
    const { info: doc, event } = await discover(pool, agentKey, { relays: settings.relays });
    const found = event !== null;
    if (values.json) json({ ok: found, found, npub: npubOf(agentKey), pubkey: agentKey, info: doc, eventId: event?.id ?? null, createdAt: event?.created_at ?? null });
    else {
      out(`agent        ${npubOf(agentKey)}`);
      if (!found) out('ai.info      none published (showing the defaults a client assumes)');
      else out(`published    ${new Date(event.created_at * 1000).toISOString()}`);
      out(`encryption   ${doc.encryption.map(sanitizeLine).join(', ')}`);
      out(`tools        ${doc.tool_names.map(sanitizeLine).join(', ') || '-'}`);
      if (doc.supported_models) out(`models       ${doc.supported_models.map(sanitizeLine).join(', ')}${doc.default_model ? ` (default ${sanitizeLine(doc.default_model)})` : ''}`);
      if (doc.supports_streaming !== undefined) out(`streaming    ${doc.supports_streaming ? 'yes' : 'no'}`);
      for (const k of ['max_prompt_bytes', 'max_context_tokens']) if (doc[k] !== undefined) out(`${k.padEnd(12)} ${sanitizeLine(String(doc[k]))}`);
    }
    return found ? EXIT.OK : EXIT.NOT_FOUND;
  } finally {
    await pool.close();
  }
}

export async function run(argv) {
  const [sub, ...rest] = argv;
  if (sub === 'serve') return serveCommand(rest);
  if (sub === 'ask') return ask(rest);
  if (sub === 'info') return info(rest);
  if (sub === undefined || sub === '--help' || sub === '-h') {
    (sub === undefined ? process.stderr : process.stdout).write(AGENT_HELP);
    return sub === undefined ? EXIT.USAGE : EXIT.OK;
  }
  throw new CliError(EXIT.USAGE, `unknown agent command "${sanitizeLine(sub).slice(0, 40)}"\n${AGENT_HELP}`);
}


