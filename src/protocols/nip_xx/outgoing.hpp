// An event one side of a run sends: its kind, tags and the plaintext to encrypt to the peer
// (then the driver signs and publishes it, or gift-wraps it in the privacy-first profile).
#pragma once
#include <string>

#include "event/event.hpp"
#include "protocols/nip_xx/kinds.hpp"

namespace nostr::nip_xx {

struct outgoing {
  kind k;
  tag_list tags;
  std::string plaintext;
};

}  // namespace nostr::nip_xx
