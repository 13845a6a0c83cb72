// NIP-05 internet identifiers: [name@]domain names https://<domain>/.well-known/nostr.json?name=<name>,
// whose "names" object maps the name to a hex public key and whose optional "relays" object lists,
// per key, relays where that key publishes.
//
// The fetch is the host's (js/nip05-fetch.js: https only, a public host by DNS too, no redirects,
// at most kMaxResponseBytes, a timeout); the core parses the identifier, refuses hosts that are not
// public by their spelling (IP literals, single labels, local-only names: a NIP-05 lookup must not
// become a request into the user's own network), gives the URL and reads the response.
#pragma once
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "util/result.hpp"

namespace nostr::nip05 {

constexpr std::size_t kMaxLength = 253;
constexpr std::size_t kMaxResponseBytes = 100000;

struct address {
  std::string name;    // case kept: nostr.json keys are matched exactly; "_" for a bare domain
  std::string domain;  // lowercased
};

// [name@]domain. name: one or more of [A-Za-z0-9._-] (NIP-05 allows a-z0-9-_.; upper case is kept
// as written, since servers key their names exactly); left out, it is "_" (NIP-05 "Root
// Identifiers"). domain: a dotted DNS name of [a-z0-9-] labels (any case in, lowercased out; 1..63
// characters, no edge hyphen, at least two labels), not an IP literal and not a local-only name
// (localhost, .local, .localhost, .internal, .home.arpa). At most kMaxLength characters.
// NIP05_INVALID otherwise.
result<address> parse(std::string_view identifier);

// True when `domain` (lowercase) is a public DNS name by its spelling, as parse() requires.
bool is_public_domain(std::string_view domain);

// https://<domain>/.well-known/nostr.json?name=<name> (the name needs no escaping).
std::string url(const address& a);

struct profile {
  std::string pubkey;               // lowercase hex
  std::vector<std::string> relays;  // the ws(s) URLs of relays[<pubkey>], as written
};

// The pubkey a nostr.json body maps `name` to, lowercase hex (read_response's checks and codes,
// without the relays: what a verifier needs).
result<std::string> read_pubkey(std::string_view body, std::string_view name);

// What a nostr.json body says of `name`. NIP05_RESPONSE_INVALID when the body is over
// kMaxResponseBytes, not a JSON object, has no "names" object, or maps the name to anything but
// 64 hex characters; NIP05_NOT_FOUND when the name is not there. relays: the strings of
// relays[<pubkey as written>] (else relays[<lowercase pubkey>]) that are ws:// or wss:// URLs;
// anything else there is skipped (a hint, never a reason to refuse the mapping).
result<profile> read_response(std::string_view body, std::string_view name);

// Every name -> pubkey pair of a body's "names" (pubkeys lowercased; entries that are not a hex
// pubkey skipped), sorted by name: what a search of a domain shows.
// NIP05_RESPONSE_INVALID as above.
result<std::vector<std::pair<std::string, std::string>>> read_names(std::string_view body);

}  // namespace nostr::nip05
