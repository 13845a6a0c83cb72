// Agent Cards (SPEC.md "Event kinds": kind 11337, replaceable, unencrypted, signed by the agent;
// the reference's discovery.ts for the fields): build the content and the event template, and
// parse and validate a peer's card with the reference's caps, since it is attacker-controlled
// JSON feeding capability matching and relay dials. Cards are public: publishing one is the
// host's explicit choice (advertising is opt-in).
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "event/event.hpp"
#include "util/result.hpp"

namespace nostr::agx {

constexpr std::size_t kMaxCardOrg = 200;
constexpr std::size_t kMaxCardCapabilities = 64;
constexpr std::size_t kMaxCardCapability = 200;
constexpr std::size_t kMaxCardRelays = 10;
constexpr std::size_t kMaxCardRelay = 512;
constexpr std::size_t kMaxCardDisplayName = 120;
constexpr const char* kCardVersion = "1.0.0";

struct card_fields {
  std::string org;
  std::string pubkey_hex;             // the agent's key (written as npub)
  std::optional<std::string> nip05;   // claimed name@domain, unverified as published
  std::vector<std::string> relays;    // ws:// or wss:// URLs
  std::vector<std::string> capabilities;
  std::vector<std::string> payload_types{"application/a2a+json", "application/agx-task+json"};
  std::vector<std::string> encryption{"nip44"};
};

// {"v":1,"org":..,"npub":..,"nip05":..|null,"relays":[..],"capabilities":[..],
//  "payloadTypes":[..],"encryption":[..],"version":"1.0.0"}, after checking the caps (org at most
// 200 characters, a valid NIP-05 identifier, at most 64 capabilities of 1..200 characters, at most
// 10 relay URLs). AGX_CARD_INVALID, INVALID_PUBLIC_KEY, INVALID_UTF8.
result<std::string> card_content_json(const card_fields& f);

// The kind 11337 template: content as above, tags [["nip05", id]] when a nip05 is claimed.
result<event_template> card_template(const card_fields& f, std::int64_t now);

struct peer_card {
  std::string pubkey;  // the signer: the card speaks for this key only
  std::int64_t created_at = 0;
  std::optional<std::string> org;
  std::optional<std::string> display_name;  // org cut to 120 characters
  std::optional<std::string> nip05;         // claimed; verify with nip05.hpp before trusting
  std::vector<std::string> capabilities;
  std::vector<std::string> relays;          // as advertised; the host still guards each dial
  std::vector<std::string> payload_types;   // string entries only
};

// A peer's card: verify() (id, signature; their codes pass through), kind 11337, content a JSON
// object with org/nip05 null or strings within the caps, capabilities and relays null or arrays of
// strings within the caps, and an npub, when present, naming the signer. AGX_CARD_INVALID.
result<peer_card> parse_card(const event& e);

// NIP-09 retraction of our own cards (kind 5): tags [["e",id]...,["k","11337"]] (the k tag lets a
// relay apply it to the replaceable card), content = reason. Best-effort by nature: relays need
// not honor it. INVALID_ARGUMENT for no ids or an id that is not 64 lowercase hex.
result<event_template> card_retraction_template(const std::vector<std::string>& card_event_ids,
                                                std::string_view reason, std::int64_t now);

}  // namespace nostr::agx
