// The service worker: holds the key and answers window.nostr calls, after a confirmation step.
// Every key operation runs on the nostr-agents package (vendor/dist/: its lite browser build, copied in
// when the extension is assembled), which compiles its WASM core here: hence 'wasm-unsafe-eval'
// in the manifest's extension_pages CSP.
//
// chrome.storage.local holds `secretKey` (hex; made on first use) and `approval`:
//   'ask'  (the default) opens prompt.html for each request and waits for Approve or Deny;
//   'auto' approves everything (tests);  'deny' refuses everything (tests).
import { init, LocalSigner, generateSecretKey, bytesToHex, hexToBytes, nip19 } from './vendor/dist/lite.browser.js';

const APPROVALS = new Set(['ask', 'auto', 'deny']);
const METHODS = new Set(['getPublicKey', 'signEvent', 'nip44.encrypt', 'nip44.decrypt']);
const EXTENSION_ORIGIN = new URL(chrome.runtime.getURL('')).origin;

// What happened, for the tests: requests per method and outcome, kept in chrome.storage.session
// so a worker that Chromium stops when idle and starts again keeps counting.
let stats = { requests: {}, approved: 0, refused: 0, failed: 0, prompts: 0 };
const statsLoaded = chrome.storage.session.get('stats').then(
  (r) => {
    if (r.stats) stats = r.stats;
  },
  () => {},
);
const saveStats = () => chrome.storage.session.set({ stats }).catch(() => {});

let signer = null; // a LocalSigner, made from storage on first use
let signerLoading = null;

async function getSigner() {
  if (signer) return signer;
  signerLoading ??= (async () => {
    await init();
    let { secretKey } = await chrome.storage.local.get('secretKey');
    let sk;
    if (typeof secretKey === 'string' && /^[0-9a-f]{64}$/.test(secretKey)) sk = hexToBytes(secretKey);
    else {
      sk = generateSecretKey();
      await chrome.storage.local.set({ secretKey: bytesToHex(sk) });
    }
    secretKey = null;
    try {
      signer = new LocalSigner(sk);
    } finally {
      sk.fill(0);
    }
    return signer;
  })().finally(() => {
    signerLoading = null;
  });
  return signerLoading;
}

function forgetSigner() {
  signer?.dispose();
  signer = null;
}

// --- The confirmation step.
const prompts = new Map(); // id -> { request, resolve, windowId }
let nextPrompt = 0;

async function approval() {
  const { approval: a } = await chrome.storage.local.get('approval');
  return APPROVALS.has(a) ? a : 'ask';
}

function summary(method, params, origin) {
  const s = { method, origin };
  if (method === 'signEvent') {
    const t = params[0] ?? {};
    s.kind = t.kind;
    s.content = typeof t.content === 'string' ? t.content.slice(0, 200) : '';
  } else if (method.startsWith('nip44.')) s.peer = String(params[0]).slice(0, 64);
  return s;
}

async function confirm(method, params, origin) {
  const mode = await approval();
  if (mode === 'auto') return true;
  if (mode === 'deny') return false;
  const id = String(++nextPrompt);
  stats.prompts++;
  await saveStats();
  const decided = new Promise((resolve) => prompts.set(id, { request: summary(method, params, origin), resolve, windowId: null }));
  const win = await chrome.windows.create({ url: chrome.runtime.getURL(`prompt.html?id=${id}`), type: 'popup', width: 460, height: 360 });
  const p = prompts.get(id);
  if (p) p.windowId = win.id;
  return decided;
}

function decide(id, approve) {
  const p = prompts.get(id);
  if (!p) return false;
  prompts.delete(id);
  p.resolve(approve === true);
  if (p.windowId !== null) chrome.windows.remove(p.windowId).catch(() => {});
  return true;
}

// Closing the prompt window is a refusal.
chrome.windows.onRemoved.addListener((windowId) => {
  for (const [id, p] of prompts) if (p.windowId === windowId) decide(id, false);
});

