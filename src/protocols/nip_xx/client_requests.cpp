#include "protocols/nip_xx/client_requests.hpp"

#include "nips/nip59.hpp"
#include "protocols/nip_xx/constants.hpp"
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

result<privacy_profile> choose_privacy(privacy_wish wish, const info_payload& info) {
  if (wish == privacy_wish::nip44) return privacy_profile::nip44;
  bool supported = info.supports_nip59.value_or(false);
  if (supported) return privacy_profile::nip59;
  if (wish == privacy_wish::nip59)
    return make_error(errc::xx_unsupported_feature, "the agent does not advertise supports_nip59 (privacy: nip59)");
  return privacy_profile::nip44;
}

namespace {

std::int64_t k(kind x) { return static_cast<std::int64_t>(x); }

}  // namespace

filter run_filter(privacy_profile profile, std::string_view agent_pubkey, std::string_view client_pubkey,
                  std::string_view prompt_id, std::int64_t prompt_created_at) {
  filter f;
  f.tags["p"] = {std::string(client_pubkey)};
  if (profile == privacy_profile::nip59) {
    f.kinds = std::vector<std::int64_t>{nip59::kGiftWrapKind};
    f.since = prompt_created_at - wrap_lookback_s;
    return f;
  }
  f.kinds = std::vector<std::int64_t>{k(kind::status), k(kind::delta), k(kind::response), k(kind::tool_call), k(kind::error)};
  f.tags["e"] = {std::string(prompt_id)};
  f.authors = std::vector<std::string>{std::string(agent_pubkey)};
  return f;
}

std::vector<filter> session_prompt_filters(std::string_view agent_pubkey, std::string_view client_pubkey,
                                           std::string_view session_id) {
  filter f;
  f.kinds = std::vector<std::int64_t>{k(kind::prompt)};
  f.tags["s"] = {std::string(session_id)};
  f.tags["p"] = {std::string(agent_pubkey)};
  f.authors = std::vector<std::string>{std::string(client_pubkey)};
  std::vector<filter> out{f};
  if (session_id == default_session(client_pubkey)) {
    f.tags.erase("s");
    out.push_back(std::move(f));
  }
  return out;
}

std::vector<filter> session_terminal_filters(std::string_view agent_pubkey, std::string_view client_pubkey,
                                             std::string_view session_id, const std::vector<std::string>& prompt_ids,
                                             std::size_t chunk) {
  filter base;
  base.kinds = std::vector<std::int64_t>{k(kind::response), k(kind::error)};
  base.tags["p"] = {std::string(client_pubkey)};
  base.authors = std::vector<std::string>{std::string(agent_pubkey)};
  std::vector<filter> out;
  filter by_session = base;
  by_session.tags["s"] = {std::string(session_id)};
  out.push_back(std::move(by_session));
  if (chunk == 0) chunk = 1;
  for (std::size_t i = 0; i < prompt_ids.size(); i += chunk) {
    filter f = base;
    f.tags["e"] = std::vector<std::string>(prompt_ids.begin() + static_cast<std::ptrdiff_t>(i),
                                           prompt_ids.begin() + static_cast<std::ptrdiff_t>(std::min(prompt_ids.size(), i + chunk)));
    out.push_back(std::move(f));
  }
  return out;
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
