// NIP-05 for Agent Cards: a card's claimed name@domain is trusted only when
// https://<domain>/.well-known/nostr.json?name=<name> maps the name back to the card's pubkey.
// The rules are NIP-05's (src/nips/nip05.hpp: identifier, public host by its spelling, URL,
// response); AGX adds that the name is required and reports its own codes. The fetch (https only,
// public host by DNS, no redirects, at most kMaxNip05ResponseBytes, 5 s timeout) is the host's.
#pragma once
#include <cstddef>
#include <string>
#include <string_view>

#include "nips/nip05.hpp"
#include "util/result.hpp"

namespace nostr::agx {

constexpr std::size_t kMaxNip05Length = nip05::kMaxLength;
constexpr std::size_t kMaxNip05ResponseBytes = nip05::kMaxResponseBytes;

using nip05_address = nip05::address;

// A host name a public service can have, by its spelling alone: a dotted DNS name of [a-z0-9-]
// labels (1..63 characters, no edge hyphen, lowercase), not an IP literal and not a local-only name
// (localhost, .local, .localhost, .internal, .home.arpa). Shared with the relay-list rules
// (relay_routes.hpp). A name can still resolve to a private address: the host checks DNS where it can.
bool public_dns_name(std::string_view name);

// name@domain as nip05::parse reads it, the name required. AGX_NIP05_INVALID otherwise.
result<nip05_address> parse_nip05(std::string_view identifier);

// https://<domain>/.well-known/nostr.json?name=<name> (the name needs no escaping).
inline std::string nip05_url(const nip05_address& a) { return nip05::url(a); }

// The pubkey a nostr.json body maps `name` to, lowercase hex. AGX_NIP05_RESPONSE_INVALID when
// nip05::read_pubkey refuses the body or does not find the name.
result<std::string> nip05_pubkey(std::string_view body, std::string_view name);

// True when the body maps the address's name to pubkey_hex (compared case-insensitively).
bool nip05_verifies(std::string_view body, const nip05_address& a, std::string_view pubkey_hex);

}  // namespace nostr::agx
