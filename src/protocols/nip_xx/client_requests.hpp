// What the client sends and reads before a run: the prompt and the cancel (kind, tags and the
// payload to encrypt), and the choice of an agent's ai.info among what the relays return.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "event/event.hpp"
#include "event/filter.hpp"
#include "protocols/nip_xx/outgoing.hpp"
#include "protocols/nip_xx/payload.hpp"
#include "util/result.hpp"

namespace nostr::nip_xx {

// ai.prompt to agent_pubkey: the payload (JSON text) validated as the agent will validate it
// (PARSE_ERROR / INVALID_SCHEMA), sent in canonical form. The session is always tagged, the
// default one too ("sender:<client>"), so the seed's recovery filter
// {"kinds":[25802],"#s":[...],"#p":[agent]} run by any other client finds the prompt.
result<outgoing> prompt_event(std::string_view agent_pubkey, std::string_view client_pubkey,
                              const std::optional<std::string>& session, std::string_view payload_json);

// ai.cancel of the run prompt_id, with reason user_cancel | timeout | policy (else INVALID_SCHEMA).
result<outgoing> cancel_event(std::string_view agent_pubkey, std::string_view client_pubkey,
                              std::string_view prompt_id, const std::optional<std::string>& session,
                              std::string_view reason);

// The privacy profile of a run: NIP-44 events, or every run event gift-wrapped (NIP-59).
enum class privacy_profile { nip44, nip59 };
// What the client asked for: the default profile, NIP-59 only, or whatever ai.info allows.
enum class privacy_wish { nip44, nip59, automatic };
// Whether the wish needs the agent's ai.info before the prompt goes out (Model and schema
// negotiation: "clients use ai.info before prompts"; the default profile needs nothing from it).
inline bool needs_info(privacy_wish w) { return w != privacy_wish::nip44; }
// Protocol Flow 2: "if supports_nip59 and privacy desired: use NIP-59 wrappers". info: the agent's
// newest valid ai.info, or default_info() when it publishes none. A nip59 wish with an agent that
// does not advertise supports_nip59 is UNSUPPORTED_FEATURE (the prompt is not sent in the clear).
result<privacy_profile> choose_privacy(privacy_wish wish, const info_payload& info);

// The client's subscription to one run's events (opened before the prompt goes out: they are
// ephemeral on ordinary relays). NIP-44 profile: the run's kinds from the agent, #p client, #e the
// prompt. NIP-59: the wraps addressed to the client (a wrap shows only its p tag and kind), from
// prompt_created_at - wrap_lookback_s on (wraps are dated up to two days back).
filter run_filter(privacy_profile profile, std::string_view agent_pubkey, std::string_view client_pubkey,
                  std::string_view prompt_id, std::int64_t prompt_created_at);

// Session recovery recipe: the client's prompts of a session to agent_pubkey, by #s and #p agent;
// for the default session (sender:<client>) also the untagged prompts of older clients.
std::vector<filter> session_prompt_filters(std::string_view agent_pubkey, std::string_view client_pubkey,
                                           std::string_view session_id);
// The terminals of those runs: by #s, and by #e root in chunks of at most `chunk` prompt ids.
std::vector<filter> session_terminal_filters(std::string_view agent_pubkey, std::string_view client_pubkey,
                                             std::string_view session_id, const std::vector<std::string>& prompt_ids,
                                             std::size_t chunk = 100);

// Whether e is a valid ai.info of agent_pubkey: kind 31340, that author, a d tag, a payload the
// schema accepts.
bool is_valid_info(const event& e, std::string_view agent_pubkey);

// Of the candidates, the index of the newest valid ai.info of agent_pubkey by (created_at, id)
// ("Clients cache the newest valid ai.info"), or nullopt when none is valid.
std::optional<std::size_t> select_info(const std::vector<event>& candidates, std::string_view agent_pubkey);

}  // namespace nostr::nip_xx
