// What the client sends and reads before a run: the prompt and the cancel (kind, tags and the
// payload to encrypt), and the choice of an agent's ai.info among what the relays return.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "event/event.hpp"
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

// Whether e is a valid ai.info of agent_pubkey: kind 31340, that author, a d tag, a payload the
// schema accepts.
bool is_valid_info(const event& e, std::string_view agent_pubkey);

// Of the candidates, the index of the newest valid ai.info of agent_pubkey by (created_at, id)
// ("Clients cache the newest valid ai.info"), or nullopt when none is valid.
std::optional<std::size_t> select_info(const std::vector<event>& candidates, std::string_view agent_pubkey);

}  // namespace nostr::nip_xx
