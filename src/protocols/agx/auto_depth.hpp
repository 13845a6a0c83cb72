// Automated-reply depth (SPEC.md "Automated-reply depth (normative)"): an automated reply carries
// the inbound depth + 1 (absent or unusable counts as 0, see payload.hpp); a reply whose depth
// would exceed the ceiling is not sent (delivery and receipts are unaffected: the ceiling bounds
// replies only); and, because autoDepth is sender-declared, a local bound per conversation and per
// peer that a fresh contextId cannot shed. A human touching a conversation resets it.
#pragma once
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>

#include "protocols/agx/constants.hpp"

namespace nostr::agx {

// The autoDepth of an automated reply to a message of depth `inbound_depth` (clamped to 0..255).
int reply_depth(int inbound_depth);

// Whether that reply stays within `ceiling`.
bool within_ceiling(int inbound_depth, int ceiling = kDefaultAutoDepthCeiling);

struct auto_reply_limits {
  int ceiling = kDefaultAutoDepthCeiling;
  std::uint32_t per_conversation = 8;  // automated replies per (peer, conversation) until a human reset
  std::uint32_t per_peer = 32;         // automated replies per peer within peer_window
  std::int64_t peer_window = 3600;
  std::int64_t idle_forget = 7 * 24 * 3600;  // a conversation quiet this long is forgotten
  std::size_t max_tracked = 10000;           // peers and conversations kept in memory
};

enum class auto_reply_verdict {
  allowed,             // send it (recorded)
  depth_ceiling,       // its autoDepth would exceed the ceiling
  conversation_bound,  // too many automated replies in this conversation since a human touched it
  peer_bound,          // too many automated replies to this peer in the window
};

const char* auto_reply_verdict_name(auto_reply_verdict v);

// Refusals are for the local operator, never the peer (SPEC.md: SHOULD surface to its own operator).
class auto_reply_limiter {
 public:
  explicit auto_reply_limiter(auto_reply_limits limits = {}) : limits_(limits) {
    if (limits_.max_tracked < 2) limits_.max_tracked = 2;  // one peer and one conversation
  }

  // Checks one automated reply to `peer` in `conversation` answering a message of depth
  // `inbound_depth`; when allowed, counts it.
  auto_reply_verdict try_reply(std::string_view peer, std::string_view conversation, int inbound_depth,
                               std::int64_t now);

  // A human authored, approved or asked for a message in this conversation: its count restarts.
  void human_reset(std::string_view peer, std::string_view conversation);
  // A human cleared a peer: its window count and all its conversations restart.
  void reset_peer(std::string_view peer);

  std::size_t tracked() const { return conversations_.size() + peers_.size(); }
  const auto_reply_limits& limits() const { return limits_; }

 private:
  struct counter {
    std::uint32_t count = 0;
    std::int64_t since = 0;  // window start (peers) or last activity (conversations)
  };
  using conv_key = std::pair<std::string, std::string>;
  void make_room(std::int64_t now, std::size_t needed);

  auto_reply_limits limits_;
  std::map<conv_key, counter> conversations_;
  std::map<std::string, counter> peers_;
};

}  // namespace nostr::agx
