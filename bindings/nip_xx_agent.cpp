// NIP-XX glue, the agent side (serveAgent): the agent run machine and the admission gate as
// Embind classes (each with delete(); the JS wrappers add a FinalizationRegistry backstop), and
// info normalization. Apart from nip_xx.cpp so a client-only module (the built demo page's,
// cmake/wasm.cmake) links without them.
#include <emscripten/bind.h>

#include <set>
#include <variant>

#include "event/event.hpp"
#include "protocols/nip_xx/agent_admission.hpp"
#include "protocols/nip_xx/agent_info.hpp"
#include "protocols/nip_xx/agent_run.hpp"
#include "protocols/nip_xx/payload.hpp"
#include "nip_xx_event.hpp"
#include "nip_xx_outgoing.hpp"
#include "protocols/nip_xx/agent_inbox.hpp"
#include "protocols/nip_xx/constants.hpp"
#include "support.hpp"

namespace nostr::bindings {
namespace {

using namespace nostr::nip_xx;

class agent_run_binding {
 public:
  agent_run_binding(std::string prompt_id, std::string client, std::string session, const std::string& info_json,
                    bool privacy_first)
      : run_(std::move(prompt_id), std::move(client),
             session.empty() ? std::nullopt : std::optional<std::string>(std::move(session)), info_or_default(info_json),
             privacy_first) {}

  val status(const std::string& state, int progress, const std::string& info) {
    return outgoing_val(run_.status(state, progress < 0 ? std::nullopt : std::optional<std::int64_t>(progress),
                                    info.empty() ? std::nullopt : std::optional<std::string>(info)));
  }
  // now: seconds (the ts of an envelope that carries a text which would read as one).
  val delta(const std::string& text, double now) {
    return outgoing_val(run_.delta(text, std::nullopt, static_cast<std::int64_t>(now)));
  }
  val tool_call(const std::string& payload_json) {
    auto p = parse_tool_call(payload_json);
    if (!p) return fail(p.err());
    return outgoing_val(run_.tool_call(std::move(*p)));
  }
  val respond(const std::string& text, double input_tokens, double output_tokens, double now) {
    std::optional<usage_info> usage;
    if (input_tokens >= 0 && output_tokens >= 0)
      usage = usage_info{static_cast<std::int64_t>(input_tokens), static_cast<std::int64_t>(output_tokens)};
    return outgoing_val(run_.respond(text, usage, std::nullopt, static_cast<std::int64_t>(now)));
  }
  val fail_with(const std::string& code, const std::string& message, int retry_after) {
    errc c = errc::xx_internal_error;
    for (int i = 0; i <= static_cast<int>(errc::internal); ++i)
      if (code == errc_name(static_cast<errc>(i))) c = static_cast<errc>(i);
    return outgoing_val(run_.fail(c, message, retry_after > 0 ? std::optional<std::int64_t>(retry_after) : std::nullopt));
  }
  val cancel() {
    auto out = run_.cancel();
    if (!out) return val::null();
    return outgoing_val(result<outgoing>(std::move(*out)));
  }
  bool finished() const { return run_.finished(); }

 private:
  static info_payload info_or_default(const std::string& json) {
    auto info = parse_info(json);
    return info ? std::move(*info) : default_info();
  }
  agent_run run_;
};

// The agent's admission gate (allow/block lists, per-sender rate limit, schema, max_prompt_bytes,
// session turns, model and tool schema negotiation). Verdicts come back as plain objects:
// {ok: true, ...} or {ok: false, code, message, retryAfter}.
class admission_binding {
 public:
  admission_binding(std::string agent_pubkey, const std::string& info_json, val policy)
      : gate_(make_config(std::move(agent_pubkey), info_json, policy)) {}

  // Before decryption: tags, p == this agent, block/allow, rate limit. `now_ms`: the driver's clock.
  val screen(const val& received, double now_ms) {
    auto e = event_of(received, false);
    if (!e) return fail(e.err());
    auto v = gate_.screen(*e, seconds_of(static_cast<std::int64_t>(now_ms)));
    if (auto* r = std::get_if<rejection>(&v)) return rejected(*r);
    const auto& tags = std::get<run_tags>(v);
    val o = val::object();
    o.set("ok", true);
    o.set("session", session_of(tags, e->pubkey));
    o.set("addressed", tags.p == gate_.config().agent_pubkey);
    return o;
  }

