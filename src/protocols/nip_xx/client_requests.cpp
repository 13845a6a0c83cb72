#include "protocols/nip_xx/client_requests.hpp"

#include "protocols/nip_xx/tags.hpp"

namespace nostr::nip_xx {

result<outgoing> prompt_event(std::string_view agent_pubkey, std::string_view client_pubkey,
                              const std::optional<std::string>& session, std::string_view payload_json) {
  auto p = parse_prompt(payload_json);
  if (!p) return p.err();
  std::optional<std::string> s = session ? session : std::optional<std::string>(default_session(client_pubkey));
  return outgoing{kind::prompt, prompt_tags(agent_pubkey, s), to_json(*p)};
}

result<outgoing> cancel_event(std::string_view agent_pubkey, std::string_view client_pubkey,
                              std::string_view prompt_id, const std::optional<std::string>& session,
                              std::string_view reason) {
  if (!is_cancel_reason(reason))
    return make_error(errc::xx_invalid_schema, "cancel reason must be user_cancel, timeout or policy");
  cancel_payload p{std::string(reason)};
  std::optional<std::string> s = session ? session : std::optional<std::string>(default_session(client_pubkey));
  return outgoing{kind::cancel, cancel_tags(agent_pubkey, prompt_id, s), to_json(p)};
}

bool is_valid_info(const event& e, std::string_view agent_pubkey) {
  if (e.kind != static_cast<std::int64_t>(kind::info) || e.pubkey != agent_pubkey) return false;
  if (!check_tags(e)) return false;  // the d tag
  return static_cast<bool>(validate_payload(e.kind, e.content));
}

std::optional<std::size_t> select_info(const std::vector<event>& candidates, std::string_view agent_pubkey) {
  std::optional<std::size_t> best;
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    const event& e = candidates[i];
    if (!is_valid_info(e, agent_pubkey)) continue;
    if (best) {
      const event& b = candidates[*best];
      bool newer = e.created_at != b.created_at ? e.created_at > b.created_at : e.id > b.id;
      if (!newer) continue;
    }
    best = i;
  }
  return best;
}

}  // namespace nostr::nip_xx
