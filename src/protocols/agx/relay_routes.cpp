#include "protocols/agx/relay_routes.hpp"

#include <algorithm>

#include "protocols/agx/constants.hpp"
#include "protocols/agx/nip05.hpp"
#include "relay/relay_url.hpp"

namespace nostr::agx {
namespace {

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

// The authority of a normalized URL (scheme, host, optional port): between "://" and the path.
std::string_view authority_of(std::string_view url) {
  auto scheme = url.find("://");
  if (scheme == std::string_view::npos) return {};
  url.remove_prefix(scheme + 3);
  return url.substr(0, url.find_first_of("/?#"));
}

std::string_view host_of(std::string_view authority) {
  if (!authority.empty() && authority.front() == '[') {
    auto close = authority.find(']');
    return close == std::string_view::npos ? std::string_view() : authority.substr(1, close - 1);
  }
  return authority.substr(0, authority.rfind(':'));
}

void push_unique(std::vector<std::string>& v, const std::string& s) {
  if (std::find(v.begin(), v.end(), s) == v.end()) v.push_back(s);
}

const event* newest_list(const std::vector<event>& found, std::string_view author) {
  const event* best = nullptr;
  for (const auto& e : found) {
    if (e.kind != kRelayListKind || e.pubkey != author) continue;
    if (!best || e.created_at > best->created_at || (e.created_at == best->created_at && e.id < best->id)) best = &e;
  }
  return best;
}

result<std::vector<std::string>> normalize_all(const std::vector<std::string>& urls) {
  std::vector<std::string> out;
  for (const auto& u : urls) {
    auto n = relay::normalize_relay_url(u);
    if (!n) return n.err();
    push_unique(out, *n);
  }
  return out;
}

}  // namespace

std::optional<std::string> peer_relay_url(std::string_view url, bool allow_local) {
  if (url.size() > kMaxRelayUrl) return std::nullopt;
  auto n = relay::normalize_relay_url(url);
  if (!n) return std::nullopt;
  if (allow_local) return *n;
  if (!starts_with(*n, "wss://")) return std::nullopt;
  std::string_view authority = authority_of(*n);
  if (authority.find('@') != std::string_view::npos) return std::nullopt;  // user info: not a relay's address
  if (!public_dns_name(host_of(authority))) return std::nullopt;
  return *n;
}

std::string relay_host(std::string_view url) {
  auto n = relay::normalize_relay_url(url);
  if (!n) return {};
  std::string_view authority = authority_of(*n);
  if (auto at = authority.rfind('@'); at != std::string_view::npos) authority.remove_prefix(at + 1);
  return std::string(host_of(authority));
}

std::vector<std::string> relay_hosts(const peer_relays& r) {
  std::vector<std::string> out;
  for (const auto* list : {&r.inbox, &r.outbox})
    for (const auto& u : *list) push_unique(out, relay_host(u));
  return out;
}

std::optional<peer_relays> select_peer_relays(const std::vector<event>& found, std::string_view peer,
                                              bool allow_local) {
  const event* list = newest_list(found, peer);
  if (!list) return std::nullopt;
  peer_relays out;
  std::vector<std::string_view> candidates;
  for (const auto& t : list->tags) {
    if (t.size() < 2 || t[0] != "r") continue;
    std::string_view raw = t[1];
    if (std::find(candidates.begin(), candidates.end(), raw) != candidates.end()) continue;
    if (candidates.size() == kMaxRelayListCandidates) break;  // a list of thousands costs no more than this
    candidates.push_back(raw);
    const std::string_view marker = t.size() >= 3 ? std::string_view(t[2]) : std::string_view();
    const bool read = t.size() < 3 || marker == "read";
    const bool write = t.size() < 3 || marker == "write";
    if (!read && !write) continue;
    auto url = peer_relay_url(raw, allow_local);
    if (!url) continue;
    if (read && out.inbox.size() < kMaxPeerRelays) push_unique(out.inbox, *url);
    if (write && out.outbox.size() < kMaxPeerRelays) push_unique(out.outbox, *url);
  }
  return out;
}

result<relay_routes> relay_routes::create(const std::vector<std::string>& ours, const std::vector<std::string>& discovery,
                                          bool allow_local, std::size_t cap) {
  relay_routes r;
  NOSTR_ASSIGN(r.ours_, normalize_all(ours));
  NOSTR_ASSIGN(r.discovery_, normalize_all(discovery));
  r.allow_local_ = allow_local;
  r.cap_ = cap == 0 ? 1 : cap;
  return r;
}

std::vector<std::string> relay_routes::lookup_relays() const {
  std::vector<std::string> out = ours_;
  for (const auto& d : discovery_) push_unique(out, d);
  return out;
}

std::optional<std::vector<std::string>> relay_routes::targets(std::string_view peer, std::int64_t now) const {
  auto it = cache_.find(peer);
  if (it == cache_.end() || it->second.expires <= now) return std::nullopt;
  std::vector<std::string> out = ours_;
  for (const auto& r : it->second.relays.inbox) push_unique(out, r);
  return out;
}

std::vector<std::string> relay_routes::remember(std::string_view peer, const std::optional<peer_relays>& relays,
                                                std::int64_t now, const std::vector<std::string>& refused) {
  entry e;
  e.expires = now + (relays ? kRelayListTtl : kRelayListMissTtl);
  if (relays) {
    // Checked again: what the host hands back after its own (DNS) check must still pass ours.
    auto keep = [&](const std::vector<std::string>& in, std::vector<std::string>& out) {
      for (const auto& u : in) {
        if (out.size() == kMaxPeerRelays) break;
        auto url = peer_relay_url(u, allow_local_);
        if (url && std::find(refused.begin(), refused.end(), relay_host(*url)) == refused.end()) push_unique(out, *url);
      }
    };
    keep(relays->inbox, e.relays.inbox);
    keep(relays->outbox, e.relays.outbox);
  }
  std::string key(peer);
  if (cache_.find(key) == cache_.end() && cache_.size() >= cap_) {
    for (auto it = cache_.begin(); it != cache_.end();) it = it->second.expires <= now ? cache_.erase(it) : std::next(it);
    if (cache_.size() >= cap_) {
      auto soonest = std::min_element(cache_.begin(), cache_.end(),
                                      [](const auto& a, const auto& b) { return a.second.expires < b.second.expires; });
      cache_.erase(soonest);
    }
  }
  cache_[key] = std::move(e);
  return *targets(peer, now);
}

std::vector<std::string> relay_routes::poll_relays(const std::vector<std::string>& peers, std::int64_t now) const {
  std::vector<std::string> out;
  for (const auto& p : peers) {
    auto it = cache_.find(p);
    if (it == cache_.end() || it->second.expires <= now) continue;
    for (const auto& r : it->second.relays.outbox)
      if (std::find(ours_.begin(), ours_.end(), r) == ours_.end()) push_unique(out, r);
  }
  return out;
}

result<std::optional<event_template>> advertised_relay_list(const std::vector<event>& existing, std::string_view me,
                                                            const std::vector<std::string>& ours, std::int64_t now) {
  if (now < 0) return make_error(errc::invalid_argument, "now must be non-negative");
  std::vector<std::string> mine;
  NOSTR_ASSIGN(mine, normalize_all(ours));
  if (mine.empty()) return make_error(errc::invalid_argument, "no relays to advertise");
  event_template t;
  t.kind = kRelayListKind;
  t.created_at = now;
  std::vector<bool> listed(mine.size(), false);
  bool changed = false;
  if (const event* old = newest_list(existing, me)) {
    for (const auto& tag : old->tags) {
      if (tag.size() >= 2 && tag[0] == "r") {
        auto n = relay::normalize_relay_url(tag[1]);
        auto at = n ? std::find(mine.begin(), mine.end(), *n) : mine.end();
        if (at != mine.end()) {
          auto i = static_cast<std::size_t>(at - mine.begin());
          if (listed[i]) {  // a second entry for one of ours: folded into the first
            changed = true;
            continue;
          }
          listed[i] = true;
          if (tag.size() > 2 || tag[1] != *at) changed = true;  // marked read or write only: ours are both
          t.tags.push_back({"r", *at});
          continue;
        }
      }
      t.tags.push_back(tag);
    }
    t.content = old->content;
  }
  for (std::size_t i = 0; i < mine.size(); ++i) {
    if (listed[i]) continue;
    t.tags.push_back({"r", mine[i]});
    changed = true;
  }
  if (!changed) return std::optional<event_template>{};
  return std::optional<event_template>{std::move(t)};
}

}  // namespace nostr::agx
