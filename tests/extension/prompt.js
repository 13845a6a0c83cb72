// The confirmation window: shows what a page asks for and sends the answer back to the worker.
const id = new URLSearchParams(location.search).get('id');
const $ = (x) => document.getElementById(x);

const NAMES = {
  getPublicKey: 'read your public key',
  signEvent: 'sign an event',
  'nip44.encrypt': 'encrypt a message (NIP-44)',
  'nip44.decrypt': 'decrypt a message (NIP-44)',
};

async function answer(approve) {
  $('approve').disabled = $('deny').disabled = true;
  await chrome.runtime.sendMessage({ type: 'decision', id, approve });
  window.close();
}

const details = await chrome.runtime.sendMessage({ type: 'prompt-details', id });
if (details?.request) {
  const r = details.request;
  $('what').textContent = `${r.origin} asks to ${NAMES[r.method] ?? r.method}.`;
  document.body.dataset.method = r.method;
  const lines = [];
  if (r.kind !== undefined) lines.push(`kind: ${r.kind}`, `content: ${r.content}`);
  if (r.peer !== undefined) lines.push(`with: ${r.peer}`);
  $('detail').textContent = lines.join('\n');
  $('approve').disabled = $('deny').disabled = false;
  $('approve').addEventListener('click', () => answer(true));
  $('deny').addEventListener('click', () => answer(false));
} else $('what').textContent = details?.error ?? 'This request is gone.';
