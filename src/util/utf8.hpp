// Strict UTF-8 (RFC 3629): no overlong forms, no surrogates, nothing above U+10FFFF.
// One checker for every parser that must refuse ill-formed text from a peer.
#pragma once
#include <string_view>

namespace nostr::utf8 {

bool valid(std::string_view s);

}  // namespace nostr::utf8
