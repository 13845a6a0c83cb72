// NIP-21 `nostr:` URIs: the scheme followed by a NIP-19 entity, "except nsec". A secret key in a
// URI is refused before it is decoded (it would end up in links, logs and clipboards).
#pragma once
#include <string_view>

#include "nips/nip19.hpp"
#include "util/result.hpp"

namespace nostr::nip21 {

constexpr std::string_view kScheme = "nostr:";

// nostr:<npub|note|nprofile|nevent|naddr>; the scheme in any case (RFC 3986 schemes are
// case-insensitive), the entity as nip19::decode reads it. NIP21_INVALID without the scheme or for
// an nsec; the NIP-19 error of the entity otherwise (BECH32_*, TLV_INVALID).
result<nip19::entity> parse(std::string_view uri);

// True when `entity` (without the scheme) starts with "nsec1", in either case.
bool is_nsec(std::string_view entity);

}  // namespace nostr::nip21
