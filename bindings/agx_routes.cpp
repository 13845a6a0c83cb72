// AGX glue, where and when: the relay routes (our relays, a peer's NIP-65 inbox and outbox relays,
// their cache and its rules) and the inbox poll schedule. Both sides of an endpoint use them (the
// built demo page's requester too: cmake/wasm.cmake lists this file; the relay list an agent
// advertises is agx_serve.cpp's).
// Lists and events cross as JSON text; times as numbers (seconds for the cache, ms for the timer).
#include <emscripten/bind.h>

#include <optional>
#include <string>
#include <vector>

#include "event/event_json.hpp"
#include "agx_helpers.hpp"
#include "protocols/agx/relay_routes.hpp"
#include "support.hpp"

namespace nostr::bindings {
namespace {

using json = dom::value;
using agx_glue::events_of;
using agx_glue::string_list;

std::string list_json(const std::vector<std::string>& v) {
  json j = json::array();
  for (const auto& s : v) j.push_back(s);
  return j.dump();
}

// Few entry points on purpose: every Embind method costs the built page bytes.
class relay_routes_binding {
 public:
  relay_routes_binding() = default;

  // ours, discovery: JSON arrays of URLs -> {"ours":[..],"lookup":[..]} (normalized: ours, then the
  // discovery relays). RELAY_URL_INVALID for one that does not normalize.
  val configure(const std::string& ours_json, const std::string& discovery_json, bool allow_local) {
    auto r = agx::relay_routes::create(string_list(ours_json), string_list(discovery_json), allow_local);
    if (!r) return fail(r.err());
    routes_.emplace(std::move(*r));
    json j;
    j["ours"] = routes_->ours();
    j["lookup"] = routes_->lookup_relays();
    return val(j.dump());
  }
  // JSON array, or null when the peer's list must be looked up first.
  val targets(const std::string& peer, double now) const {
    auto t = routes_->targets(peer, static_cast<std::int64_t>(now));
    return t ? val(list_json(*t)) : val::null();
  }
  // The lookup's events -> {"inbox":[..],"outbox":[..],"hosts":[..]} of the peer's newest list (hosts:
  // for the host's DNS check), or null when it has none.
  val select(const std::string& peer, const std::string& events_json) const {
    auto r = agx::select_peer_relays(events_of(events_json), peer, routes_->allow_local());
    if (!r) return val::null();
    json j;
    j["inbox"] = r->inbox;
    j["outbox"] = r->outbox;
    j["hosts"] = agx::relay_hosts(*r);
    return val(j.dump());
  }
  // selected_json: select()'s answer plus "refused": [hosts the DNS check refused], or "" for no
  // list. Returns the peer's targets.
  std::string remember(const std::string& peer, const std::string& selected_json, double now) {
    std::optional<agx::peer_relays> r;
    std::vector<std::string> refused;
    if (!selected_json.empty()) {
      auto j = parse_json(selected_json);
      r.emplace();
      if (j.is_object()) {
        auto list = [&](const char* key) { return j.contains(key) ? string_list(j[key].dump()) : std::vector<std::string>{}; };
        r->inbox = list("inbox");
        r->outbox = list("outbox");
        refused = list("refused");
      }
    }
    return list_json(routes_->remember(peer, r, static_cast<std::int64_t>(now), refused));
  }
  std::string poll_relays(const std::string& peers_json, double now) const {
    return list_json(routes_->poll_relays(string_list(peers_json), static_cast<std::int64_t>(now)));
  }

 private:
  std::optional<agx::relay_routes> routes_;
};

}  // namespace

EMSCRIPTEN_BINDINGS(agx_routes) {
  emscripten::class_<relay_routes_binding>("AgxRelayRoutes")
      .constructor<>()
      .function("configure", &relay_routes_binding::configure)
      .function("targets", &relay_routes_binding::targets)
      .function("select", &relay_routes_binding::select)
      .function("remember", &relay_routes_binding::remember)
      .function("pollRelays", &relay_routes_binding::poll_relays);
}

}  // namespace nostr::bindings
