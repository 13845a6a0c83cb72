// AGX glue, the serving side: task results and receipts (what a handler's endpoint sends), the
// automated-reply limiter, the flood limits of served tasks, handler lookup, and the Agent Card,
// its retraction and the relay list an agent publishes. Apart from agx.cpp (the requesting side:
// rumors a requester sends, wrap, unwrap, routing, replay) so a requester-only module (the built
// demo page's, cmake/wasm.cmake) links without them.
#include <emscripten/bind.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "event/event_json.hpp"
#include "nips/nip59.hpp"
#include "protocols/agx/auto_depth.hpp"
#include "protocols/agx/capability.hpp"
#include "protocols/agx/card.hpp"
#include "protocols/agx/message.hpp"
#include "protocols/agx/relay_routes.hpp"
#include "protocols/agx/task_gate.hpp"
#include "agx_helpers.hpp"
#include "support.hpp"
#include "wrap_inputs.hpp"

namespace nostr::bindings {
namespace {

using json = dom::value;

using agx_glue::fresh_id;
using agx_glue::task_limits_of;
using agx_glue::opt;
using agx_glue::string_list;

// --- results and receipts of served tasks

// status "completed" (output_json optional) or "failed" (public error text optional: "handler
// failed" otherwise). Returns {"rumor":{..},"replacedTooLarge":bool} as JSON.
val task_result_rumor(const std::string& task_id, const std::string& status, bool has_output,
                      const std::string& output_json, bool has_error, const std::string& error_text,
                      const std::string& author, const std::string& recipient, double now_s) {
  std::int64_t now;
  if (!read_now(now_s, now)) return fail(bad_now());
  agx::task_result r;
  if (status == "completed") {
    r = agx::completed_result(opt(has_output, output_json));
  } else if (status == "failed") {
    r = agx::failed_result(has_error ? std::optional<std::string_view>(error_text) : std::nullopt);
  } else {
    return fail(make_error(errc::invalid_argument, "status must be completed or failed"));
  }
  auto out = agx::task_result_rumor(task_id, r, fresh_id(), author, recipient, now);
  if (!out) return fail(out.err());
  json j;
  j["rumor"] = parse_json(nip59::rumor_to_json(out->rumor));
  j["replacedTooLarge"] = out->replaced_too_large;
  return val(j.dump());
}

val receipt_rumor(const std::string& ref_rumor_id, const std::string& context_id, const std::string& author,
                  const std::string& recipient, double now_s) {
  std::int64_t now;
  if (!read_now(now_s, now)) return fail(bad_now());
  auto r = agx::receipt_rumor(ref_rumor_id, context_id, agx::receipt_status::delivered, author, recipient, now);
  if (!r) return fail(r.err());
  return val(nip59::rumor_to_json(*r));
}

// --- automated-reply depth: ceiling plus local bounds per peer and per conversation

class auto_reply {
 public:
  auto_reply(int ceiling, double per_conversation, double per_peer, double peer_window) {
    agx::auto_reply_limits l;
    if (ceiling >= 0) l.ceiling = ceiling;
    if (per_conversation >= 0) l.per_conversation = static_cast<std::uint32_t>(per_conversation);
    if (per_peer >= 0) l.per_peer = static_cast<std::uint32_t>(per_peer);
    if (peer_window > 0) l.peer_window = static_cast<std::int64_t>(peer_window);
    limiter_.emplace(l);
  }
  std::string try_reply(const std::string& peer, const std::string& conversation, int inbound_depth, double now) {
    return agx::auto_reply_verdict_name(
        limiter_->try_reply(peer, conversation, inbound_depth, static_cast<std::int64_t>(now)));
  }
  void human_reset(const std::string& peer, const std::string& conversation) { limiter_->human_reset(peer, conversation); }
  void reset_peer(const std::string& peer) { limiter_->reset_peer(peer); }
  int ceiling() const { return limiter_->limits().ceiling; }

 private:
  std::optional<agx::auto_reply_limiter> limiter_;
};

int reply_depth(int inbound) { return agx::reply_depth(inbound); }

// --- flood limits of served tasks (protocols/agx/task_gate.hpp); counts arrive as JS numbers,
// already checked by js/agx/task-gate.js.
class task_gate_binding {
 public:
  task_gate_binding(double max_concurrent, double per_peer_concurrent, double max_queued, double per_peer_queued,
                    double rate_count, double rate_window, double max_tracked) {
    gate_.emplace(task_limits_of(max_concurrent, per_peer_concurrent, max_queued, per_peer_queued, rate_count, rate_window, max_tracked));
  }
  // {"verdict": "run"|"queued"|"rate-limited"|"overloaded", "ticket"?: n, "retryAfter"?: s}
  std::string offer(const std::string& peer, double now, bool admitted) {
    auto a = gate_->offer(peer, static_cast<std::int64_t>(now), admitted);
    json out;
    out["verdict"] = agx::task_verdict_name(a.verdict);
    if (a.ticket) out["ticket"] = a.ticket;
    if (a.verdict == agx::task_verdict::rate_limited) out["retryAfter"] = a.retry_after;
    return out.dump();
  }
  // The next ticket to start (it holds the slot), or 0.
  double release(const std::string& peer) { return gate_->release(peer).ticket; }
  // The queued tickets, dropped: [n, ...]
  std::string clear() {
    json out = json::array();
    for (const auto& t : gate_->clear()) out.push_back(t.ticket);
    return out.dump();
  }
  double running() const { return static_cast<double>(gate_->running()); }
  double queued() const { return static_cast<double>(gate_->queued()); }
  double tracked_peers() const { return static_cast<double>(gate_->tracked_peers()); }
  double running_for(const std::string& peer) const { return gate_->running_for(peer); }