  // An admitted run ended: its concurrency slot is free.
  void run_ended() { gate_.run_ended(); }

  // On the decrypted payload of a screened prompt.
  val admit(const val& received, const std::string& plaintext) {
    auto e = event_of(received, false);
    if (!e) return fail(e.err());
    auto tags = check_tags(*e);
    if (!tags) return rejected(rejection{tags.err().code, tags.err().detail, std::nullopt});
    auto v = gate_.admit(*e, *tags, plaintext);
    if (auto* r = std::get_if<rejection>(&v)) return rejected(*r);
    const auto& a = std::get<admitted_prompt>(v);
    val o = val::object();
    o.set("ok", true);
    o.set("session", a.session);
    o.set("message", a.prompt.message);
    if (a.model) o.set("model", *a.model);
    val fallbacks = val::array();
    for (const auto& m : a.fallback_models) fallbacks.call<void>("push", m);
    o.set("fallbackModels", fallbacks);
    if (a.prompt.thinking) o.set("thinking", *a.prompt.thinking);
    o.set("toolSchemaVersion", static_cast<double>(a.tool_schema_version));
    return o;
  }


 private:
  static val rejected(const rejection& r) {
    val o = val::object();
    o.set("ok", false);
    o.set("code", std::string(errc_name(r.code)));
    o.set("message", r.message);
    if (r.retry_after) o.set("retryAfter", static_cast<double>(*r.retry_after));
    return o;
  }
  static std::set<std::string> string_set(const val& arr) {
    std::set<std::string> out;
    const int n = arr["length"].as<int>();
    for (int i = 0; i < n; ++i) out.insert(arr[i].as<std::string>());
    return out;
  }
  static agent_config make_config(std::string agent_pubkey, const std::string& info_json, const val& policy) {
    agent_config c;
    c.agent_pubkey = std::move(agent_pubkey);
    if (!info_json.empty()) {
      auto info = parse_info(info_json);
      if (info) c.info = std::move(*info);
    }
    if (policy.isUndefined() || policy.isNull()) return c;
    val allow = policy["allow"];
    if (!allow.isUndefined() && !allow.isNull()) c.allow = string_set(allow);
    val block = policy["block"];
    if (!block.isUndefined() && !block.isNull()) c.block = string_set(block);
    val ppm = policy["promptsPerMinute"];
    if (ppm.isNumber()) c.prompts_per_minute = ppm.as<double>();
    val burst = policy["burst"];
    if (burst.isNumber()) c.burst = burst.as<double>();
    val turns = policy["maxSessionTurns"];
    if (turns.isNumber()) c.max_session_turns = static_cast<std::int64_t>(turns.as<double>());
    val concurrent = policy["maxConcurrent"];
    if (concurrent.isNumber()) c.max_concurrent = static_cast<std::size_t>(concurrent.as<double>());
    val tracked = policy["maxTracked"];
    if (tracked.isNumber()) c.max_tracked = static_cast<std::size_t>(tracked.as<double>());
    return c;
  }
  agent_admission gate_;
};

// The agent's inbox (prompt dedupe and freshness, cancel authorization). Clock readings in ms,
// like every `now` of js/agents; `since` and max_clock_skew in seconds (created_at's unit).
class inbox_binding {
 public:
  inbox_binding(std::string agent_pubkey, double since, double max_clock_skew)
      : inbox_(std::move(agent_pubkey), static_cast<std::int64_t>(since), static_cast<std::int64_t>(max_clock_skew)) {}

  double subscribe_since(double now_ms) const {
    return static_cast<double>(inbox_.subscribe_since(seconds_of(static_cast<std::int64_t>(now_ms))));
  }
  void go_live() { inbox_.go_live(); }
  bool live() const { return inbox_.live(); }
  val filters(double now_ms, bool nip59) const {
    return filters_val(inbox_.filters(seconds_of(static_cast<std::int64_t>(now_ms)), nip59));
  }

