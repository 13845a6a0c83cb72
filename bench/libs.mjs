// Loads the four libraries once, in this process.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

export const LIBS = ['ours', 'nostr-tools', 'nostr-wasm', 'rust-nostr'];
export const PEERS = LIBS.slice(1);

const require = createRequire(import.meta.url);
function versionOf(pkg) {
  try {
    // package.json of a dependency, found through the resolver (exports may hide it).
    const main = require.resolve(pkg);
    let dir = main;
    for (let i = 0; i < 6; i++) {
      dir = dir.slice(0, dir.lastIndexOf('/'));
      try {
        const j = JSON.parse(readFileSync(`${dir}/package.json`, 'utf8'));
        if (j.name === pkg) return j.version;
      } catch {}
    }
  } catch {}
  return '?';
}

export async function loadLibraries(oursDir) {
  const ours = await import(pathToFileURL(`${oursDir}/js/index.node.js`).href);
  await ours.init();
  // The internal module that owns the instance (same module instance as the entry uses): gives
  // the raw-text verify path of the core, `verifyJson`, which the public API does not expose yet.
  const oursCore = await import(pathToFileURL(`${oursDir}/js/core.js`).href);

  const nt = await import('nostr-tools');

  const nwMod = await import('nostr-wasm');
  const nw = await nwMod.initNostrWasm();

  const rust = (await import('@rust-nostr/nostr-sdk')).default;
  await rust.loadWasmAsync();

  return {
    ours,
    oursCore: oursCore.core(),
    nt,
    nw,
    rust,
    versions: {
      'nostr-tools': versionOf('nostr-tools'),
      'nostr-wasm': versionOf('nostr-wasm'),
      '@rust-nostr/nostr-sdk': versionOf('@rust-nostr/nostr-sdk'),
    },
  };
}
