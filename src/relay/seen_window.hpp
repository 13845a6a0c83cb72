// A bounded memory of event ids already delivered, for dedupe across relays: the newest `cap` ids
// are remembered, each with its created_at (so a re-sent copy still advances the resubscribe
// point without trusting the copy's own fields).
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <unordered_map>
#include <vector>

#include "util/bytes.hpp"

namespace nostr::relay {

class seen_window {
 public:
  explicit seen_window(std::size_t cap) : cap_(cap == 0 ? 1 : cap) {}

  // created_at of a remembered id, or nothing.
  std::optional<std::int64_t> find(const bytes32& id) const;

  // Remembers id (no-op when already there). At capacity the oldest insertion is forgotten:
  // FIFO rather than LRU, since a hit does not make an id likelier to come again, and a ring
  // needs no per-entry links.
  void insert(const bytes32& id, std::int64_t created_at);

  std::size_t size() const { return index_.size(); }
  std::size_t cap() const { return cap_; }

 private:
  struct id_hash {
    std::size_t operator()(const bytes32& id) const {
      // Ids are SHA-256 outputs of verified events, so any 8 bytes are uniformly spread.
      std::uint64_t h;
      std::memcpy(&h, id.data(), sizeof h);
      return static_cast<std::size_t>(h);
    }
  };

  std::size_t cap_;
  std::vector<bytes32> ring_;  // grows to cap_, then next_ wraps
  std::size_t next_ = 0;
  std::unordered_map<bytes32, std::int64_t, id_hash> index_;
};

}  // namespace nostr::relay
