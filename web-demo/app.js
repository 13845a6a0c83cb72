// The demo page: identity, relays, agent picker, the conversation, sessions and the AGX panel.
// Plain DOM; agent text reaches the page only through renderMarkdown (text nodes) or textContent.
import { init, RelayPool, LocalSigner, prompt, nip19, nipxx, agx } from '../js/index.browser.js';
import { renderMarkdown } from './markdown.js';
import { createRunStore, listRuns, listSessions, newSessionId } from './sessions.js';
import { privacyAvailability, promptPrivacyOptions } from './privacy.js';
import { exportLocalKey, hasExtension, importLocalKey, savedMode, useExtension, useLocalKey } from './identity.js';
import { CARD_KIND, parseCard } from './agx-card.js';

const $ = (id) => document.getElementById(id);
const el = (tag, props = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === 'dataset') Object.assign(node.dataset, v);
    else if (k.startsWith('aria-') || k === 'role') node.setAttribute(k, v);
    else node[k] = v;
  }
  node.append(...children.filter((c) => c !== null && c !== undefined));
  return node;
};
const shortKey = (npub) => `${npub.slice(0, 12)}…${npub.slice(-6)}`;
const pretty = (v) => (v === undefined ? '' : JSON.stringify(v, null, 2));
const RELAYS_KEY = 'nostr-agents-demo:relays';

const state = {
  identity: null, // { mode, signer, pubkey }
  pool: null,
  relays: [],
  agents: new Map(), // pubkey -> { pubkey, npub, info, event }
  agentSub: null,
  agent: null, // the selected agent
  wantedAgent: null, // hex: from ?agent=, then the user's pick
  session: null,
  current: null, // { run, record, view } while a run is in flight
  store: createRunStore(),
  agx: null, // { agent, signer, ephemeral }
};

// --- Ready line and the "ready to chat" flag (tests and people wait for it).
function setReady() {
  const ready = Boolean(state.identity && state.pool && state.agent);
  document.body.dataset.ready = String(ready);
  if (ready && performance.getEntriesByName('demo-ready').length === 0) performance.mark('demo-ready'); // for bench.mjs
  $('send').disabled = !ready || state.current !== null;
  if (!state.identity) $('ready-line').textContent = 'Choose how to sign in (Identity).';
  else if (!state.agent) $('ready-line').textContent = 'Looking for agents on the relays…';
  else $('ready-line').textContent = `Ready to chat with ${state.agent.info.name ?? shortKey(state.agent.npub)}.`;
}

// --- Identity.
function showIdentity() {
  const id = state.identity;
  const ext = hasExtension();
  $('login-ext').hidden = !ext || id?.mode === 'nip07';
  $('use-local').hidden = id?.mode === 'local';
  $('export-key').hidden = id?.mode !== 'local';
  $('import-form').hidden = id?.mode !== 'local' && id !== null;
  $('export-box').hidden = true;
  $('export-field').value = '';
  if (!id) {
    $('identity-line').textContent = ext
      ? 'A Nostr extension is available: log in with it (your key stays in the extension), or use a key kept in this browser.'
      : 'No identity yet.';
    return;
  }
  const npub = nip19.npubEncode(id.pubkey);
  $('identity-line').replaceChildren(
    'You are ',
    el('code', { title: npub }, shortKey(npub)),
    id.mode === 'nip07' ? ' through your NIP-07 extension (the page never sees your key).' : ', with a key kept in this browser.',
    ...(id.mode === 'nip07' && !id.nip44 ? [el('span', { className: 'error-text' }, ' This extension has no NIP-44: it cannot encrypt prompts.')] : []),
  );
}

async function setIdentity(identity) {
  if (state.identity?.mode === 'local' && state.identity.signer !== identity?.signer) state.identity.signer.dispose();
  state.identity = identity;
  await closeAgx();
  showIdentity();
  openPool();
}

