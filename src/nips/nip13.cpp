#include "nips/nip13.hpp"

#include <string>

#include "util/hex.hpp"

namespace nostr::nip13 {
namespace {

bool valid_target(int target) { return target >= 0 && target <= kMaxTarget; }

error invalid_target() {
  return make_error(errc::pow_invalid_target, "target must be an integer from 0 to 256");
}

std::size_t decimal_width(std::uint64_t n) {
  std::size_t w = 1;
  while (n >= 10) {
    n /= 10;
    ++w;
  }
  return w;
}

// Writes n as exactly `width` decimal digits (width == decimal_width(n)).
void write_decimal(std::uint64_t n, char* out, std::size_t width) {
  for (std::size_t i = width; i > 0; --i) {
    out[i - 1] = static_cast<char>('0' + n % 10);
    n /= 10;
  }
}

void append_tag(std::string& out, const tag& t) {
  out.push_back('[');
  for (std::size_t j = 0; j < t.size(); ++j) {
    if (j) out.push_back(',');
    append_json_string(out, t[j]);
  }
  out.push_back(']');
}

bool is_nonce_tag(const tag& t) { return !t.empty() && t[0] == "nonce"; }

}  // namespace

int difficulty(const bytes32& id) {
  int bits = 0;
  for (std::uint8_t b : id) {
    if (b == 0) {
      bits += 8;
      continue;
    }
    while ((b & 0x80) == 0) {
      ++bits;
      b = static_cast<std::uint8_t>(b << 1);
    }
    break;
  }
  return bits;
}

result<int> difficulty_hex(std::string_view id_hex) {
  bytes32 id{};
  if (!hex::decode_to(id_hex, id.data(), id.size()))
    return make_error(errc::invalid_hex, "id must be 64 hex characters");
  return difficulty(id);
}

bool meets_target(const bytes32& id, int target) {
  if (target <= 0) return true;
  if (target > kMaxTarget) return false;
  const int whole = target / 8;
  for (int i = 0; i < whole; ++i)
    if (id[i] != 0) return false;
  const int rest = target % 8;
  return rest == 0 || (id[whole] >> (8 - rest)) == 0;
}

std::optional<int> committed_target(const tag_list& tags) {
  for (const auto& t : tags) {
    if (!is_nonce_tag(t)) continue;
    // Only the first nonce tag counts: it is the one a miner commits to.
    if (t.size() < 3 || t[2].empty() || t[2].size() > 3) return std::nullopt;
    int v = 0;
    for (char c : t[2]) {
      if (c < '0' || c > '9') return std::nullopt;
      v = v * 10 + (c - '0');
    }
    if (v > kMaxTarget) return std::nullopt;
    return v;
  }
  return std::nullopt;
}

result<bool> check_pow(const event& e, int target, bool require_commitment) {
  if (!valid_target(target)) return invalid_target();
  auto bits = difficulty_hex(e.id);
  if (!bits) return bits.err();
  if (*bits < target) return false;
  auto committed = committed_target(e.tags);
  if (!committed) return !require_commitment;
  return *committed >= target;
}

// --- mining

result<miner> miner::from_parts(std::string_view prefix, std::string_view suffix, int target) {
  if (!valid_target(target)) return invalid_target();
  miner m;
  m.target_ = target;
  m.prefix_.assign(prefix);
  m.suffix_.assign(suffix);
  return m;
}

result<miner> miner::for_template(std::string_view pubkey_hex, const event_template& t, int target) {
  if (!valid_target(target)) return invalid_target();
  if (!hex::is_lower_hex(pubkey_hex, 32))
    return make_error(errc::invalid_event, "pubkey must be 64 lowercase hex characters");
  if (t.kind < 0 || t.kind > 65535) return make_error(errc::invalid_event, "kind must be an integer from 0 to 65535");
  if (t.created_at < 0) return make_error(errc::invalid_event, "created_at must be a non-negative integer");

  // NIP-01 serialization [0,pubkey,created_at,kind,tags,content], split at the nonce digits of a
  // last tag ["nonce","<n>","<target>"].
  std::string prefix;
  prefix.reserve(120 + t.tags.size() * 80);
  prefix += "[0,";
  append_json_string(prefix, pubkey_hex);
  prefix += ',' + std::to_string(t.created_at) + ',' + std::to_string(t.kind) + ",[";
  for (const auto& tg : t.tags) {
    if (is_nonce_tag(tg)) continue;  // replaced by ours
    append_tag(prefix, tg);
    prefix.push_back(',');
  }
  prefix += "[\"nonce\",\"";

  std::string suffix = "\",\"" + std::to_string(target) + "\"]],";
  append_json_string(suffix, t.content);
  suffix.push_back(']');
  return from_parts(prefix, suffix, target);
}

void miner::layout(std::size_t width) {
  width_ = width;
  std::string msg;
  msg.reserve(prefix_.size() + width + suffix_.size());
  msg += prefix_;
  msg.append(width, '0');
  msg += suffix_;
  hasher_.reset(as_bytes(msg), msg.size(), prefix_.size(), prefix_.size() + width);
}

search_result miner::search(std::uint64_t first, std::uint64_t count) {
  search_result r;
  r.nonce = first;
  if (count == 0) return r;
  const std::uint64_t last = count - 1 > kMaxNonce - first ? kMaxNonce : first + (count - 1);

  std::uint64_t n = first;
  if (decimal_width(n) != width_) layout(decimal_width(n));
  auto* digits = reinterpret_cast<char*>(hasher_.var());
  write_decimal(n, digits, width_);
  for (;;) {
    bytes32 h = hasher_.hash();
    if (meets_target(h, target_)) {
      r.found = true;
      r.nonce = n;
      r.id = h;
      return r;
    }
    if (n == last) break;
    ++n;
    // Decimal increment in place; only a carry out of the top digit changes the layout.
    std::size_t i = width_;
    while (i > 0 && digits[i - 1] == '9') digits[--i] = '0';
    if (i > 0) {
      ++digits[i - 1];
    } else {
      layout(width_ + 1);
      digits = reinterpret_cast<char*>(hasher_.var());
      write_decimal(n, digits, width_);
    }
  }
  if (last == kMaxNonce) {
    r.exhausted = true;
    r.nonce = kMaxNonce;
  } else {
    r.nonce = last + 1;
  }
  return r;
}

result<mine_result> mine(std::string_view pubkey_hex, const event_template& t, int target, std::uint64_t start,
                         std::uint64_t max_iterations) {
  auto m = miner::for_template(pubkey_hex, t, target);
  if (!m) return m.err();
  search_result s = m->search(start, max_iterations);
  mine_result out;
  if (!s.found) {
    if (s.exhausted) return make_error(errc::pow_exhausted, "no nonce left to try");
    out.next_nonce = s.nonce;
    return out;
  }
  out.done = true;
  event& e = out.ev;
  e.pubkey = std::string(pubkey_hex);
  e.created_at = t.created_at;
  e.kind = t.kind;
  e.content = t.content;
  e.tags.reserve(t.tags.size() + 1);
  for (const auto& tg : t.tags)
    if (!is_nonce_tag(tg)) e.tags.push_back(tg);
  e.tags.push_back({"nonce", std::to_string(s.nonce), std::to_string(target)});
  e.id = hex::encode(s.id);
  return out;
}

}  // namespace nostr::nip13
