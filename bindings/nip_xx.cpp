// NIP-XX glue, the client side: payload validation, the default info and the client run machine
// as an Embind class (with delete(); the JS wrapper adds a FinalizationRegistry backstop). The
// agent side (serveAgent) is in nip_xx_agent.cpp.
#include <emscripten/bind.h>

#include <variant>

#include "event/event.hpp"
#include "protocols/nip_xx/client_run.hpp"
#include "protocols/nip_xx/payload.hpp"
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

// A client run fed with received events (JSON text, signature already verified) and their
// decrypted content. Updates come back as plain objects.
class client_run_binding {
 public:
  // terminal_grace_ms < 0: the core's default.
  client_run_binding(std::string prompt_id, std::string agent, std::string client, double terminal_grace_ms)
      : run_(std::move(prompt_id), std::move(agent), std::move(client),
             terminal_grace_ms < 0 ? default_terminal_grace_ms : static_cast<std::int64_t>(terminal_grace_ms)) {}

  val on_event(const std::string& event_json, const std::string& plaintext, double now_ms) {
    auto e = parse_event(event_json);
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
    return o;
  }

  // ms, or null before the first terminal.
  val settle_at() const {
    auto at = run_.settle_at_ms();
    return at ? val(static_cast<double>(*at)) : val::null();
  }
  double terminal_grace() const { return static_cast<double>(run_.terminal_grace_ms()); }

  std::string text() const { return run_.text(); }
  bool degraded() const { return run_.degraded(); }
  int next_missing_seq() const {
    auto m = run_.next_missing_seq();
    return m ? static_cast<int>(*m) : -1;
  }
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

bool nipxx_rumor_content_is_payload(const std::string& content) { return rumor_content_is_payload(content); }

}  // namespace

EMSCRIPTEN_BINDINGS(nip_xx) {
  emscripten::function("nipxxValidatePayload", &nipxx_validate_payload);
  emscripten::class_<client_run_binding>("NipxxClientRun")
      .constructor<std::string, std::string, std::string, double>()
      .function("onEvent", &client_run_binding::on_event)
      .function("settleAt", &client_run_binding::settle_at)
      .function("terminalGrace", &client_run_binding::terminal_grace)
      .function("text", &client_run_binding::text)
      .function("degraded", &client_run_binding::degraded)
      .function("nextMissingSeq", &client_run_binding::next_missing_seq)
      .function("terminal", &client_run_binding::terminal);
  emscripten::function("nipxxDefaultInfo", &nipxx_default_info);
  emscripten::function("nipxxRumorContentIsPayload", &nipxx_rumor_content_is_payload);
}

}  // namespace nostr::bindings