$('login-ext').addEventListener('click', async () => {
  try {
    await setIdentity(await useExtension());
  } catch (err) {
    $('identity-line').textContent = `The extension refused: ${err.code ?? ''} ${err.message}`;
  }
});
$('use-local').addEventListener('click', () => setIdentity(useLocalKey()));
$('export-key').addEventListener('click', () => {
  const box = $('export-box');
  box.hidden = !box.hidden;
  $('export-field').value = box.hidden ? '' : (exportLocalKey() ?? '');
  if (!box.hidden) $('export-field').select();
});
$('import-form').addEventListener('submit', (ev) => {
  ev.preventDefault();
  try {
    importLocalKey($('import-field').value);
    $('import-field').value = '';
    $('import-error').textContent = '';
    setIdentity(useLocalKey());
  } catch (err) {
    $('import-error').textContent = `Not a valid key (${err.code ?? 'INVALID_ARGUMENT'}).`;
  }
});

// --- Relays and their status dots.
function renderRelays() {
  $('relay-list').replaceChildren(
    ...state.relays.map((url) => {
      const st = state.pool?.status(url)?.state ?? 'closed';
      const remove = el('button', { type: 'button', 'aria-label': `Remove ${url}` }, 'Remove');
      remove.addEventListener('click', () => {
        state.relays = state.relays.filter((r) => r !== url);
        localStorage.setItem(RELAYS_KEY, JSON.stringify(state.relays));
        openPool();
      });
      return el(
        'li',
        { dataset: { relay: url } },
        el('span', { className: 'dot', dataset: { state: st }, role: 'img', 'aria-label': `status: ${st}`, title: st }),
        el('span', { className: 'url' }, url),
        remove,
      );
    }),
  );
}

const normalize = (url) => {
  try {
    return new URL(url).href.replace(/\/$/, '');
  } catch {
    return url;
  }
};

function setRelayDot(relay, st) {
  for (const li of $('relay-list').children) {
    if (normalize(li.dataset.relay) !== normalize(relay)) continue;
    const dot = li.querySelector('.dot');
    dot.dataset.state = st;
    dot.setAttribute('aria-label', `status: ${st}`);
    dot.title = st;
  }
}

$('relay-form').addEventListener('submit', (ev) => {
  ev.preventDefault();
  const url = $('relay-field').value.trim();
  if (!/^wss?:\/\/[^\s]+$/.test(url)) {
    $('relay-error').textContent = 'A relay URL starts with ws:// or wss://.';
    return;
  }
  $('relay-error').textContent = '';
  $('relay-field').value = '';
  if (!state.relays.includes(url)) state.relays.push(url);
  localStorage.setItem(RELAYS_KEY, JSON.stringify(state.relays));
  openPool();
});

function openPool() {
  state.agentSub?.close();
  state.agentSub = null;
  const old = state.pool;
  state.pool = null;
  if (old) {
    void closeAgx(); // it holds the old pool
    void old.close();
  }
  renderRelays();
  if (!state.identity || state.relays.length === 0) {
    setReady();
    return;
  }
  const pool = new RelayPool({ relays: state.relays, signer: state.identity.signer });
  state.pool = pool;
  pool.on('status', ({ relay, state: st }) => {
    if (state.pool === pool) setRelayDot(relay, st); // not the closing pool's last words
  });
  watchAgents();
  setReady();
}

// --- Agents, from their ai.info (kind 31340).
function watchAgents() {
  state.agents.clear();
  state.agent = null;
  state.agentSub = state.pool.subscribe([{ kinds: [nipxx.KINDS.info] }], {
    onevent: (event) => {
      if (!event.tags.some((t) => t[0] === 'd' && t[1])) return;
      if (!nipxx.validatePayload(nipxx.KINDS.info, event.content).ok) return;
      const known = state.agents.get(event.pubkey);
      if (known && (known.event.created_at > event.created_at || (known.event.created_at === event.created_at && known.event.id >= event.id))) return;
      state.agents.set(event.pubkey, { pubkey: event.pubkey, npub: nip19.npubEncode(event.pubkey), info: JSON.parse(event.content), event });
      renderAgents();
    },
    oneose: () => {
      if (state.agents.size === 0) $('agent-select').replaceChildren(el('option', { value: '' }, 'no agent found yet (still listening)'));
    },
  });
}

