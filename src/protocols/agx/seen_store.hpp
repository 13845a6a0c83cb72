// Replay protection (SPEC.md "Correlation & replay"): every inbound message and receipt is
// processed at most once by rumor id, and wrap ids are recorded too (of everything processed and of
// every wrap that could not be opened or trusted), so a re-scanned window costs a lookup, not a
// decryption. Ids are kept until an expiry the caller sets from `now` (sans-IO), at least as long
// as the poll window (overlap + kMaxWrapBackdate).
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "protocols/agx/constants.hpp"
#include "util/bytes.hpp"
#include "util/result.hpp"

namespace nostr::agx {

// The store interface. A durable host implementation (IndexedDB, a file) keeps the same contract.
// Single writer per identity: seen-then-mark is check-then-act.
class seen_store {
 public:
  virtual ~seen_store() = default;
  // True when id was marked with an expiry still after `now`.
  virtual bool seen(const bytes32& id, std::int64_t now) = 0;
  // Records id until expires_at; a second mark keeps the later expiry.
  virtual void mark(const bytes32& id, std::int64_t expires_at) = 0;
};

struct seen_entry {
  bytes32 id{};
  std::int64_t expires_at = 0;
};

// In-memory store: an id is forgotten at its expiry; a cap bounds memory (at the cap, the entry
// closest to expiry goes first, and evictions() counts it, so a host can tell that the cap, not
// time, is deciding). Changes since the last take_journal() are kept for a durable mirror.
class memory_seen_store final : public seen_store {
 public:
  explicit memory_seen_store(std::size_t cap = 200000);

  bool seen(const bytes32& id, std::int64_t now) override;
  void mark(const bytes32& id, std::int64_t expires_at) override;

  // Drops every entry expired by `now`; returns how many.
  std::size_t prune(std::int64_t now);

  std::size_t size() const { return expiry_.size(); }
  std::size_t cap() const { return cap_; }
  std::uint64_t evictions() const { return evictions_; }

  // --- Serialization hooks for a durable store.
  // Snapshot of the live entries: {"v":1,"seen":[["<64 hex>",<expires_at>],...]}, soonest expiry
  // first. Entries expired by `now` are left out.
  std::string snapshot_json(std::int64_t now) const;
  // Merges a snapshot (expired entries skipped). All or nothing: AGX_SEEN_SNAPSHOT_INVALID leaves
  // the store unchanged. Returns the number of entries taken.
  result<std::size_t> load_snapshot(std::string_view json, std::int64_t now);
  // Marks made since the last call, in order (for an incremental IndexedDB/file mirror). When more
  // than cap() accumulated, the journal is cut and journal_overflowed() says to write a snapshot.
  std::vector<seen_entry> take_journal();
  bool journal_overflowed() const { return journal_overflowed_; }

 private:
  struct id_hash {
    std::size_t operator()(const bytes32& id) const {
      std::uint64_t h;  // ids are SHA-256 outputs: any 8 bytes are spread evenly
      std::memcpy(&h, id.data(), sizeof h);
      return static_cast<std::size_t>(h);
    }
  };
  void insert(const bytes32& id, std::int64_t expires_at);

  std::size_t cap_;
  std::unordered_map<bytes32, std::int64_t, id_hash> expiry_;
  std::set<std::pair<std::int64_t, bytes32>> by_expiry_;
  std::vector<seen_entry> journal_;
  bool journal_overflowed_ = false;
  std::uint64_t evictions_ = 0;
};

// The replay rules over any store: consult the wrap id before decrypting, the rumor id after
// opening, and record both once an event is processed (or the wrap alone when it was discarded).
class replay_guard {
 public:
  explicit replay_guard(seen_store& store, std::int64_t retention = kSeenRetention)
      : store_(store), retention_(retention) {}

  // Hex ids (64 characters, either case); a malformed id is never "known" (the event then fails
  // its own checks).
  bool known_wrap(std::string_view wrap_id_hex, std::int64_t now);
  bool known_rumor(std::string_view rumor_id_hex, std::int64_t now);
  // After a successful dispatch: both ids until now + retention.
  void processed(std::string_view rumor_id_hex, std::string_view wrap_id_hex, std::int64_t now);
  // A wrap that could not be opened or trusted (never a future-dated one: that is retried).
  void discarded(std::string_view wrap_id_hex, std::int64_t now);

 private:
  void mark_hex(std::string_view id_hex, std::int64_t now);
  seen_store& store_;
  std::int64_t retention_;
};

}  // namespace nostr::agx
