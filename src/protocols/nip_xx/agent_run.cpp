#include "protocols/nip_xx/agent_run.hpp"

#include <algorithm>

#include "protocols/nip_xx/envelope.hpp"
#include "protocols/nip_xx/tags.hpp"

namespace nostr::nip_xx {

agent_run::agent_run(std::string prompt_id, std::string client_pubkey, std::optional<std::string> session,
                     info_payload info, bool privacy_first)
    : prompt_id_(std::move(prompt_id)),
      client_(std::move(client_pubkey)),
      session_(std::move(session)),
      info_(std::move(info)),
      privacy_first_(privacy_first) {}

result<void> agent_run::open() const {
  if (finished_) return make_error(errc::invalid_argument, "the run already ended");
  return {};
}

tag_list agent_run::tags(const std::optional<std::string>& tool, const std::optional<std::string>& phase) const {
  return run_event_tags(client_, prompt_id_, session_, tool, phase);
}

result<outgoing> agent_run::status(const std::string& state, std::optional<std::int64_t> progress,
                                   std::optional<std::string> info) {
  NOSTR_TRY(open());
  status_payload p{state, progress, std::move(info)};
  // Validate what we send by the same rules we apply to what we receive.
  auto checked = parse_status(to_json(p));
  if (!checked) return checked.err();
  return outgoing{kind::status, tags(), to_json(p)};
}

result<outgoing> agent_run::delta(const std::string& text, std::optional<std::int64_t> timestamp, std::int64_t now) {
  NOSTR_TRY(open());
  delta_payload p{text_for_wire(kind::delta, text, timestamp.value_or(now)), seq_, timestamp};
  ++seq_;
  return outgoing{kind::delta, tags(), to_json(p)};
}

result<outgoing> agent_run::tool_call(tool_call_payload call) {
  NOSTR_TRY(open());
  if (call.name && std::find(info_.tool_names.begin(), info_.tool_names.end(), *call.name) == info_.tool_names.end())
    return make_error(errc::xx_unsupported_feature, "tool " + *call.name + " is not advertised by this agent");
  if (privacy_first_) {
    call.arguments.reset();
    call.output.reset();
  }
  std::string plaintext = to_json(call);
  auto checked = parse_tool_call(plaintext);
  if (!checked) return checked.err();
  return outgoing{kind::tool_call, tags(call.name, call.phase), std::move(plaintext)};
}

result<outgoing> agent_run::respond(const std::string& text, std::optional<usage_info> usage,
                                    std::optional<std::int64_t> timestamp, std::int64_t now) {
  NOSTR_TRY(open());
  if (text.empty() && seq_ == 0) return fail(errc::xx_empty_response, "the agent produced no response");
  finished_ = true;
  response_payload p{text_for_wire(kind::response, text, timestamp.value_or(now)), timestamp, usage};
  return outgoing{kind::response, tags(), to_json(p)};
}

result<outgoing> agent_run::fail(errc code, const std::string& message, std::optional<std::int64_t> retry_after,
                                 std::optional<json> details) {
  NOSTR_TRY(open());
  std::string name = errc_name(code);
  if (!is_protocol_error_code(name)) return make_error(errc::invalid_argument, "not a NIP-XX error code");
  finished_ = true;
  error_payload p{name, message.empty() ? name : message, retry_after, std::move(details)};
  return outgoing{kind::error, tags(), to_json(p)};
}

std::optional<outgoing> agent_run::cancel() {
  if (finished_ || cancel_requested_) return std::nullopt;  // idempotent; no-op after the terminal
  cancel_requested_ = true;
  auto out = fail(errc::xx_cancelled, "run cancelled by the client");
  if (!out) return std::nullopt;
  return std::move(*out);
}

}  // namespace nostr::nip_xx