function renderAgents() {
  const select = $('agent-select');
  // The agent asked for (?agent= or the user's last pick) wins once it shows up.
  const current = state.agents.has(state.wantedAgent) ? state.wantedAgent : state.agent?.pubkey;
  const list = [...state.agents.values()].sort((a, b) => (a.pubkey === state.wantedAgent ? -1 : b.pubkey === state.wantedAgent ? 1 : 0));
  select.replaceChildren(
    ...list.map((a) => el('option', { value: a.pubkey, selected: a.pubkey === current }, `${a.info.name ?? 'unnamed agent'} (${shortKey(a.npub)})`)),
  );
  const pick = state.agents.get(select.value) ?? null;
  if (pick && (pick !== state.agent || pick.info !== state.agent?.info)) selectAgent(pick);
}

$('agent-select').addEventListener('change', () => {
  state.wantedAgent = $('agent-select').value || null;
  selectAgent(state.agents.get($('agent-select').value) ?? null);
});

function selectAgent(agent) {
  state.agent = agent;
  const box = $('agent-details');
  if (!agent) {
    box.replaceChildren();
    setReady();
    return;
  }
  const { info } = agent;
  const yesNo = (v) => (v ? 'yes' : 'no');
  const tools = Object.entries(info.tool_schemas ?? {});
  // Open on wide screens; one tap away on a phone.
  const details = el('details', { open: window.matchMedia('(min-width: 721px)').matches }, el('summary', {}, 'About this agent'));
  box.replaceChildren(details);
  details.append(
    ...[info.about ? el('p', {}, String(info.about)) : null].filter(Boolean),
    el(
      'dl',
      {},
      el('dt', {}, 'npub'), el('dd', {}, el('code', {}, agent.npub)),
      el('dt', {}, 'Models'), el('dd', {}, (info.supported_models ?? []).join(', ') || 'not advertised'),
      el('dt', {}, 'Streaming'), el('dd', {}, yesNo(info.supports_streaming)),
      el('dt', {}, 'NIP-59'), el('dd', {}, yesNo(info.supports_nip59)),
      el('dt', {}, 'Tools'), el('dd', {}, info.tool_names.join(', ') || 'none'),
      info.pricing_hints ? el('dt', {}, 'Pricing') : null,
      info.pricing_hints ? el('dd', {}, Object.entries(info.pricing_hints).map(([k, v]) => `${k}: ${v}`).join(', ')) : null,
    ),
    ...tools.map(([name, t]) =>
      el('details', {}, el('summary', {}, `Tool ${name}: ${t.description ?? ''}`), el('pre', {}, pretty(t.input_schema))),
    ),
  );
  const models = info.supported_models ?? [];
  $('model').replaceChildren(
    ...(models.length ? models : ['']).map((m) => el('option', { value: m, selected: m === info.default_model }, m || 'agent default')),
  );
  const p = privacyAvailability(info);
  $('privacy-box').hidden = !p.shown;
  $('privacy').disabled = !p.usable;
  if (!p.usable) $('privacy').checked = false;
  $('privacy-why').textContent = p.usable ? '' : p.why;
  if (!$('card-npub').value) $('card-npub').value = agent.npub;
  setReady();
}

// --- Sessions sidebar.
async function renderSessions() {
  const sessions = await listSessions(state.store);
  $('session-list').replaceChildren(
    ...sessions.map((s) => {
      const b = el('button', { type: 'button', 'aria-current': String(s.session === state.session) }, s.title || 'untitled', el('small', {}, `${s.runs} message${s.runs > 1 ? 's' : ''} · ${new Date(s.updatedAt).toLocaleString()}`));
      b.addEventListener('click', () => openSession(s.session));
      return el('li', {}, b);
    }),
  );
}

