// Where AGX wraps go (SPEC.md "NIP inventory": NIP-65 relay lists; the reference's
// NostrTransport.publishMessage): every wrap we send goes to our relays plus the recipient's inbox
// relays, its NIP-65 read relays. A peer's list is attacker-controlled: each URL it names becomes a
// connection we open, so only wss:// URLs on public host names count (ws:// and local hosts only
// when the host allows them, for development), at most kMaxPeerRelays of the first
// kMaxRelayListCandidates distinct ones; a list is cached kRelayListTtl (kRelayListMissTtl when the
// peer has none) in a cache bounded to `cap` peers. While our requests wait, polls also read the
// peers' outbox (write) relays, where their answers are published even when we never advertised.
// Sans-IO: the host runs the relay-list lookups and gives the events and `now` (seconds) in.
#pragma once
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "event/event.hpp"
#include "util/result.hpp"

namespace nostr::agx {

constexpr std::size_t kMaxPeerRelays = 10;           // reference MAX_PEER_RELAYS
constexpr std::size_t kMaxRelayListCandidates = 20;  // reference MAX_PEER_CANDIDATES
constexpr std::size_t kMaxRelayUrl = 512;            // the card's cap on a relay URL
constexpr std::int64_t kRelayListTtl = 600;          // s (reference PEER_CACHE_TTL_MS)
constexpr std::int64_t kRelayListMissTtl = 60;       // s: a peer with no list is asked again sooner
constexpr std::size_t kRelayListCacheCap = 1000;

// A peer-supplied relay URL we may dial, normalized (relay_url.hpp), or nullopt: wss:// on a
// public DNS name (nip05.hpp public_dns_name: no IP literal, no localhost/.local/.internal), no
// user info, at most kMaxRelayUrl bytes. allow_local also admits ws:// and local hosts.
std::optional<std::string> peer_relay_url(std::string_view url, bool allow_local);

// Its host (no port, no brackets), for a DNS check by the host; empty for an invalid URL.
std::string relay_host(std::string_view url);

struct peer_relays {
  std::vector<std::string> inbox;   // NIP-65 read relays: where to send to the peer
  std::vector<std::string> outbox;  // NIP-65 write relays: where the peer publishes
};

// The distinct hosts of both lists, in order: what the host checks in DNS before remember().
std::vector<std::string> relay_hosts(const peer_relays& r);

// The relays of the newest kind 10002 event by `peer` among `found` (other kinds and authors are
// ignored; equal created_at: the lowest id): ["r", url] counts for both lists, ["r", url, "read"]
// for the inbox, ["r", url, "write"] for the outbox, any other marker for neither. Only the first
// kMaxRelayListCandidates distinct r URLs are considered; each list keeps at most kMaxPeerRelays
// that pass peer_relay_url, in order. nullopt when there is no such event.
std::optional<peer_relays> select_peer_relays(const std::vector<event>& found, std::string_view peer,
                                              bool allow_local);

class relay_routes {
 public:
  // ours: where we read and publish; discovery: extra relays where relay lists (and our card) are
  // looked up and published (indexers). RELAY_URL_INVALID for a URL that does not normalize.
  static result<relay_routes> create(const std::vector<std::string>& ours, const std::vector<std::string>& discovery,
                                     bool allow_local, std::size_t cap = kRelayListCacheCap);

  const std::vector<std::string>& ours() const { return ours_; }
  bool allow_local() const { return allow_local_; }
  // ours, then the discovery relays: where relay lists are read, and where ours is published.
  std::vector<std::string> lookup_relays() const;

  // Where a wrap to `peer` goes: ours, then its inbox relays; nullopt when its list is unknown or
  // stale (look it up, then remember()).
  std::optional<std::vector<std::string>> targets(std::string_view peer, std::int64_t now) const;

  // The lookup's outcome for `peer`: its relays (nullopt: it has no list), each URL checked again
  // and those on a `refused` host dropped (the host's DNS check: a name that resolves to a private
  // address); kept until now + kRelayListTtl (kRelayListMissTtl without a list). At the cap,
  // expired entries go first, then the one that expires soonest. Returns targets().
  std::vector<std::string> remember(std::string_view peer, const std::optional<peer_relays>& relays, std::int64_t now,
                                    const std::vector<std::string>& refused = {});

  // The outbox relays (not ours) of these peers, where their answers to us are published: read by
  // polls while our requests to them wait. Unknown or stale peers add nothing.
  std::vector<std::string> poll_relays(const std::vector<std::string>& peers, std::int64_t now) const;

  std::size_t size() const { return cache_.size(); }

 private:
  struct entry {
    peer_relays relays;
    std::int64_t expires = 0;
  };
  relay_routes() = default;

  std::vector<std::string> ours_;
  std::vector<std::string> discovery_;
  bool allow_local_ = false;
  std::size_t cap_ = kRelayListCacheCap;
  std::map<std::string, entry, std::less<>> cache_;
};

// Our NIP-65 list to advertise: the newest kind 10002 by `me` among `existing` (the lookup of our
// own list) with each of `ours` as a plain ["r", url] (read and write: peers send to it and we
// publish there); its other entries stay as they are. nullopt when it lists every one of ours
// already for both (nothing to publish). Publishing a replaceable list over one we did not read
// would drop the user's other relays, hence the merge. RELAY_URL_INVALID for one of ours.
result<std::optional<event_template>> advertised_relay_list(const std::vector<event>& existing, std::string_view me,
                                                            const std::vector<std::string>& ours, std::int64_t now);

}  // namespace nostr::agx