 private:
  std::optional<agx::task_gate> gate_;
};

// --- the Agent Card (11337) an agent publishes, and its retraction (5)

std::vector<std::string> strings_at(const json& j, const char* key) {
  std::vector<std::string> out;
  if (j.contains(key) && j[key].is_array())
    for (const auto& e : j[key])
      if (e.is_string()) out.push_back(e.get<std::string>());
  return out;
}

// fields: {org, pubkey, nip05?, relays[], capabilities[]} -> the unsigned kind 11337 template.
val card_template(const std::string& fields_json, double now_s) {
  std::int64_t now;
  if (!read_now(now_s, now)) return fail(bad_now());
  auto j = parse_json(fields_json);
  if (!j.is_object() || !j["pubkey"].is_string())
    return fail(make_error(errc::invalid_argument, "expected {org, pubkey, nip05?, relays, capabilities}"));
  agx::card_fields f;
  if (j.contains("org") && j["org"].is_string()) f.org = j["org"].get<std::string>();
  f.pubkey_hex = j["pubkey"].get<std::string>();
  if (j.contains("nip05") && j["nip05"].is_string()) f.nip05 = j["nip05"].get<std::string>();
  f.relays = strings_at(j, "relays");
  f.capabilities = strings_at(j, "capabilities");
  auto t = agx::card_template(f, now);
  if (!t) return fail(t.err());
  json out;
  out["kind"] = t->kind;
  out["created_at"] = t->created_at;
  out["tags"] = t->tags;
  out["content"] = t->content;
  return val(out.dump());
}

val card_retraction(const std::string& ids_json, const std::string& reason, double now_s) {
  std::int64_t now;
  if (!read_now(now_s, now)) return fail(bad_now());
  auto t = agx::card_retraction_template(string_list(ids_json), reason, now);
  if (!t) return fail(t.err());
  json out;
  out["kind"] = t->kind;
  out["created_at"] = t->created_at;
  out["tags"] = t->tags;
  out["content"] = t->content;
  return val(out.dump());
}

// The NIP-65 list an agent advertises: existing = JSON array of our kind 10002 events found ->
// the template to publish, or null when ours are listed already (relay_routes.hpp).
val advertised_relay_list(const std::string& existing_json, const std::string& me, const std::string& ours_json,
                          double now_s) {
  std::int64_t now;
  if (!read_now(now_s, now)) return fail(bad_now());
  auto t = agx::advertised_relay_list(agx_glue::events_of(existing_json), me, string_list(ours_json), now);
  if (!t) return fail(t.err());
  if (!*t) return val::null();
  json out;
  out["kind"] = (*t)->kind;
  out["created_at"] = (*t)->created_at;
  out["tags"] = (*t)->tags;
  out["content"] = (*t)->content;
  return val(out.dump());
}

val find_handler(const std::string& keys_json, const std::string& requested) {
  auto k = agx::find_handler(string_list(keys_json), requested);
  return k ? val(*k) : val::null();
}

}  // namespace

EMSCRIPTEN_BINDINGS(agx_serve) {
  emscripten::function("agxTaskResultRumor", &task_result_rumor);
  emscripten::function("agxReceiptRumor", &receipt_rumor);
  emscripten::function("agxReplyDepth", &reply_depth);
  emscripten::function("agxCardTemplate", &card_template);
  emscripten::function("agxAdvertisedRelayList", &advertised_relay_list);
  emscripten::function("agxCardRetraction", &card_retraction);
  emscripten::class_<auto_reply>("AgxAutoReply")
      .constructor<int, double, double, double>()
      .function("tryReply", &auto_reply::try_reply)
      .function("humanReset", &auto_reply::human_reset)
      .function("resetPeer", &auto_reply::reset_peer)
      .function("ceiling", &auto_reply::ceiling);
  emscripten::class_<task_gate_binding>("AgxTaskGate")
      .constructor<double, double, double, double, double, double, double>()
      .function("offer", &task_gate_binding::offer)
      .function("release", &task_gate_binding::release)
      .function("clear", &task_gate_binding::clear)
      .function("running", &task_gate_binding::running)
      .function("queued", &task_gate_binding::queued)
      .function("trackedPeers", &task_gate_binding::tracked_peers)
      .function("runningFor", &task_gate_binding::running_for);
  emscripten::function("agxFindHandler", &find_handler);
}

}  // namespace nostr::bindings