async function openSession(session) {
  if (state.current) return;
  state.session = session;
  const runs = await listRuns(state.store, session);
  $('transcript').replaceChildren();
  for (const r of runs) {
    if (r.status === 'running') r.status = 'interrupted';
    const view = renderTurn(r);
    paint(view, r);
  }
  if (runs[0] && state.agents.has(runs[0].agent) && state.agent?.pubkey !== runs[0].agent) {
    state.wantedAgent = runs[0].agent;
    $('agent-select').value = runs[0].agent;
    selectAgent(state.agents.get(runs[0].agent));
  }
  await renderSessions();
}

$('new-session').addEventListener('click', () => {
  if (state.current) return;
  state.session = null;
  $('transcript').replaceChildren();
  renderSessions();
  $('message').focus();
});

// --- The conversation.
const STATUS_TEXT = { thinking: 'Thinking…', tool_use: 'Using a tool…', done: 'Done', sending: 'Sending…' };

function renderTurn(record) {
  const v = {};
  v.body = el('div', { className: 'body' });
  v.tools = el('div', { className: 'tools' });
  v.thinking = el('details', { className: 'thinking', hidden: true }, el('summary', {}, 'Thinking'), el('pre', {}));
  v.degraded = el('p', { className: 'degraded', hidden: true }, 'Streaming degraded: some deltas did not arrive; the final answer is complete.');
  v.statusText = el('span', { className: 'status-text' });
  v.progress = el('progress', { max: 1, 'aria-label': 'Progress' });
  v.status = el('div', { className: 'run-status' }, v.statusText, v.progress);
  v.error = el('div', { className: 'error-box', role: 'alert', hidden: true });
  v.agent = el('div', { className: 'msg agent' }, el('span', { className: 'who' }, 'Agent'), v.tools, v.thinking, v.body, v.degraded, v.status, v.error);
  v.li = el('li', { className: 'turn' }, el('div', { className: 'msg user' }, el('span', { className: 'who' }, 'You'), record.message), v.agent);
  $('transcript').append(v.li);
  return v;
}

function toolCard(call) {
  const card = el('article', { className: 'tool-card', dataset: { tool: call.name ?? '', success: String(call.success ?? '') } });
  const rows = [el('dt', {}, 'Arguments'), el('dd', {}, el('pre', {}, pretty(call.arguments)))];
  if (call.phase === 'result' || call.output !== undefined) rows.push(el('dt', {}, 'Result'), el('dd', {}, el('pre', {}, pretty(call.output))));
  else rows.push(el('dt', {}, 'Result'), el('dd', {}, 'running…'));
  if (call.duration_ms !== undefined) rows.push(el('dt', {}, 'Duration'), el('dd', {}, `${call.duration_ms} ms`));
  if (call.text) rows.push(el('dt', {}, 'Note'), el('dd', {}, call.text));
  card.append(el('h3', {}, `Tool: ${call.name ?? 'unnamed'}${call.success === false ? ' (failed)' : ''}`), el('dl', {}, ...rows));
  return card;
}

