// NIP-XX glue, the client side: payload validation, the default info and the client run machine
// as an Embind class (with delete(); the JS wrapper adds a FinalizationRegistry backstop). The
// agent side (serveAgent) is in nip_xx_agent.cpp.
#include <emscripten/bind.h>

#include <variant>

#include "event/event.hpp"
#include "nip_xx_event.hpp"
#include "nip_xx_outgoing.hpp"
#include "protocols/nip_xx/client_requests.hpp"
#include "protocols/nip_xx/client_run.hpp"
#include "protocols/nip_xx/constants.hpp"
#include "protocols/nip_xx/kinds.hpp"
#include "protocols/nip_xx/payload.hpp"
#include "nips/nip59.hpp"
#include "support.hpp"

namespace nostr::bindings {
namespace {

using namespace nostr::nip_xx;

// 0 when the payload is valid for the kind, else the errc value (PARSE_ERROR, INVALID_SCHEMA...).
int nipxx_validate_payload(int kind, const std::string& text) {
  auto r = validate_payload(kind, text);
  return r ? 0 : fail_code(r.err());
}

const char* update_name(update_kind k) {
  switch (k) {
    case update_kind::status: return "status";
    case update_kind::delta: return "delta";
    case update_kind::tool_call: return "tool_call";
    case update_kind::terminal: return "terminal";
    case update_kind::ignored: return "ignored";
    case update_kind::rejected: return "rejected";
  }
  return "ignored";
}

// A client run fed with received events (the JS objects the pool delivered, signature already
// verified: read in place, not serialized again) and their decrypted content. Updates come back as
// plain objects.
class client_run_binding {
 public:
  // terminal_grace_ms < 0: the core's default.
  client_run_binding(std::string prompt_id, std::string agent, std::string client, double terminal_grace_ms)
      : client_run_binding(std::move(prompt_id), std::move(agent), std::move(client), terminal_grace_ms, 0) {}
  // idle_timeout_ms: 0 off, < 0 the core's default.
  client_run_binding(std::string prompt_id, std::string agent, std::string client, double terminal_grace_ms,
                     double idle_timeout_ms)
      : run_(std::move(prompt_id), std::move(agent), std::move(client),
             terminal_grace_ms < 0 ? default_terminal_grace_ms : static_cast<std::int64_t>(terminal_grace_ms),
             idle_timeout_ms < 0 ? default_idle_timeout_ms : static_cast<std::int64_t>(idle_timeout_ms)) {}

  val on_event(const val& received, const std::string& plaintext, double now_ms) {
    auto e = event_of(received, false);
    if (!e) return fail(e.err());
    run_update u = run_.on_event(*e, plaintext, static_cast<std::int64_t>(now_ms));
    val o = val::object();
    o.set("type", std::string(update_name(u.type)));
    if (u.type == update_kind::ignored || u.type == update_kind::rejected) o.set("reason", u.reason);
    if (u.type == update_kind::rejected) o.set("code", std::string(errc_name(u.code)));
    if (u.status) o.set("status", val::global("JSON").call<val>("parse", to_json(*u.status)));
    if (u.tool_call) o.set("toolCall", val::global("JSON").call<val>("parse", to_json(*u.tool_call)));
    if (u.thinking) o.set("thinking", *u.thinking);
    if (u.type == update_kind::terminal) o.set("replaced", u.replaced);
    if (u.replaced) o.set("replacedId", u.replaced_id);
    if (u.type == update_kind::delta) {
      // The text change only (the whole text when a delta landed before the end).
      if (u.text_reset) o.set("text", run_.text());
      else o.set("append", u.append);
      o.set("degraded", u.degraded);
    }
    return o;
  }

  void start(double now_ms) { run_.start(static_cast<std::int64_t>(now_ms)); }
  bool may_cancel() const { return run_.may_cancel(); }
  void cancel_sent(double now_ms, double timeout_ms) {
    run_.cancel_sent(static_cast<std::int64_t>(now_ms), static_cast<std::int64_t>(timeout_ms));
  }
  // ms, or null.
  val next_deadline() const {
    auto at = run_.next_deadline();
    return at ? val(static_cast<double>(*at)) : val::null();
  }
  // "none" | "settled" | "idle" | "cancel_unconfirmed".
  std::string handle_timeout(double now_ms) {
    switch (run_.handle_timeout(static_cast<std::int64_t>(now_ms))) {
      case timeout_outcome::none: return "none";
      case timeout_outcome::settled: return "settled";
      case timeout_outcome::idle: return "idle";
      case timeout_outcome::cancel_unconfirmed: return "cancel_unconfirmed";
    }
    return "none";
  }
  void close() { run_.close(); }
  bool closed() const { return run_.closed(); }
  bool names_run(const val& received) const {
    auto e = event_of(received, false);
    return e && run_.names_run(*e);
  }

