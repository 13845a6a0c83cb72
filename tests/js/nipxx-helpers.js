// Shared by the NIP-XX tests over a real relay (agents*, faults-nipxx): test-sized pool timings
// and the dev relay of a describe block with the pools its tests open.
import { before, after } from 'node:test';
import { nostr } from './helpers.js';
import { startDevRelay } from '../support/relays.js';

/** RelayPool options with test-sized timings. */
export const FAST = Object.freeze({ reconnect: { initialDelay: 40, maxDelay: 250 }, connectTimeout: 2000, publishTimeout: 3000, infoTimeout: 500 });

/**
 * Call inside a describe: starts a dev relay (startDevRelay(relayOptions)) before its tests; after
 * them closes every pool newPool() opened, then the relay. Returns { relay (set once started),
 * newPool(extra) }: a RelayPool on that relay with FAST timings, poolOptions, then `extra`.
 */
export function useNipxxRelay({ relayOptions = {}, poolOptions = {} } = {}) {
  const pools = [];
  const env = {
    relay: null,
    newPool(extra = {}) {
      const p = new nostr.RelayPool({ ...FAST, relays: [env.relay.url], ...poolOptions, ...extra });
      pools.push(p);
      return p;
    },
  };
  before(async () => {
    env.relay = await startDevRelay(relayOptions);
  });
  after(async () => {
    await Promise.all(pools.map((p) => p.close()));
    await env.relay.close();
  });
  return env;
}