/** Draws a record into its view (cheap enough to redo on every update). */
function paint(v, r) {
  const list = $('transcript');
  const follow = list.scrollHeight - list.scrollTop - list.clientHeight < 40; // the reader is at the end
  v.body.replaceChildren(renderMarkdown(r.text));
  v.tools.replaceChildren(...r.toolCalls.map(toolCard));
  v.degraded.hidden = !r.degraded;
  v.thinking.hidden = !r.thinking;
  v.thinking.querySelector('pre').textContent = r.thinking ?? '';
  const stateName = r.status === 'running' ? r.phase ?? 'sending' : r.status;
  v.status.dataset.state = stateName;
  v.statusText.textContent =
    r.status === 'done' ? `Done${r.usage ? ` · ${r.usage.output_tokens} tokens` : ''}`
      : r.status === 'cancelled' ? 'Cancelled'
        : r.status === 'error' ? 'Failed'
          : r.status === 'interrupted' ? 'Interrupted (the page was closed while it ran)'
            : `${STATUS_TEXT[r.phase ?? 'sending'] ?? r.phase}${r.statusInfo ? ` ${r.statusInfo}` : ''}`;
  if (typeof r.progress === 'number') v.progress.value = r.progress;
  else v.progress.removeAttribute('value');
  v.agent.setAttribute('aria-busy', String(r.status === 'running'));
  if (r.error) {
    v.error.hidden = false;
    if (!v.error.dataset.filled) {
      v.error.dataset.filled = '1';
      v.error.replaceChildren(el('code', { className: 'code' }, r.error.code), ' ', el('span', { className: 'message' }, r.error.message ?? ''));
      if (r.error.retryAfter && r.status === 'error') startCountdown(v, r);
    }
  } else v.error.hidden = true;
  if (follow) list.scrollTop = list.scrollHeight;
}

function startCountdown(v, r) {
  let left = Math.ceil(r.error.retryAfter);
  const counter = el('span', { className: 'countdown', role: 'timer' });
  const retry = el('button', { type: 'button', disabled: true }, 'Retry');
  retry.addEventListener('click', () => {
    retry.disabled = true;
    send(r.message);
  });
  v.error.append(' ', counter, ' ', retry);
  const tick = () => {
    counter.textContent = left > 0 ? `Retry in ${left} s` : 'You can retry now.';
    retry.disabled = left > 0 || state.current !== null;
    if (left-- <= 0) clearInterval(timer);
  };
  const timer = setInterval(tick, 1000);
  tick();
}

let paintQueued = null;
function schedulePaint(v, r) {
  if (paintQueued) return;
  paintQueued = requestAnimationFrame(() => {
    paintQueued = null;
    paint(v, r);
  });
}

async function send(message) {
  if (!state.agent || !state.identity || !state.pool || state.current) return;
  state.session ??= newSessionId();
  const thinking = $('thinking').value || undefined;
  const model = $('model').value || undefined;
  const record = {
    id: null,
    session: state.session,
    agent: state.agent.pubkey,
    message,
    model,
    thinking,
    createdAt: Date.now(),
    status: 'running',
    phase: 'sending',
    text: '',
    degraded: false,
    toolCalls: [],
  };
  const view = renderTurn(record);
  paint(view, record);
  $('transcript').scrollTop = $('transcript').scrollHeight;
  let run;
  try {
    run = prompt({
      pool: state.pool,
      signer: state.identity.signer,
      agent: state.agent.pubkey,
      message,
      model,
      thinking,
      session: state.session,
      cancelTimeout: 5000,
      ...promptPrivacyOptions($('privacy').checked),
    });
  } catch (err) {
    record.status = 'error';
    record.error = { code: err.code ?? 'INTERNAL', message: err.message };
    record.id = `local-${newSessionId()}`;
    paint(view, record);
    await state.store.put(record);
    await renderSessions();
    return;
  }
  state.current = { run, record, view };
  // Runs have no deadline of their own: say so when the agent stays silent (Cancel still works).
  const silence = setTimeout(() => {
    if (record.status === 'running' && record.phase === 'sending') {
      record.statusInfo = '(no answer yet: the agent may be offline; you can cancel)';
      schedulePaint(view, record);
    }
  }, 15_000);
  $('cancel').disabled = false;
  setReady();
  $('run-status').textContent = 'The agent is answering.';
  run.sent.then(async (ok) => {
    if (!ok || record.status !== 'running') return;
    record.id = run.id;
    await state.store.put(record);
    await renderSessions();
  });
  for await (const u of run) {
    if (u.type === 'status') {
      record.phase = u.state;
      record.statusInfo = u.info;
      if (u.progress !== undefined) record.progress = u.progress;
    } else if (u.type === 'delta') {
      record.text = u.text;
      record.degraded = record.degraded || u.degraded;
      if (u.thinking) record.thinking = (record.thinking ?? '') + u.thinking;
    } else if (u.type === 'tool_call') {
      const { type, ...call } = u;
      const open = call.phase === 'result' ? [...record.toolCalls].reverse().find((c) => c.name === call.name && c.phase === 'start') : null;
      if (open) Object.assign(open, call, { arguments: open.arguments ?? call.arguments });
      else record.toolCalls.push(call);
    } else if (u.type === 'terminal') {
      if (u.ok) {
        record.status = 'done';
        record.text = u.text;
        if (u.usage) record.usage = u.usage;
        record.progress = 1;
      } else if (u.error.code === 'CANCELLED') {
        record.status = 'cancelled';
      } else {
        record.status = 'error';
        record.error = { code: u.error.code, message: u.error.message.replace(/^[A-Z_]+: /, ''), ...(u.error.retryAfter && { retryAfter: u.error.retryAfter }) };
      }
    }
    schedulePaint(view, record);
  }
  clearTimeout(silence);
  if (paintQueued) cancelAnimationFrame(paintQueued);
  paintQueued = null;
  paint(view, record);
  delete record.phase;
  record.id ??= run.id ?? `local-${newSessionId()}`;
  await state.store.put(record);
  state.current = null;
  $('cancel').disabled = true;
  $('run-status').textContent = record.status === 'done' ? 'The answer is complete.' : `The run ended: ${record.status}.`;
  setReady();
  await renderSessions();
}

