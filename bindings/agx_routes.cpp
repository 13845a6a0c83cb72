// AGX glue, where and when: the relay routes (our relays, a peer's NIP-65 inbox and outbox relays,
// their cache and its rules; the relay list we advertise) and the inbox poll schedule. Both sides of
// an endpoint use them (the built demo page's requester too: cmake/wasm.cmake lists this file).
// Lists and events cross as JSON text; times as numbers (seconds for the cache, ms for the timer).
#include <emscripten/bind.h>

#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "event/event_json.hpp"
#include "event/event_reader.hpp"
#include "agx_helpers.hpp"
#include "protocols/agx/poll_schedule.hpp"
#include "protocols/agx/relay_routes.hpp"
#include "support.hpp"
#include "wrap_inputs.hpp"

namespace nostr::bindings {
namespace {

using json = dom::value;
using agx_glue::string_list;

std::int64_t ms(double v) { return std::isfinite(v) ? static_cast<std::int64_t>(v) : 0; }

std::string list_json(const std::vector<std::string>& v) {
  json j = json::array();
  for (const auto& s : v) j.push_back(s);
  return j.dump();
}

// A JSON array of events (the pool delivered them verified); elements that are no event are skipped.
std::vector<event> events_of(const std::string& text) {
  std::vector<event> out;
  auto j = parse_json(text);
  if (!j.is_array()) return out;
  for (const auto& e : j)
    if (auto ev = event_from_json(e)) out.push_back(std::move(*ev));
  return out;
}

class relay_routes_binding {
 public:
  relay_routes_binding() = default;

  // ours, discovery: JSON arrays of URLs. RELAY_URL_INVALID for one that does not normalize.
  val configure(const std::string& ours_json, const std::string& discovery_json, bool allow_local, double cap) {
    auto r = agx::relay_routes::create(string_list(ours_json), string_list(discovery_json), allow_local,
                                       cap >= 1 ? static_cast<std::size_t>(cap) : agx::kRelayListCacheCap);
    if (!r) return fail(r.err());
    routes_.emplace(std::move(*r));
    return val(true);
  }
  std::string ours() const { return list_json(routes_->ours()); }
  std::string lookup_relays() const { return list_json(routes_->lookup_relays()); }
  // JSON array, or null when the peer's list must be looked up first.
  val targets(const std::string& peer, double now) const {
    auto t = routes_->targets(peer, static_cast<std::int64_t>(now));
    return t ? val(list_json(*t)) : val::null();
  }
  // The lookup's events -> {"inbox":[..],"outbox":[..]} of the peer's newest list, or null.
  val select(const std::string& peer, const std::string& events_json) const {
    auto r = agx::select_peer_relays(events_of(events_json), peer, routes_->allow_local());
    if (!r) return val::null();
    json j;
    j["inbox"] = r->inbox;
    j["outbox"] = r->outbox;
    return val(j.dump());
  }
  // relays_json: {"inbox":[..],"outbox":[..]} (after the host's own checks), or "" for no list.
  std::string remember(const std::string& peer, const std::string& relays_json, double now) {
    std::optional<agx::peer_relays> r;
    if (!relays_json.empty()) {
      auto j = parse_json(relays_json);
      r.emplace();
      if (j.is_object()) {
        r->inbox = string_list(j.contains("inbox") ? j["inbox"].dump() : "[]");
        r->outbox = string_list(j.contains("outbox") ? j["outbox"].dump() : "[]");
      }
    }
    return list_json(routes_->remember(peer, r, static_cast<std::int64_t>(now)));
  }
  std::string poll_relays(const std::string& peers_json, double now) const {
    return list_json(routes_->poll_relays(string_list(peers_json), static_cast<std::int64_t>(now)));
  }
  double size() const { return static_cast<double>(routes_->size()); }

 private:
  std::optional<agx::relay_routes> routes_;
};

val peer_relay_url(const std::string& url, bool allow_local) {
  auto u = agx::peer_relay_url(url, allow_local);
  return u ? val(*u) : val::null();
}

std::string relay_host(const std::string& url) { return agx::relay_host(url); }

// existing: JSON array of our kind 10002 events found -> the template to publish, or null.
val advertised_relay_list(const std::string& existing_json, const std::string& me, const std::string& ours_json,
                          double now_s) {
  std::int64_t now;
  if (!read_now(now_s, now)) return fail(bad_now());
  auto t = agx::advertised_relay_list(events_of(existing_json), me, string_list(ours_json), now);
  if (!t) return fail(t.err());
  if (!*t) return val::null();
  const event_template& tpl = **t;
  json out;
  out["kind"] = tpl.kind;
  out["created_at"] = tpl.created_at;
  out["tags"] = tpl.tags;
  out["content"] = tpl.content;
  return val(out.dump());
}

class poll_schedule_binding {
 public:
  poll_schedule_binding(double idle_ms, double pending_ms) : s_(ms(idle_ms), ms(pending_ms)) {}
  void request_opened(double now_ms) { s_.request_opened(ms(now_ms)); }
  void poll_started() { s_.poll_started(); }
  void poll_finished(double now_ms, bool pending_open) { s_.poll_finished(ms(now_ms), pending_open); }
  double deadline() const { return static_cast<double>(s_.deadline()); }
  double pending_interval() const { return static_cast<double>(s_.pending_interval()); }

 private:
  agx::poll_schedule s_;
};

}  // namespace

EMSCRIPTEN_BINDINGS(agx_routes) {
  emscripten::function("agxPeerRelayUrl", &peer_relay_url);
  emscripten::function("agxRelayHost", &relay_host);
  emscripten::function("agxAdvertisedRelayList", &advertised_relay_list);
  emscripten::class_<relay_routes_binding>("AgxRelayRoutes")
      .constructor<>()
      .function("configure", &relay_routes_binding::configure)
      .function("ours", &relay_routes_binding::ours)
      .function("lookupRelays", &relay_routes_binding::lookup_relays)
      .function("targets", &relay_routes_binding::targets)
      .function("select", &relay_routes_binding::select)
      .function("remember", &relay_routes_binding::remember)
      .function("pollRelays", &relay_routes_binding::poll_relays)
      .function("size", &relay_routes_binding::size);
  emscripten::class_<poll_schedule_binding>("AgxPollSchedule")
      .constructor<double, double>()
      .function("requestOpened", &poll_schedule_binding::request_opened)
      .function("pollStarted", &poll_schedule_binding::poll_started)
      .function("pollFinished", &poll_schedule_binding::poll_finished)
      .function("deadline", &poll_schedule_binding::deadline)
      .function("pendingInterval", &poll_schedule_binding::pending_interval);
}

}  // namespace nostr::bindings
