// The demo page: identity, relays, agent picker, the conversation, sessions and the AGX panel.
// Plain DOM; agent text reaches the page only through renderMarkdown (text nodes) or textContent.
// Runs are kept by the package's IndexedDbRunStore and restored with resumeRun; private chats are
// prompt({ privacy: 'nip59' }); Agent Cards come from agx.fetchAgentCard, loaded with the rest of
// the AGX panel's package code when the panel is first used (./agx-lazy.js).
import { init, RelayPool, IndexedDbRunStore, prompt, resumeRun, listRuns, listSessions, nip19, nipxx } from '../dist/index.browser.js';
import { renderMarkdown } from './markdown.js';
import {
  exportTabKey,
  forgetRememberedKey,
  hasExtension,
  hasRememberedKey,
  importTabKey,
  rememberTabKey,
  savedMode,
  tabKeyRemembered,
  takeLegacyKey,
  unlockRememberedKey,
  useExtension,
  useTabKey,
} from './identity.js';

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
const ENDS_KEY = 'nostr-agents-demo:local-ends'; // runs that ended on the page only (see noteLocalEnd)
// Offered when neither ?relay= nor a saved list says where to go (a hosted page's first visit).
const DEFAULT_RELAYS = ['wss://relay.damus.io', 'wss://nos.lol', 'wss://relay.primal.net'];
const RELAY_URL = /^wss?:\/\/[^\s]+$/;
const RESUME_IDLE_MS = 10_000; // a reloaded run still open: how long to wait for its agent

/** A new session id (the prompt's `s` tag). */
function newSessionId() {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return `demo-${[...bytes].map((b) => b.toString(16).padStart(2, '0')).join('')}`;
}

const MIN_PASSPHRASE = 8;

const state = {
  identity: null, // { mode, signer, pubkey }
  proposed: [], // relays a ?relay= link proposed that the saved list does not have
  pool: null,
  relays: [],
  agents: new Map(), // pubkey -> { pubkey, npub, info, event }
  agentSub: null,
  agent: null, // the selected agent
  wantedAgent: null, // hex: from ?agent=, then the user's pick
  session: null, // the `s` tag of the open session
  current: null, // { run, record, view } while a run is in flight
  store: null, // IndexedDbRunStore (null where IndexedDB is unavailable: runs are then not kept)
  agx: null, // the AgxRequester of the panel, on the page's signer
};

// --- Ready line and the "ready to chat" flag (tests and people wait for it).
function setReady() {
  const ready = Boolean(state.identity && state.pool && state.agent);
  document.body.dataset.ready = String(ready);
  if (ready && performance.getEntriesByName('demo-ready').length === 0) performance.mark('demo-ready'); // for bench.mjs
  $('send').disabled = !ready || state.current !== null;
  if (!state.identity) $('ready-line').textContent = 'Choose how to sign in (Identity).';
  else if (state.relays.length === 0) $('ready-line').textContent = 'Choose the relays to connect to (Relays).';
  else if (!state.agent) $('ready-line').textContent = 'Looking for agents on the relays…';
  else $('ready-line').textContent = `Ready to chat with ${state.agent.info.name ?? shortKey(state.agent.npub)}.`;
}

// --- Identity.
function showIdentity() {
  const id = state.identity;
  const ext = hasExtension();
  const tabRemembered = id?.mode === 'local' ? tabKeyRemembered() : null;
  const remembered = hasRememberedKey();
  $('login-ext').hidden = !ext || id?.mode === 'nip07';
  $('use-local').hidden = id?.mode === 'local';
  $('export-key').hidden = id?.mode !== 'local';
  $('import-form').hidden = id?.mode !== 'local' && id !== null;
  // One passphrase form: unlock the remembered key, or remember the tab's (typed twice).
  const unlocking = id === null && remembered;
  $('pass-form').hidden = !unlocking && tabRemembered !== false;
  $('pass-form').dataset.mode = unlocking ? 'unlock' : 'remember';
  $('pass-label').textContent = unlocking ? 'Passphrase of the remembered key' : 'Passphrase to remember this key with (NIP-49)';
  $('pass-submit').textContent = unlocking ? 'Unlock' : 'Remember this key';
  for (const e of document.querySelectorAll('.again')) e.hidden = unlocking;
  $('forget-key').hidden = !remembered || id?.mode === 'nip07';
  $('export-box').hidden = true;
  $('export-field').value = '';
  if (!id) {
    $('identity-line').textContent = remembered
      ? 'A key is remembered here, encrypted: unlock it.'
      : ext
        ? 'Log in with your Nostr extension (your key stays there), or use a key for this tab.'
        : 'No identity yet.';
    return;
  }
  const npub = nip19.npubEncode(id.pubkey);
  const where =
    id.mode === 'nip07'
      ? ' through your NIP-07 extension (the page never sees your key).'
      : tabRemembered
        ? ', with a key remembered in this browser, encrypted (NIP-49).'
        : id.legacy
          ? ', with a key an older version of this page kept unencrypted, now out of storage: remember or export it.'
          : ', with a key for this tab only: a reload forgets it unless you remember it.';
  $('identity-line').replaceChildren(
    'You are ',
    el('code', { title: npub }, shortKey(npub)),
    where,
    ...(id.mode === 'nip07' && !id.nip44 ? [el('span', { className: 'error-text' }, ' This extension has no NIP-44: it cannot encrypt prompts.')] : []),
  );
}