  // ms, or null before the first terminal.
  val settle_at() const {
    auto at = run_.settle_at_ms();
    return at ? val(static_cast<double>(*at)) : val::null();
  }
  double terminal_grace() const { return static_cast<double>(run_.terminal_grace_ms()); }

  std::string text() const { return run_.text(); }
  bool degraded() const { return run_.degraded(); }
  val terminal() const {
    const auto& t = run_.terminal();
    if (!t) return val::null();
    val o = val::object();
    o.set("kind", static_cast<int>(t->k));
    o.set("eventId", t->event_id);
    o.set("createdAt", static_cast<double>(t->created_at));
    if (t->response) o.set("response", val::global("JSON").call<val>("parse", to_json(*t->response)));
    if (t->error) o.set("error", val::global("JSON").call<val>("parse", to_json(*t->error)));
    return o;
  }

 private:
  client_run run_;
};

std::string nipxx_default_info() { return to_json(default_info()); }

privacy_wish wish_of(const std::string& w) {
  if (w == "nip59") return privacy_wish::nip59;
  if (w == "auto") return privacy_wish::automatic;
  return privacy_wish::nip44;
}

// wish: "default" | "nip59" | "auto"; info_json: the agent's ai.info content, "" for none (the
// seed's defaults). "default" | "nip59", or undefined (UNSUPPORTED_FEATURE recorded).
val nipxx_choose_privacy(const std::string& wish, const std::string& info_json) {
  auto info = info_json.empty() ? result<info_payload>(default_info()) : parse_info(info_json);
  auto chosen = choose_privacy(wish_of(wish), info ? *info : default_info());
  if (!chosen) return fail(chosen.err());
  return val(*chosen == privacy_profile::nip59 ? "nip59" : "default");
}

// privacy: "default" | "nip59"; prompt_created_at: seconds.
val nipxx_run_filter(const std::string& privacy, const std::string& agent, const std::string& client,
                     const std::string& prompt_id, double prompt_created_at) {
  auto profile = privacy == "nip59" ? privacy_profile::nip59 : privacy_profile::nip44;
  return filter_val(run_filter(profile, agent, client, prompt_id, static_cast<std::int64_t>(prompt_created_at)));
}

val nipxx_session_prompt_filters(const std::string& agent, const std::string& client, const std::string& session) {
  return filters_val(session_prompt_filters(agent, client, session));
}

// prompt_ids: an array of prompt event ids.
val nipxx_session_terminal_filters(const std::string& agent, const std::string& client, const std::string& session,
                                   val prompt_ids) {
  return filters_val(session_terminal_filters(agent, client, session, emscripten::vecFromJSArray<std::string>(prompt_ids)));
}

std::optional<std::string> optional_string(const std::string& s) {
  return s.empty() ? std::nullopt : std::optional<std::string>(s);
}

// session "": the default session (tagged all the same).
val nipxx_prompt_event(const std::string& agent, const std::string& client, const std::string& session,
                       const std::string& payload_json) {
  return outgoing_val(prompt_event(agent, client, optional_string(session), payload_json));
}

val nipxx_cancel_event(const std::string& agent, const std::string& client, const std::string& prompt_id,
                       const std::string& session, const std::string& reason) {
  return outgoing_val(cancel_event(agent, client, prompt_id, optional_string(session), reason));
}

// candidates: events as the pool delivered them. The index of the newest valid ai.info of agent,
// or -1.
int nipxx_select_info(const std::string& agent, val candidates) {
  std::vector<event> events;
  std::vector<int> index;  // events[i] is candidates[index[i]] (malformed ones are skipped)
  const int n = candidates["length"].as<int>();
  for (int i = 0; i < n; ++i) {
    auto e = event_of(candidates[i], true);
    if (!e) continue;
    events.push_back(std::move(*e));
    index.push_back(i);
  }
  auto best = select_info(events, agent);
  return best ? index[*best] : -1;
}

// The constants table: js/agents keeps no copy of a kind, window, grace or default.
val nipxx_constants() {
  val kinds = val::object();
  kinds.set("status", static_cast<int>(kind::status));
  kinds.set("delta", static_cast<int>(kind::delta));
  kinds.set("prompt", static_cast<int>(kind::prompt));
  kinds.set("response", static_cast<int>(kind::response));
  kinds.set("toolCall", static_cast<int>(kind::tool_call));
  kinds.set("error", static_cast<int>(kind::error));
  kinds.set("cancel", static_cast<int>(kind::cancel));
  kinds.set("info", static_cast<int>(kind::info));
  kinds.set("giftWrap", static_cast<int>(nip59::kGiftWrapKind));
  val c = val::object();
  c.set("kinds", kinds);
  c.set("terminalGraceMs", static_cast<double>(default_terminal_grace_ms));
  c.set("idleTimeoutMs", static_cast<double>(default_idle_timeout_ms));
  c.set("cancelTimeoutMs", static_cast<double>(default_cancel_timeout_ms));
  c.set("discoverWaitMs", static_cast<double>(default_discover_wait_ms));
  c.set("promptDiscoverWaitMs", static_cast<double>(prompt_discover_wait_ms));
  c.set("stopTimeoutMs", static_cast<double>(default_stop_timeout_ms));
  c.set("wrapLookback", static_cast<double>(wrap_lookback_s));
  c.set("maxClockSkew", static_cast<double>(default_max_clock_skew_s));
  c.set("restartLookback", static_cast<double>(restart_lookback_s));
  c.set("seenPromptsCap", static_cast<double>(seen_prompts_cap));
  c.set("openedWrapsCap", static_cast<double>(opened_wraps_cap));
  val durable = val::array();
  for (std::int64_t k = 25800; k <= 25806; ++k)  // the durable ones among the run kinds
    if (is_durable(static_cast<kind>(k))) durable.call<void>("push", static_cast<int>(k));
  c.set("durableKinds", durable);
  return c;
}

bool nipxx_rumor_content_is_payload(const std::string& content) { return rumor_content_is_payload(content); }

}  // namespace

EMSCRIPTEN_BINDINGS(nip_xx) {
  emscripten::function("nipxxValidatePayload", &nipxx_validate_payload);
  emscripten::class_<client_run_binding>("NipxxClientRun")
      .constructor<std::string, std::string, std::string, double>()
      .constructor<std::string, std::string, std::string, double, double>()
      .function("onEvent", &client_run_binding::on_event)
      .function("start", &client_run_binding::start)
      .function("mayCancel", &client_run_binding::may_cancel)
      .function("cancelSent", &client_run_binding::cancel_sent)
      .function("nextDeadline", &client_run_binding::next_deadline)
      .function("handleTimeout", &client_run_binding::handle_timeout)
      .function("close", &client_run_binding::close)
      .function("closed", &client_run_binding::closed)
      .function("namesRun", &client_run_binding::names_run)
      .function("settleAt", &client_run_binding::settle_at)
      .function("terminalGrace", &client_run_binding::terminal_grace)
      .function("text", &client_run_binding::text)
      .function("degraded", &client_run_binding::degraded)
      .function("terminal", &client_run_binding::terminal);
  emscripten::function("nipxxDefaultInfo", &nipxx_default_info);
  emscripten::function("nipxxPromptEvent", &nipxx_prompt_event);
  emscripten::function("nipxxCancelEvent", &nipxx_cancel_event);
  emscripten::function("nipxxSelectInfo", &nipxx_select_info);
  emscripten::function("nipxxConstants", &nipxx_constants);
  emscripten::function("nipxxChoosePrivacy", &nipxx_choose_privacy);
  emscripten::function("nipxxRunFilter", &nipxx_run_filter);
  emscripten::function("nipxxSessionPromptFilters", &nipxx_session_prompt_filters);
  emscripten::function("nipxxSessionTerminalFilters", &nipxx_session_terminal_filters);
  emscripten::function("nipxxRumorContentIsPayload", &nipxx_rumor_content_is_payload);
}

}  // namespace nostr::bindings
