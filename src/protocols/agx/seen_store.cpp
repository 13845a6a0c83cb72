#include "protocols/agx/seen_store.hpp"

#include <algorithm>

#include "event/event_json.hpp"
#include "util/hex.hpp"

namespace nostr::agx {

memory_seen_store::memory_seen_store(std::size_t cap, when_full policy) : cap_(cap == 0 ? 1 : cap), policy_(policy) {}

bool memory_seen_store::seen(const bytes32& id, std::int64_t now) {
  auto it = expiry_.find(id);
  return it != expiry_.end() && it->second > now;
}

bool memory_seen_store::has_room(std::size_t n, std::int64_t now) {
  if (expiry_.size() + n <= cap_) return true;
  prune(now);
  return expiry_.size() + n <= cap_;
}

bool memory_seen_store::insert(const bytes32& id, std::int64_t expires_at, std::int64_t now, bool over_cap) {
  auto it = expiry_.find(id);
  if (it != expiry_.end()) {
    if (it->second >= expires_at) return true;
    by_expiry_.erase({it->second, id});
    it->second = expires_at;
    by_expiry_.insert({expires_at, id});
    return true;
  }
  if (!over_cap && expiry_.size() >= cap_) {
    prune(now);
    if (expiry_.size() >= cap_) {
      if (policy_ == when_full::refuse) return false;
      // A cache: forget the entry nearest its expiry, the one whose loss re-opens the shortest window.
      auto first = by_expiry_.begin();
      expiry_.erase(first->second);
      by_expiry_.erase(first);
      ++evictions_;
    }
  }
  expiry_.emplace(id, expires_at);
  by_expiry_.insert({expires_at, id});
  return true;
}

result<void> memory_seen_store::mark(const bytes32& id, std::int64_t expires_at, std::int64_t now) {
  if (!insert(id, expires_at, now, false))
    return make_error(errc::agx_overloaded, "the replay store is full: new work is refused until processed ids expire");
  if (policy_ == when_full::evict) return {};  // a cache is not mirrored
  if (journal_.size() < cap_)
    journal_.push_back({id, expires_at});
  else
    journal_overflowed_ = true;
  return {};
}

std::size_t memory_seen_store::prune(std::int64_t now) {
  std::size_t n = 0;
  while (!by_expiry_.empty() && by_expiry_.begin()->first <= now) {
    expiry_.erase(by_expiry_.begin()->second);
    by_expiry_.erase(by_expiry_.begin());
    ++n;
  }
  return n;
}

std::string memory_seen_store::snapshot_json(std::int64_t now) const {
  std::string out;
  out.reserve(20 + by_expiry_.size() * 82);
  out += "{\"v\":1,\"seen\":[";
  bool first = true;
  for (const auto& [exp, id] : by_expiry_) {
    if (exp <= now) continue;
    if (!first) out.push_back(',');
    first = false;
    out += "[\"";
    out += hex::encode(id);
    out += "\",";
    out += std::to_string(exp);
    out.push_back(']');
  }
  out += "]}";
  return out;
}

result<std::size_t> memory_seen_store::load_snapshot(std::string_view json, std::int64_t now) {
  auto bad = [](const char* d) { return make_error(errc::agx_seen_snapshot_invalid, d); };
  auto j = parse_json(json);
  if (j.is_discarded() || !j.is_object()) return bad("snapshot must be a JSON object");
  auto v = j.find("v");
  if (v == j.end() || !v->is_number_integer() || v->get<std::int64_t>() != 1) return bad("snapshot v must be 1");
  auto list = j.find("seen");
  if (list == j.end() || !list->is_array()) return bad("snapshot seen must be an array");
  std::vector<seen_entry> taken;
  taken.reserve(list->size());
  for (const auto& e : *list) {
    if (!e.is_array() || e.size() != 2 || !e[0].is_string() || !e[1].is_number_integer())
      return bad("each entry must be [id, expires_at]");
    seen_entry s;
    const auto& id = e[0].get_ref<const std::string&>();
    if (!hex::is_lower_hex(id, 32) || !hex::decode_to(id, s.id.data(), 32)) return bad("entry id must be 64 hex");
    s.expires_at = e[1].get<std::int64_t>();
    if (s.expires_at > now) taken.push_back(s);
  }
  // Loaded entries are already durable (no journal record), and were processed: a refusing store
  // takes them beyond its cap rather than forget one.
  for (const auto& s : taken) (void)insert(s.id, s.expires_at, now, policy_ == when_full::refuse);
  return taken.size();
}

std::vector<seen_entry> memory_seen_store::take_journal() {
  std::vector<seen_entry> out;
  out.swap(journal_);
  journal_overflowed_ = false;
  return out;
}

// --- replay_guard

namespace {
bool id_of(std::string_view id_hex, bytes32& out) { return hex::decode_to(id_hex, out.data(), 32); }
}  // namespace

bool replay_guard::known_wrap(std::string_view wrap_id_hex, std::int64_t now) {
  bytes32 id{};
  return id_of(wrap_id_hex, id) && (processed_.seen(id, now) || discarded_.seen(id, now));
}

bool replay_guard::known_rumor(std::string_view rumor_id_hex, std::int64_t now) {
  bytes32 id{};
  return id_of(rumor_id_hex, id) && processed_.seen(id, now);
}

result<void> replay_guard::processed(std::string_view rumor_id_hex, std::string_view wrap_id_hex, std::int64_t now,
                                     std::int64_t until) {
  bytes32 rumor{}, wrap{};
  bool has_rumor = id_of(rumor_id_hex, rumor), has_wrap = id_of(wrap_id_hex, wrap);
  std::size_t fresh = (has_rumor && !processed_.seen(rumor, now) ? 1 : 0) + (has_wrap && !processed_.seen(wrap, now) ? 1 : 0);
  // Both or neither: a rumor marked without its wrap would cost a decryption, one without its
  // rumor a second run.
  if (fresh > 0 && !processed_.has_room(fresh, now))
    return make_error(errc::agx_overloaded, "the replay store is full: new work is refused until processed ids expire");
  std::int64_t expires = std::max(now + retention_, until);
  if (has_rumor) NOSTR_TRY(processed_.mark(rumor, expires, now));
  if (has_wrap) NOSTR_TRY(processed_.mark(wrap, expires, now));
  return {};
}

void replay_guard::discarded(std::string_view wrap_id_hex, std::int64_t now) {
  bytes32 id{};
  if (id_of(wrap_id_hex, id)) (void)discarded_.mark(id, now + retention_, now);
}

}  // namespace nostr::agx
