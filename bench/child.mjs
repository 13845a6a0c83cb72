// What the process-based benches (agents.mjs, load.mjs) share: the package loaded from js/, and
// a bench script forked as a child process that answers over IPC.
import { fork } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));

export async function loadPackage() {
  const nostr = await import(pathToFileURL(`${ROOT}js/index.node.js`).href);
  await nostr.init();
  return nostr;
}

// Forks `script` with `args`; resolves with its first message plus ask(msg) (the next reply) and
// stop() (SIGTERM, resolved on exit).
export function forkChild(script, args) {
  return new Promise((resolve, reject) => {
    const proc = fork(script, args, { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    proc.once('error', reject);
    proc.once('exit', (code) => reject(new Error(`${args[0]} process exited (${code})`)));
    proc.once('message', (m) => {
      proc.removeAllListeners('exit');
      const pending = [];
      proc.on('message', (msg) => pending.shift()?.(msg));
      resolve({
        ...m,
        ask: (msg) => new Promise((r) => (pending.push(r), proc.send(msg))),
        stop: () =>
          new Promise((r) => {
            proc.once('exit', () => r());
            proc.kill('SIGTERM');
          }),
      });
    });
  });
}
