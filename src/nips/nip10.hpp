// NIP-10 threads: what a kind 1 note's `e`, `q` and `p` tags say about the thread it belongs to.
//
// Marked `e` tags (["e", id, relay, "root"|"reply"|"mention", pubkey]) name the root and the
// parent; unmarked ones are positional (deprecated, still on the network): the first is the root,
// the last the parent, those between mentions; one alone is both. A missing root falls back to the
// parent and the other way round. `q` tags are quotes (an event id, or an event address
// "<kind>:<pubkey>:<d>"), `p` tags the people in the thread. Entries whose id or pubkey is not 64
// lowercase hex are skipped.
//
// Relay hints travel between an event and its author as nostr-tools 2.x has them travel: a
// reference whose author has a `p` tag gets that tag's relays, and the author's profile gets the
// reference's (folded in the order nostr-tools folds them, so the hints come out the same).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "event/event.hpp"

namespace nostr::nip10 {

struct event_pointer {
  std::string id;                     // 64 lowercase hex
  std::vector<std::string> relays;    // the tag's relay hint (if not empty), then the author's
  std::optional<std::string> author;  // the tag's pubkey, when it is 64 lowercase hex
};

struct address_pointer {  // a `q` tag naming "<kind>:<pubkey>:<d>"
  std::uint32_t kind = 0;
  std::string pubkey;
  std::string identifier;
  std::vector<std::string> relays;
};

struct quote {
  std::optional<event_pointer> event;  // set for an event id,
  std::optional<address_pointer> address;  // or this for an address
};

struct profile_pointer {
  std::string pubkey;
  std::vector<std::string> relays;
};

struct thread {
  std::optional<event_pointer> root;
  std::optional<event_pointer> reply;   // the root itself for a direct reply to it
  std::vector<event_pointer> mentions;   // in tag order
  std::vector<quote> quotes;             // in tag order
  std::vector<profile_pointer> profiles; // in tag order
};

// Reads a note's tags. Never fails: tags it cannot read are not references.
thread parse(const tag_list& tags);

}  // namespace nostr::nip10