$('composer').addEventListener('submit', (ev) => {
  ev.preventDefault();
  const message = $('message').value.trim();
  if (!message || $('send').disabled) return;
  $('message').value = '';
  send(message);
});
$('message').addEventListener('keydown', (ev) => {
  if (ev.key === 'Enter' && !ev.shiftKey && !ev.isComposing) {
    ev.preventDefault();
    $('composer').requestSubmit();
  }
});
$('cancel').addEventListener('click', async () => {
  const cur = state.current;
  if (!cur) return;
  $('cancel').disabled = true;
  cur.record.statusInfo = '(cancelling)';
  await cur.run.cancel('user_cancel');
});

// --- AGX: Agent Cards and tasks.
function taskLog(kind, ...text) {
  $('task-log').append(el('li', { dataset: { kind } }, ...text));
}

function peerHex(text) {
  const t = text.trim();
  if (/^[0-9a-f]{64}$/.test(t)) return t;
  const d = nip19.decode(t);
  if (d.type !== 'npub') throw Object.assign(new Error('not an npub'), { code: 'INVALID_ARGUMENT' });
  return d.data;
}

$('card-form').addEventListener('submit', async (ev) => {
  ev.preventDefault();
  const view = $('card-view');
  let hex;
  try {
    hex = peerHex($('card-npub').value);
  } catch (err) {
    view.replaceChildren(el('p', { className: 'error-text' }, `Not an npub (${err.code ?? 'INVALID_ARGUMENT'}).`));
    return;
  }
  if (!state.pool) return;
  view.replaceChildren(el('p', {}, 'Looking up the card…'));
  const events = await state.pool.query([{ kinds: [CARD_KIND], authors: [hex] }], { maxWait: 4000 }).catch(() => []);
  const card = events
    .filter((e) => e.pubkey === hex)
    .sort((a, b) => b.created_at - a.created_at)
    .map((e) => parseCard(e, nip19.npubEncode))
    .find(Boolean);
  if (!card) {
    view.replaceChildren(el('p', {}, 'No valid Agent Card found for this key.'));
    return;
  }
  view.replaceChildren(
    el(
      'dl',
      {},
      el('dt', {}, 'Name'), el('dd', {}, card.displayName ?? 'unnamed'),
      el('dt', {}, 'Capabilities'), el('dd', {}, card.capabilities.join(', ') || 'none'),
      el('dt', {}, 'Relays'), el('dd', {}, card.relays.join(', ') || 'none'),
      el('dt', {}, 'Published'), el('dd', {}, new Date(card.created_at * 1000).toLocaleString()),
    ),
  );
  $('task-capabilities').replaceChildren(...card.capabilities.map((c) => el('option', { value: c })));
  if (card.capabilities.length && !card.capabilities.includes($('task-capability').value)) $('task-capability').value = card.capabilities[0];
});