async function setIdentity(identity) {
  if (state.identity?.mode === 'local' && state.identity.signer !== identity?.signer) state.identity.signer.dispose();
  state.identity = identity;
  await closeAgx();
  showIdentity();
  openPool();
  if (!state.current) await openLatestSession();
}

$('login-ext').addEventListener('click', async () => {
  try {
    await setIdentity(await useExtension());
  } catch (err) {
    $('identity-line').textContent = `The extension refused: ${err.code ?? ''} ${err.message}`;
  }
});
$('use-local').addEventListener('click', () => setIdentity(useTabKey()));
$('export-key').addEventListener('click', () => {
  const box = $('export-box');
  box.hidden = !box.hidden;
  $('export-field').value = box.hidden ? '' : (exportTabKey() ?? '');
  if (!box.hidden) $('export-field').select();
});
$('import-form').addEventListener('submit', (ev) => {
  ev.preventDefault();
  let identity;
  try {
    identity = importTabKey($('import-field').value);
  } catch (err) {
    $('import-error').textContent = `Not a valid key (${err.code ?? 'INVALID_ARGUMENT'}).`;
    return;
  }
  $('import-field').value = '';
  $('import-error').textContent = '';
  setIdentity(identity);
});
// The passphrase form: while scrypt works (a moment) its button is off and says so.
$('pass-form').addEventListener('submit', async (ev) => {
  ev.preventDefault();
  const form = $('pass-form');
  const pass = $('pass-field').value;
  const error = $('pass-error');
  const unlocking = form.dataset.mode === 'unlock';
  error.textContent = unlocking
    ? ''
    : pass.length < MIN_PASSPHRASE
      ? `Use ${MIN_PASSPHRASE} characters or more.`
      : pass !== $('pass-again').value
        ? 'The two passphrases differ.'
        : '';
  if (error.textContent) return;
  const button = $('pass-submit');
  const label = button.textContent;
  button.disabled = true;
  button.textContent = 'Working…';
  try {
    if (unlocking) await setIdentity(await unlockRememberedKey(pass));
    else {
      await rememberTabKey(pass);
      showIdentity();
    }
    form.reset();
  } catch (err) {
    error.textContent = err.code === 'NIP49_DECRYPT_FAILED' ? 'Wrong passphrase.' : `Failed (${err.code}).`;
  } finally {
    button.disabled = false;
    button.textContent = label;
  }
});
$('forget-key').addEventListener('click', () => {
  if (!confirm('Forget the remembered key for good?')) return;
  forgetRememberedKey();
  showIdentity();
  setReady();
});

