#include "protocols/nip_xx/agent_info.hpp"

#include "protocols/nip_xx/payload.hpp"
#include "protocols/nip_xx/tags.hpp"

namespace nostr::nip_xx {

result<outgoing> info_event(std::string_view d, std::string_view info_json) {
  if (d.empty()) return make_error(errc::invalid_argument, "d must be a non-empty string");
  auto ok = validate_payload(static_cast<std::int64_t>(kind::info), info_json);
  if (!ok) return ok.err();
  return outgoing{kind::info, info_tags(d), std::string(info_json)};
}

}  // namespace nostr::nip_xx
