// NIP-XX tag rules ("Event Formats" tag tables and "Validation and failure rules"), and the
// builders of each kind's tags.
#pragma once
#include <optional>
#include <string>
#include <string_view>

#include "event/event.hpp"
#include "protocols/nip_xx/kinds.hpp"
#include "util/result.hpp"

namespace nostr::nip_xx {

// What the tags of a NIP-XX event say, once checked.
struct run_tags {
  std::string p;                      // recipient: the agent on prompt/cancel, the client otherwise
  std::optional<std::string> root;    // prompt id from ["e", id, relay, "root"] (non-prompt kinds)
  std::optional<std::string> session; // s tag
  std::optional<std::string> tool;    // tool hint (tool_call)
  std::optional<std::string> phase;   // phase hint (tool_call)
  std::optional<std::string> d;       // ai.info identifier
};

// Checks the tags of event e of kind k:
// - p (64 lowercase hex) required on every kind but ai.info -> else INVALID_SCHEMA;
// - encryption required on encrypted kinds; a value other than "nip44" -> UNSUPPORTED_ENCRYPTION;
// - non-prompt run events and cancel need an e tag with marker "root" and a 64-hex id;
// - s, when present, is a non-empty string; d required (non-empty) on ai.info.
result<run_tags> check_tags(const event& e);

// The session id used when `s` is absent: "sender:<lowercase hex client pubkey>" (Definitions,
// Session). Both sides derive it from the client's pubkey, so they agree.
std::string default_session(std::string_view client_pubkey_hex);

// The session of a run event: its s tag, else the default for the client.
std::string session_of(const run_tags& t, std::string_view client_pubkey_hex);

// Tag lists for the events each side sends.
tag_list prompt_tags(std::string_view agent_pubkey, const std::optional<std::string>& session);
tag_list cancel_tags(std::string_view agent_pubkey, std::string_view prompt_id,
                     const std::optional<std::string>& session);
// Agent -> client run events (status, delta, response, tool_call, error).
tag_list run_event_tags(std::string_view client_pubkey, std::string_view prompt_id,
                        const std::optional<std::string>& session,
                        const std::optional<std::string>& tool_hint = std::nullopt,
                        const std::optional<std::string>& phase_hint = std::nullopt);
tag_list info_tags(std::string_view d);

}  // namespace nostr::nip_xx
