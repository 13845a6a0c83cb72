// The options page: the key's npub, the confirmation mode, importing a key.
const $ = (x) => document.getElementById(x);

async function show() {
  const o = await chrome.runtime.sendMessage({ type: 'options-get' });
  if (o?.error) {
    $('npub').textContent = `unavailable (${o.error})`;
    document.body.dataset.error = o.error;
    document.body.dataset.ready = 'true';
    return;
  }
  delete document.body.dataset.error;
  $('npub').textContent = o.npub;
  $('npub').dataset.pubkey = o.pubkey;
  $('approval').value = o.approval;
  document.body.dataset.ready = 'true';
}

$('approval').addEventListener('change', async () => {
  document.body.dataset.ready = 'false';
  await chrome.runtime.sendMessage({ type: 'options-set', approval: $('approval').value });
  await show();
});

$('key-form').addEventListener('submit', async (ev) => {
  ev.preventDefault();
  document.body.dataset.ready = 'false';
  const r = await chrome.runtime.sendMessage({ type: 'options-set', secretKey: $('key').value });
  $('key').value = '';
  $('key-error').textContent = r?.error ?? '';
  await show();
});

await show();
