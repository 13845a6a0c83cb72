// NIP-05 for Agent Cards: a card's claimed name@domain is trusted only when
// https://<domain>/.well-known/nostr.json?name=<name> maps the name back to the card's pubkey.
// The fetch (https only, public host by DNS, no redirects, at most kMaxNip05ResponseBytes, 5 s
// timeout) is the host's; the core parses the identifier, gives the URL, rejects host names that
// are not public by their spelling, and reads and compares the response.
#pragma once
#include <cstddef>
#include <string>
#include <string_view>

#include "util/result.hpp"

namespace nostr::agx {

constexpr std::size_t kMaxNip05Length = 253;
constexpr std::size_t kMaxNip05ResponseBytes = 100000;

struct nip05_address {
  std::string name;    // case kept: nostr.json keys are matched exactly
  std::string domain;  // lowercased
};

// A host name a public service can have, by its spelling alone: a dotted DNS name of [a-z0-9-]
// labels (1..63 characters, no edge hyphen, lowercase), not an IP literal and not a local-only name
// (localhost, .local, .localhost, .internal, .home.arpa). Shared with the relay-list rules
// (relay_routes.hpp). A name can still resolve to a private address: the host checks DNS where it can.
bool public_dns_name(std::string_view name);

// name@domain: name of [A-Za-z0-9._-], domain a dotted DNS name of [a-z0-9-] labels (1..63
// characters, no edge hyphen), not an IP literal and not a local-only name (localhost, .local,
// .localhost, .internal, .home.arpa). At most 253 characters. AGX_NIP05_INVALID otherwise.
result<nip05_address> parse_nip05(std::string_view identifier);

// https://<domain>/.well-known/nostr.json?name=<name> (the name needs no escaping).
std::string nip05_url(const nip05_address& a);

// The pubkey a nostr.json body maps `name` to, lowercase hex. AGX_NIP05_RESPONSE_INVALID when the
// body is over the byte cap, not a JSON object, has no "names" object, or the name is absent or
// mapped to anything but 64 hex characters.
result<std::string> nip05_pubkey(std::string_view body, std::string_view name);

// True when the body maps the address's name to pubkey_hex (compared case-insensitively).
bool nip05_verifies(std::string_view body, const nip05_address& a, std::string_view pubkey_hex);

}  // namespace nostr::agx
