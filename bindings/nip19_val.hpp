// The JS value of a decoded NIP-19 entity, in nostr-tools' shapes (nip19.decode's `data`): shared
// by the NIP-19, NIP-21 and NIP-27 glue.
#pragma once
#include <emscripten/val.h>

#include "nips/nip19.hpp"

namespace nostr::bindings {

// npub/note: hex string; nsec: Uint8Array; nprofile {pubkey, relays}; nevent {id, relays, author,
// kind} (author and kind present as keys even when absent); naddr {identifier, pubkey, kind, relays}.
emscripten::val nip19_data(const nip19::entity& e);

}  // namespace nostr::bindings
