// Where an AGX endpoint's wraps go and where its polls read, over a RelayPool: the core's relay
// routes (src/protocols/agx/relay_routes: which of a peer's NIP-65 relays count, how many, how long
// a list is cached, the relay list we advertise) executed here. A peer's list is looked up on our
// relays and the discovery relays once at a time per peer; in Node each relay host it names must
// also resolve to public addresses only (the NIP-05 guard's DNS check), unless local relays are
// allowed. Every wrap then goes to our relays plus the peer's inbox relays; the pool connects to
// those on demand and lets them go when idle. (Publishing our own list is the serving side's:
// serve.js, with the Agent Card.)
import { core, checked } from '../core.js';
import { NostrError } from '../errors.js';
import { isPrivateAddress, lookupHost, RELAY_LIST_KIND } from './discovery.js';

const registry = /* @__PURE__ */ new FinalizationRegistry((native) => native.delete());
export const DEFAULT_LOOKUP_TIMEOUT = 3000;

export class AgxRoutes {
  #native;
  #ours;
  #lookupRelays;
  #pool;
  #clock;
  #timeout;
  #lookup;
  #allowLocal;
  #inflight = new Map(); // peer -> Promise of its targets

  /**
   * ours: our relay URLs; discoveryRelays: where relay lists are also looked up and ours published;
   * allowLocalRelays: peers' ws:// and local relays count (development); lookupTimeout (ms);
   * lookup: host => addresses (default: DNS in Node, none in browsers); clock: () => seconds.
   * RELAY_URL_INVALID for a URL that does not normalize.
   */
  constructor({ pool, ours, discoveryRelays = [], allowLocalRelays = false, lookupTimeout = DEFAULT_LOOKUP_TIMEOUT, lookup, clock }) {
    const native = new (core().AgxRelayRoutes)();
    let relays;
    try {
      relays = JSON.parse(checked(native.configure(JSON.stringify(ours), JSON.stringify(discoveryRelays), allowLocalRelays === true)));
    } catch (err) {
      native.delete();
      throw err;
    }
    this.#native = native;
    this.#ours = relays.ours;
    this.#lookupRelays = relays.lookup;
    registry.register(this, native, this);
    this.#pool = pool;
    this.#clock = clock;
    this.#timeout = lookupTimeout;
    this.#lookup = lookup ?? lookupHost;
    this.#allowLocal = allowLocalRelays === true;
  }

  #n() {
    if (!this.#native) throw new NostrError('AGX_CLOSED', 'the client was stopped');
    return this.#native;
  }

  /** Our relays, normalized. */
  get ours() {
    return [...this.#ours];
  }

  /** Ours and the discovery relays: where relay lists are read, and where ours (and our card) go. */
  get lookupRelays() {
    return [...this.#lookupRelays];
  }

  /** Where a wrap to `peer` (hex) goes: ours, then the peer's inbox relays (looked up when not cached). */
  targets(peer) {
    if (!this.#native) return Promise.reject(new NostrError('AGX_CLOSED', 'the client was stopped'));
    const cached = this.#native.targets(peer, this.#clock());
    if (cached !== null) return Promise.resolve(JSON.parse(cached));
    let job = this.#inflight.get(peer);
    if (!job) {
      job = this.#resolve(peer).finally(() => this.#inflight.delete(peer));
      this.#inflight.set(peer, job);
    }
    return job;
  }

  /** The outbox relays (not ours) of these peers, as cached: polls read them while our requests to them wait. */
  pollRelays(peers) {
    if (peers.length === 0 || !this.#native) return [];
    return JSON.parse(this.#native.pollRelays(JSON.stringify(peers), this.#clock()));
  }

  async #resolve(peer) {
    let found = [];
    try {
      found = await this.#pool.query([{ kinds: [RELAY_LIST_KIND], authors: [peer] }], { relays: this.lookupRelays, maxWait: this.#timeout });
    } catch {
      // every relay refused the lookup: the peer counts as having no list (asked again soon)
    }
    const selected = this.#n().select(peer, JSON.stringify(found));
    let relays = selected === null ? null : JSON.parse(selected);
    if (relays && !this.#allowLocal) relays.refused = await this.#privateHosts(relays.hosts);
    return JSON.parse(this.#n().remember(peer, relays ? JSON.stringify(relays) : '', this.#clock()));
  }

  // A host named like a public one may still resolve to a private address: in Node, every address
  // DNS gives must be public (where there is no DNS, the spelling rules alone apply). The hosts
  // that fail, for the core to drop.
  async #privateHosts(hosts) {
    const ok = await Promise.all(
      hosts.map((host) =>
        Promise.resolve()
          .then(() => this.#lookup(host))
          .then((a) => a === null || (Array.isArray(a) && a.length > 0 && !a.some(isPrivateAddress)), () => false),
      ),
    );
    return hosts.filter((_, i) => !ok[i]);
  }

  dispose() {
    if (!this.#native) return;
    registry.unregister(this);
    this.#native.delete();
    this.#native = null;
  }
}