  // "handle" | "duplicate" | "not_addressed" | "stale" | "too_old", or undefined (not an event).
  // live: whether it (or its gift wrap) was delivered after EOSE (live() when it arrived).
  val on_prompt(const val& received, double now_ms, bool live) {
    auto e = event_of(received, false);
    if (!e) return fail(e.err());
    switch (inbox_.on_prompt(*e, seconds_of(static_cast<std::int64_t>(now_ms)), live)) {
      case prompt_disposition::handle: return val("handle");
      case prompt_disposition::duplicate: return val("duplicate");
      case prompt_disposition::not_addressed: return val("not_addressed");
      case prompt_disposition::stale: return val("stale");
      case prompt_disposition::too_old: return val("too_old");
    }
    return val("too_old");
  }
  void run_started(const std::string& prompt_id, const std::string& client) { inbox_.run_started(prompt_id, client); }
  void prompt_done(const std::string& prompt_id) { inbox_.prompt_done(prompt_id); }

  // "ignore" | "held" | "decrypt", or undefined (not an event).
  val on_cancel(const val& received) {
    auto e = event_of(received, true);  // held whole while its prompt is being admitted
    if (!e) return fail(e.err());
    switch (inbox_.on_cancel(*e)) {
      case cancel_disposition::ignore: return val("ignore");
      case cancel_disposition::held: return val("held");
      case cancel_disposition::decrypt: return val("decrypt");
    }
    return val("ignore");
  }
  // {promptId, reason} of the run to cancel, or null.
  val authorize_cancel(const val& received, const std::string& plaintext) const {
    auto e = event_of(received, false);
    if (!e) return val::null();
    auto ok = inbox_.authorize_cancel(*e, plaintext);
    if (!ok) return val::null();
    val o = val::object();
    o.set("promptId", ok->prompt_id);
    o.set("reason", ok->reason);
    return o;
  }
  // The held cancel (an event object) for prompt_id, or null.
  val take_held(const std::string& prompt_id) {
    auto e = inbox_.take_held(prompt_id);
    return e ? event_val(*e) : val::null();
  }

 private:
  agent_inbox inbox_;
};

// ai.info as the agent publishes it: {kind, tags, plaintext (the content)}, or undefined.
val nipxx_info_event(const std::string& d, const std::string& info_json) { return outgoing_val(info_event(d, info_json)); }


}  // namespace

EMSCRIPTEN_BINDINGS(nip_xx_agent) {
  emscripten::class_<agent_run_binding>("NipxxAgentRun")
      .constructor<std::string, std::string, std::string, std::string, bool>()
      .function("status", &agent_run_binding::status)
      .function("delta", &agent_run_binding::delta)
      .function("toolCall", &agent_run_binding::tool_call)
      .function("respond", &agent_run_binding::respond)
      .function("fail", &agent_run_binding::fail_with)
      .function("cancel", &agent_run_binding::cancel)
      .function("finished", &agent_run_binding::finished);
  emscripten::class_<admission_binding>("NipxxAdmission")
      .constructor<std::string, std::string, val>()
      .function("screen", &admission_binding::screen)
      .function("admit", &admission_binding::admit)
      .function("runEnded", &admission_binding::run_ended);
  emscripten::class_<inbox_binding>("NipxxAgentInbox")
      .constructor<std::string, double, double>()
      .function("subscribeSince", &inbox_binding::subscribe_since)
      .function("goLive", &inbox_binding::go_live)
      .function("live", &inbox_binding::live)
      .function("filters", &inbox_binding::filters)
      .function("onPrompt", &inbox_binding::on_prompt)
      .function("runStarted", &inbox_binding::run_started)
      .function("promptDone", &inbox_binding::prompt_done)
      .function("onCancel", &inbox_binding::on_cancel)
      .function("authorizeCancel", &inbox_binding::authorize_cancel)
      .function("takeHeld", &inbox_binding::take_held);
  emscripten::function("nipxxInfoEvent", &nipxx_info_event);
}

}  // namespace nostr::bindings
