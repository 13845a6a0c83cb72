// Shared by the AGX tests over a real relay: the dev relay with the AGX write policy for a
// describe block, the AgxClients its tests make (stopped after them), and a patient `until`.
import { before, after } from 'node:test';
import { nostr } from './helpers.js';
import { startDevRelay } from '../support/relays.js';
import { sleep, until as waitUntil } from './pool-helpers.js';

const { agx, LocalSigner } = nostr;

export { nostr, sleep };

/**
 * pool-helpers' until with 20 s to wait: every AGX wrap costs 12-bit PoW and the machine may be
 * shared, so a wait that normally takes well under a second gets room before it fails.
 */
export const until = (pred, what = 'condition', ms = 20_000) => waitUntil(pred, what, ms);

/**
 * Call inside a describe: starts a dev relay (memory, AGX write policy, plus `relayOptions`)
 * before its tests; after them runs `stops` last-first (each client's stop, and whatever a test
 * pushed) and closes the relay. Returns { relay (set once started), stops, client(opts) }:
 * client() is an AgxClient on that relay, polling off, warnings ignored, a fresh LocalSigner
 * unless opts.signer; opts override all of these.
 */
export function useAgxRelay(relayOptions = {}) {
  const env = {
    relay: null,
    stops: [],
    client(opts = {}) {
      const c = new agx.AgxClient({
        relays: [env.relay.url],
        pollInterval: 0,
        onWarning: () => {},
        ...opts,
        signer: opts.signer ?? LocalSigner.generate(),
      });
      env.stops.push(() => c.stop());
      return c;
    },
  };
  before(async () => {
    env.relay = await startDevRelay({ memory: true, agxPolicy: true, ...relayOptions });
  });
  after(async () => {
    for (const f of env.stops.reverse()) await f();
    await env.relay.close();
  });
  return env;
}