async function agxAgent() {
  if (state.agx) return state.agx;
  // createAgxAgent needs a LocalSigner: with an extension, tasks go out from a one-time key.
  const ephemeral = state.identity.mode !== 'local';
  const signer = ephemeral ? LocalSigner.generate() : state.identity.signer;
  const agent = agx.createAgxAgent({
    signer,
    pool: state.pool,
    onReceipt: (r) => taskLog('receipt', `Receipt from ${shortKey(nip19.npubEncode(r.from))}: ${r.status}.`),
    onWarning: () => {}, // we send tasks only; we serve none, so "default-deny" is what we want
  });
  await agent.serve();
  state.agx = { agent, signer, ephemeral };
  if (ephemeral) taskLog('note', 'Tasks are sent from a one-time key (AGX needs a local key; the extension cannot make its gift wraps yet).');
  return state.agx;
}

async function closeAgx() {
  const a = state.agx;
  state.agx = null;
  if (!a) return;
  await a.agent.close().catch(() => {});
  if (a.ephemeral) a.signer.dispose();
}

$('task-form').addEventListener('submit', async (ev) => {
  ev.preventDefault();
  $('task-error').textContent = '';
  let peer;
  let payload;
  try {
    peer = peerHex($('card-npub').value);
  } catch {
    $('task-error').textContent = 'Give the agent npub first.';
    return;
  }
  try {
    payload = JSON.parse($('task-payload').value || 'null');
  } catch {
    $('task-error').textContent = 'The payload is not valid JSON.';
    return;
  }
  const capability = $('task-capability').value.trim();
  if (!capability) {
    $('task-error').textContent = 'Give a capability.';
    return;
  }
  if (!state.pool || !state.identity) return;
  $('task-send').disabled = true;
  try {
    const { agent } = await agxAgent();
    taskLog('sent', `Sending ${capability} (sealed, gift-wrapped, proof of work)…`);
    const output = await agent.request(peer, capability, payload, { timeout: 60_000 });
    taskLog('result', 'Result: ', el('pre', {}, pretty(output)));
  } catch (err) {
    taskLog('error', `${err.code ?? 'ERROR'}: ${err.message}`);
  } finally {
    $('task-send').disabled = false;
  }
});

// --- Start.
async function start() {
  try {
    await init();
  } catch (err) {
    $('ready-line').textContent = `The WebAssembly core did not load (${err.code ?? 'INIT_FAILED'}).`;
    return;
  }
  const params = new URLSearchParams(location.search);
  const fromUrl = params.getAll('relay').filter((r) => /^wss?:\/\//.test(r));
  let saved = [];
  try {
    saved = JSON.parse(localStorage.getItem(RELAYS_KEY) ?? '[]').filter((r) => typeof r === 'string');
  } catch {
    // ignore a corrupt list
  }
  state.relays = fromUrl.length ? fromUrl : saved;
  if (fromUrl.length) localStorage.setItem(RELAYS_KEY, JSON.stringify(fromUrl));
  const wanted = params.get('agent');
  if (wanted) {
    try {
      state.wantedAgent = peerHex(wanted);
      $('card-npub').value = nip19.npubEncode(state.wantedAgent);
    } catch {
      // an unusable ?agent= is ignored
    }
  }
  const mode = savedMode();
  let identity = null;
  if (hasExtension() && mode !== 'local') {
    if (mode === 'nip07') identity = await useExtension().catch(() => null);
  } else identity = useLocalKey();
  state.identity = identity;
  showIdentity();
  openPool();
  await renderSessions();
  const sessions = await listSessions(state.store);
  if (sessions[0]) await openSession(sessions[0].session);
}

start();
