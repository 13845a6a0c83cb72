#include "nips/nip21.hpp"

namespace nostr::nip21 {
namespace {

char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c + 32) : c; }

bool starts_with_ci(std::string_view s, std::string_view prefix) {
  if (s.size() < prefix.size()) return false;
  for (std::size_t i = 0; i < prefix.size(); ++i)
    if (lower(s[i]) != prefix[i]) return false;
  return true;
}

}  // namespace

bool is_nsec(std::string_view entity) { return starts_with_ci(entity, "nsec1"); }

result<nip19::entity> parse(std::string_view uri) {
  if (!starts_with_ci(uri, kScheme)) return make_error(errc::nip21_invalid, "a NIP-21 URI starts with nostr:");
  std::string_view entity = uri.substr(kScheme.size());
  if (is_nsec(entity)) return make_error(errc::nip21_invalid, "a nostr: URI never carries an nsec (NIP-21)");
  return nip19::decode(entity);
}

}  // namespace nostr::nip21
