// Replay protection (SPEC.md "Correlation & replay"): every inbound message and receipt is
// processed at most once by rumor id. Two tiers, because only one of them may decide a second run:
//   - processed ids (the rumor and wrap id of everything dispatched): kept until their expiry and
//     never forgotten before it. A full store refuses new work (AGX_OVERLOADED) rather than forget
//     one: forgetting lets the next poll re-fetch the request and run it again.
//   - a cache of wrap ids that passed the public checks and then did not open or check out, and of
//     new wraps of a rumor already processed: bounded, evicting (a miss costs a decryption, never a
//     second run), kept in memory only.
// A wrap that fails a public check (shape, one p tag, expiration, proof of work, id, signature) is
// recorded in neither: its id does not bind a signed content, so a forged copy of a real wrap's
// id would otherwise hide the real one, and junk would take the place of real ids. Ids are kept
// until an expiry the caller sets from `now` (sans-IO), at least as long as the poll window
// (overlap + kMaxWrapBackdate: check_poll_overlap).
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
  // Whether `n` new ids fit now (entries expired by `now` make room).
  virtual bool has_room(std::size_t n, std::int64_t now) = 0;
  // Records id until expires_at; a second mark keeps the later expiry. AGX_OVERLOADED when the id
  // is new and the store is full: nothing is forgotten before its expiry to make room.
  [[nodiscard]] virtual result<void> mark(const bytes32& id, std::int64_t expires_at, std::int64_t now) = 0;
};

struct seen_entry {
  bytes32 id{};
  std::int64_t expires_at = 0;
};

// What a full memory_seen_store does with a new id.
enum class when_full {
  refuse,  // AGX_OVERLOADED (processed ids: exactly-once depends on them)
  evict,   // forget the entry nearest its expiry, counted by evictions() (a cache)
};

// In-memory store: an id is forgotten at its expiry; a cap bounds memory. Changes since the last
// take_journal() are kept for a durable mirror (a refusing store's: a cache is not mirrored).
class memory_seen_store final : public seen_store {
 public:
  explicit memory_seen_store(std::size_t cap = kSeenCap, when_full policy = when_full::refuse);

  bool seen(const bytes32& id, std::int64_t now) override;
  bool has_room(std::size_t n, std::int64_t now) override;
  result<void> mark(const bytes32& id, std::int64_t expires_at, std::int64_t now) override;

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
  // the store unchanged. Returns the number of entries taken. Loaded entries were processed
  // already: they are taken beyond the cap (new marks are then refused until enough expire).
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
  // False when the id is new and there is no room (refuse policy).
  bool insert(const bytes32& id, std::int64_t expires_at, std::int64_t now, bool over_cap);

  std::size_t cap_;
  when_full policy_;
  std::unordered_map<bytes32, std::int64_t, id_hash> expiry_;
  std::set<std::pair<std::int64_t, bytes32>> by_expiry_;
  std::vector<seen_entry> journal_;
  bool journal_overflowed_ = false;
  std::uint64_t evictions_ = 0;
};

// The replay rules over a store of processed ids and a cache of discarded wraps: consult the wrap
// id before decrypting, the rumor id after opening, and record both once an event is processed
// (or the wrap alone, in the cache, when it was discarded after the public checks).
class replay_guard {
 public:
  replay_guard(seen_store& processed, memory_seen_store& discarded, std::int64_t retention = kSeenRetention)
      : processed_(processed), discarded_(discarded), retention_(retention) {}

  // Hex ids (64 characters, either case); a malformed id is never "known" (the event then fails
  // its own checks).
  bool known_wrap(std::string_view wrap_id_hex, std::int64_t now);
  bool known_rumor(std::string_view rumor_id_hex, std::int64_t now);
  // Whether an event can be processed now (room for its two ids). Checked before decrypting, so a
  // full store turns work away before paying for it.
  bool has_room(std::int64_t now) { return processed_.has_room(2, now); }
  // After a successful dispatch: both ids until max(now + retention, until) (until: the request
  // wrap's expiration for a task, whose record must outlive any poll that can still fetch it).
  // AGX_OVERLOADED, with nothing recorded, when they do not fit: the event must not be acted on.
  [[nodiscard]] result<void> processed(std::string_view rumor_id_hex, std::string_view wrap_id_hex, std::int64_t now,
                                       std::int64_t until = 0);
  // A wrap that passed the public checks and then was not processed: it did not open or check out,
  // or it is a new envelope of a rumor already processed. Cached (bounded, evicting).
  void discarded(std::string_view wrap_id_hex, std::int64_t now);

 private:
  seen_store& processed_;
  memory_seen_store& discarded_;
  std::int64_t retention_;
};

}  // namespace nostr::agx
