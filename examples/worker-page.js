// The page of worker.html: starts the module worker, waits for its { type: 'ready' } (the
// handshake), then asks it to sign. A message posted right away, before `ready`, is answered too,
// because the worker listens before it awaits init().
const worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
const pending = new Map();
let nextId = 0;
const ready = new Promise((resolve, reject) => {
  worker.addEventListener('error', (e) => reject(new Error(e.message || 'the worker failed to start')));
  worker.addEventListener('message', ({ data }) => {
    if (data.type === 'ready') return resolve();
    const settle = pending.get(data.id);
    pending.delete(data.id);
    if (data.type === 'signed') settle?.resolve(data);
    else settle?.reject(Object.assign(new Error(data.message), { code: data.code }));
  });
});

function sign(text) {
  const id = nextId++;
  worker.postMessage({ id, text });
  return new Promise((resolve, reject) => pending.set(id, { resolve, reject }));
}

const early = sign('posted before ready'); // answered once the worker is ready
await ready;
const results = await Promise.all([early, sign('posted after ready')]);
const log = document.querySelector('#log');
for (const r of results) log.appendChild(document.createElement('p')).textContent = `${r.verified ? 'verified' : 'NOT verified'}: ${r.event.content}`;
document.body.dataset.ready = 'true';
window.__result = results;