// --- The NIP-07 methods.
async function run(method, params) {
  const s = await getSigner();
  switch (method) {
    case 'getPublicKey':
      return s.getPublicKey();
    case 'signEvent': {
      const t = params[0];
      if (t === null || typeof t !== 'object') throw new Error('INVALID_EVENT: the event must be an object');
      // Only the template's fields: the page does not choose the pubkey, id or sig.
      return s.signEvent({ kind: t.kind, created_at: t.created_at, tags: t.tags, content: t.content });
    }
    case 'nip44.encrypt':
      return s.nip44Encrypt(params[0], params[1]);
    case 'nip44.decrypt':
      return s.nip44Decrypt(params[0], params[1]);
  }
  throw new Error(`unknown method ${method}`);
}

async function handleNip07(msg, sender) {
  const { method } = msg;
  const params = Array.isArray(msg.params) ? msg.params : [];
  if (!METHODS.has(method)) return { error: `not a NIP-07 method this signer offers: ${String(method).slice(0, 40)}` };
  await statsLoaded;
  const origin = sender.origin ?? (sender.url ? new URL(sender.url).origin : 'unknown');
  const approved = await confirm(method, params, origin);
  const count = (stats.requests[method] ??= { approved: 0, refused: 0 });
  let reply;
  if (!approved) {
    count.refused++;
    stats.refused++;
    reply = { error: `the user refused ${method}` };
  } else {
    count.approved++;
    stats.approved++;
    try {
      reply = { result: await run(method, params) };
    } catch (err) {
      stats.failed++;
      // NostrError messages carry the code and never the key.
      reply = { error: err?.message ?? String(err) };
    }
  }
  await saveStats(); // before the answer, so whoever reads the counts after it sees this request
  return reply;
}

// --- Messages from this extension's own pages (prompt, options).
async function handleOwn(msg) {
  switch (msg.type) {
    case 'prompt-details': {
      const p = prompts.get(String(msg.id));
      return p ? { request: p.request } : { error: 'this request is no longer pending' };
    }
    case 'decision':
      return { ok: decide(String(msg.id), msg.approve === true) };
    case 'options-get': {
      const s = await getSigner();
      return { pubkey: s.publicKey, npub: nip19.npubEncode(s.publicKey), approval: await approval() };
    }
    case 'options-set': {
      if (msg.approval !== undefined) {
        if (!APPROVALS.has(msg.approval)) return { error: 'approval is ask, auto or deny' };
        await chrome.storage.local.set({ approval: msg.approval });
      }
      if (msg.secretKey !== undefined) {
        await init();
        const text = String(msg.secretKey).trim();
        let sk;
        try {
          if (/^[0-9a-fA-F]{64}$/.test(text)) sk = hexToBytes(text.toLowerCase());
          else {
            const d = nip19.decode(text);
            if (d.type !== 'nsec') throw new Error('not an nsec');
            sk = d.data;
          }
          new LocalSigner(sk).dispose(); // throws INVALID_SECRET_KEY for a key out of range
        } catch {
          sk?.fill(0);
          return { error: 'not a valid secret key (nsec or 64 hex)' };
        }
        await chrome.storage.local.set({ secretKey: bytesToHex(sk) });
        sk.fill(0);
        forgetSigner();
      }
      return { ok: true };
    }
  }
  return { error: 'unknown message' };
}

chrome.runtime.onMessage.addListener((msg, sender, sendResponse) => {
  if (sender.id !== chrome.runtime.id || msg === null || typeof msg !== 'object') return false;
  let work;
  const own = sender.url?.startsWith(`${EXTENSION_ORIGIN}/`) === true;
  if (msg.type === 'nip07' && !own && sender.tab) work = handleNip07(msg, sender); // a content script
  else if (own && msg.type !== 'nip07') work = handleOwn(msg); // prompt.html, options.html
  else return false;
  work.then(sendResponse, (err) => sendResponse({ error: err?.message ?? String(err) }));
  return true; // answered asynchronously
});