// --- Relays and their status dots.
function renderRelays() {
  $('relay-list').replaceChildren(
    ...state.relays.map((url) => {
      const st = state.pool?.status(url)?.state ?? 'closed';
      const remove = el('button', { type: 'button', 'aria-label': `Remove ${url}` }, 'Remove');
      remove.addEventListener('click', () => {
        state.relays = state.relays.filter((r) => r !== url);
        saveRelays();
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

const saveRelays = () => localStorage.setItem(RELAYS_KEY, JSON.stringify(state.relays));

$('relay-form').addEventListener('submit', (ev) => {
  ev.preventDefault();
  const url = $('relay-field').value.trim();
  if (!RELAY_URL.test(url)) {
    $('relay-error').textContent = 'A relay URL starts with ws:// or wss://.';
    return;
  }
  $('relay-error').textContent = '';
  $('relay-field').value = '';
  if (!state.relays.includes(url)) state.relays.push(url);
  saveRelays();
  hideRelayChoice();
  openPool();
});

// The first-visit question: which relays (editable, one per line): the ones a link proposed,
// or the defaults. Nothing is contacted before the user connects.
function askForRelays(list, proposed) {
  $('relay-choice').hidden = false;
  if (proposed) $('relay-choice-label').textContent = 'Relays to connect to, one per line: the link proposes these, check them';
  $('relay-choice-field').value = list.join('\n');
}

// A link's relays the saved list does not have: proposed, never added without the user.
function showProposal() {
  const box = $('relay-proposal');
  box.hidden = state.proposed.length === 0;
  $('relay-proposal-text').textContent = `The link proposes relays you do not use: ${state.proposed.join(', ')}.`;
}
$('relay-proposal-add').addEventListener('click', () => {
  for (const r of state.proposed) if (!state.relays.includes(r)) state.relays.push(r);
  state.proposed = [];
  saveRelays();
  showProposal();
  openPool();
});
$('relay-proposal-ignore').addEventListener('click', () => {
  state.proposed = [];
  showProposal();
});
function hideRelayChoice() {
  $('relay-choice').hidden = true;
}
$('relay-choice').addEventListener('submit', (ev) => {
  ev.preventDefault();
  const urls = [...new Set($('relay-choice-field').value.split(/[\s,]+/).filter(Boolean))];
  const bad = urls.filter((u) => !RELAY_URL.test(u));
  if (urls.length === 0 || bad.length) {
    $('relay-choice-error').textContent = urls.length === 0 ? 'Give at least one relay.' : `Not a relay URL (ws:// or wss://): ${bad[0]}`;
    return;
  }
  $('relay-choice-error').textContent = '';
  state.relays = urls;
  saveRelays();
  hideRelayChoice();
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
    if (state.relays.length === 0) $('agent-select').replaceChildren(el('option', { value: '' }, 'no relays to search yet'));
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
  $('agent-select').replaceChildren(el('option', { value: '' }, 'searching…'));
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
  // Privacy first (NIP-59): offered when the agent says it answers gift-wrapped prompts.
  $('privacy-box').hidden = info.supports_nip59 !== true;
  if (info.supports_nip59 !== true) $('privacy').checked = false;
  if (!$('card-npub').value) $('card-npub').value = agent.npub;
  setReady();
}

// --- Sessions sidebar: the package's run store (IndexedDB), this identity's sessions only.
const mySessions = async () => {
  if (!state.store || !state.identity) return [];
  const all = await listSessions(state.store).catch(() => []);
  return all.filter((s) => s.client === state.identity.pubkey);
};

async function renderSessions() {
  const sessions = await mySessions();
  $('session-list').replaceChildren(
    ...sessions.map((s) => {
      const label = `${s.runs} message${s.runs > 1 ? 's' : ''} · ${new Date(s.updatedAt * 1000).toLocaleString()}`;
      const b = el('button', { type: 'button', 'aria-current': String(s.id === state.session) }, s.title.slice(0, 60) || 'untitled', el('small', {}, label));
      b.addEventListener('click', () => openSession(s));
      return el('li', {}, b);
    }),
  );
}

// Runs that ended on this page without the agent's terminal (a cancel it never confirmed, a
// prompt no relay took): the store keeps them open, so a reload says how they ended.
function localEnds() {
  try {
    const v = JSON.parse(localStorage.getItem(ENDS_KEY) ?? '{}');
    return v && typeof v === 'object' && !Array.isArray(v) ? v : {};
  } catch {
    return {};
  }
}
function noteLocalEnd(id, record) {
  const ends = localEnds();
  ends[id] = { status: record.status, ...(record.error && { error: { code: record.error.code, message: record.error.message } }) };
  const ids = Object.keys(ends);
  for (const old of ids.slice(0, Math.max(0, ids.length - 200))) delete ends[old];
  try {
    localStorage.setItem(ENDS_KEY, JSON.stringify(ends));
  } catch {
    // storage full: the run shows as interrupted after a reload
  }
}

/** Shows a session's runs, replayed from the store by resumeRun (open ones continue live). */
async function openSession(s) {
  if (state.current) return;
  state.session = s.id;
  const runs = await listRuns(state.store, s).catch(() => []);
  $('transcript').replaceChildren();
  const ends = localEnds();
  const views = runs.map((stored) => {
    const record = newRecord({ message: stored.message, privacy: stored.privacy });
    const view = renderTurn(record);
    paint(view, record);
    return { stored, record, view };
  });
  // Ended runs replay from the store at once; open ones go on live in the background.
  const ended = views.map(({ stored, record, view }) => [stored.state, replay(stored, record, view, ends[stored.id])]).filter(([st]) => st === 'done');
  if (state.agents.has(s.agent) && state.agent?.pubkey !== s.agent) {
    state.wantedAgent = s.agent;
    $('agent-select').value = s.agent;
    selectAgent(state.agents.get(s.agent));
  }
  await renderSessions();
  await Promise.all(ended.map(([, p]) => p));
  document.body.dataset.restored = String(runs.length); // tests wait for it
}

async function replay(stored, record, view, localEnd) {
  let run = null;
  if (state.pool) {
    try {
      run = await resumeRun({ pool: state.pool, signer: state.identity.signer, store: state.store, id: stored.id, idleTimeout: RESUME_IDLE_MS });
    } catch {
      // the pool closed meanwhile: the record alone below
    }
  }
  if (run) {
    if (stored.state !== 'done') record.statusInfo = '(reloaded: waiting for the agent)';
    for await (const u of run) {
      applyUpdate(record, u);
      schedulePaint(view, record);
    }
    if (record.status === 'error' && LOCAL_ENDS.includes(record.error.code)) {
      if (localEnd) {
        record.status = localEnd.status;
        record.error = localEnd.error;
      } else record.status = 'interrupted';
    }
  } else if (stored.terminal?.ok) {
    Object.assign(record, { status: 'done', text: stored.terminal.text, usage: stored.terminal.usage });
  } else if (stored.terminal) {
    const { code, message } = stored.terminal;
    Object.assign(record, code === 'CANCELLED' ? { status: 'cancelled' } : { status: 'error', error: { code, message } });
  } else Object.assign(record, localEnd ?? { status: 'interrupted' });
  delete record.statusInfo;
  if (record.error && stored.state === 'done') delete record.error.retryAfter; // history: no countdown
  paintNow(view, record);
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
  v.agent = el('div', { className: 'msg agent' }, el('span', { className: 'who' }, record.privacy === 'nip59' ? 'Agent · private (NIP-59)' : 'Agent'), v.tools, v.thinking, v.body, v.degraded, v.status, v.error);
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
  if (r.storeError) v.statusText.textContent += ' (not saved in this browser)';
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

// At most one paint per frame and view (a live run and resumed ones can stream at once).
function schedulePaint(v, r) {
  if (v.queued) return;
  v.queued = requestAnimationFrame(() => {
    v.queued = null;
    paint(v, r);
  });
}

/** Paints now, dropping a paint still queued for the next frame. */
function paintNow(v, r) {
  if (v.queued) cancelAnimationFrame(v.queued);
  v.queued = null;
  paint(v, r);
}

/** The page's view of one run, made from the Run's updates (live or replayed). */
function newRecord({ message, privacy = 'default' }) {
  return { message, privacy, status: 'running', phase: 'sending', text: '', degraded: false, toolCalls: [] };
}

const LOCAL_ENDS = ['RUN_INCOMPLETE', 'POOL_CLOSED', 'RELAY_CLOSED'];

function applyUpdate(record, u) {
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
  } else if (u.type === 'store_error') {
    record.storeError = true;
  } else if (u.type === 'terminal') {
    delete record.phase;
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
}

async function send(message) {
  if (!state.agent || !state.identity || !state.pool || state.current) return;
  state.session ??= newSessionId();
  const thinking = $('thinking').value || undefined;
  const model = $('model').value || undefined;
  const privacy = $('privacy').checked ? 'nip59' : 'default';
  const record = newRecord({ message, privacy });
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
      privacy,
      ...(state.store && { store: state.store }),
    });
  } catch (err) {
    record.status = 'error';
    record.error = { code: err.code ?? 'INTERNAL', message: err.message };
    paint(view, record);
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
  run.sent.then((ok) => (ok ? renderSessions() : undefined));
  for await (const u of run) {
    applyUpdate(record, u);
    schedulePaint(view, record);
  }
  clearTimeout(silence);
  paintNow(view, record);
  // The store keeps the agent's terminal; an ending of our own is noted for the next reload.
  const fromAgent = await run.result.then(() => true, (err) => typeof err?.eventId === 'string');
  if (run.id && !fromAgent) noteLocalEnd(run.id, record);
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
  // The newest card that passes the reference's checks (a peer's card is untrusted input).
  let agx;
  try {
    ({ agx } = await loadAgx());
  } catch {
    view.replaceChildren(el('p', { className: 'error-text' }, 'The AGX part of the page did not load: try again.'));
    return;
  }
  const card = await agx.fetchAgentCard(state.pool, hex, { timeout: 4000 }).catch(() => null);
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
      el('dt', {}, 'Published'), el('dd', {}, new Date(card.createdAt * 1000).toLocaleString()),
    ),
  );
  $('task-capabilities').replaceChildren(...card.capabilities.map((c) => el('option', { value: c })));
  if (card.capabilities.length && !card.capabilities.includes($('task-capability').value)) $('task-capability').value = card.capabilities[0];
});

// The AGX panel's package code, fetched once, the first time the panel needs it.
let agxModule = null;
function loadAgx() {
  agxModule ??= import('./agx-lazy.js').then((m) => m.loadAgxPanel()).catch((err) => {
    agxModule = null; // a network failure: the next use tries again
    throw err;
  });
  return agxModule;
}

// The page's AGX client, on the page's own signer (a local key or the NIP-07 extension). The page
// sends tasks and serves none: an AgxRequester (AgxClient without the serving side).
async function agxClient() {
  if (state.agx) return state.agx;
  const { agx } = await loadAgx();
  if (state.agx) return state.agx; // made by another call meanwhile
  const client = new agx.AgxRequester({
    signer: state.identity.signer,
    pool: state.pool,
    onReceipt: (r) => taskLog('receipt', `Receipt from ${shortKey(nip19.npubEncode(r.from))}: ${r.status}.`),
  });
  state.agx = client;
  await client.start();
  return client;
}

async function closeAgx() {
  const client = state.agx;
  state.agx = null;
  await client?.stop().catch(() => {});
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
    const client = await agxClient();
    taskLog('sent', `Sending ${capability} (sealed, gift-wrapped, proof of work)…`);
    const output = await client.request(peer, capability, payload, { timeout: 60_000 });
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
  const fromUrl = [...new Set(params.getAll('relay').filter((r) => RELAY_URL.test(r)))];
  let saved = null; // null: never chosen in this browser
  try {
    const list = JSON.parse(localStorage.getItem(RELAYS_KEY));
    if (Array.isArray(list)) saved = list.filter((r) => typeof r === 'string' && RELAY_URL.test(r));
  } catch {
    // a corrupt list counts as none
  }
  // ?relay= proposes: a first visit asks (the link's relays filled in, else the defaults) before
  // connecting anywhere; a saved list stays as it is, and relays it lacks are offered beside it.
  state.relays = saved ?? [];
  if (saved === null) askForRelays(fromUrl.length ? fromUrl : DEFAULT_RELAYS, fromUrl.length > 0);
  else {
    state.proposed = fromUrl.filter((r) => !saved.includes(r));
    showProposal();
  }
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
  let identity = takeLegacyKey();
  if (!identity && hasExtension() && mode === 'nip07') identity = await useExtension().catch(() => null);
  // A remembered key waits for its passphrase; an extension not chosen yet waits for a choice.
  else if (!identity && !hasRememberedKey() && !(hasExtension() && mode !== 'local')) identity = useTabKey();
  localStorage.removeItem('nostr-agents-demo:runs'); // the page's own store before IndexedDbRunStore
  state.store = await openStore();
  state.identity = identity;
  showIdentity();
  openPool();
  await openLatestSession();
}

/** The run store, or null where IndexedDB does not work (private windows of some browsers). */
async function openStore() {
  try {
    const store = new IndexedDbRunStore('nostr-agents-demo');
    await store.listRuns();
    return store;
  } catch {
    return null;
  }
}

async function openLatestSession() {
  state.session = null;
  $('transcript').replaceChildren();
  // data-restored: how many runs of this identity's latest session are on screen. Without an
  // identity yet (a remembered key still locked) nothing is restored: say nothing, so that a
  // reader waiting for it waits for the unlock's restore, not for this empty pass.
  delete document.body.dataset.restored;
  const [latest] = await mySessions();
  if (latest) await openSession(latest);
  else {
    await renderSessions();
    if (state.identity) document.body.dataset.restored = '0';
  }
}

start();
