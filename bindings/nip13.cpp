// NIP-13 glue. Mining: JS writes the serialization around the nonce digits (its own
// JSON.stringify, so odd strings encode exactly as nostr-tools does) into the scratch buffer as
// prefix || suffix; the core searches a bounded nonce range and, on success, leaves the id at the
// start of the scratch buffer. Nonces stay within 2^53 - 1 so JS numbers hold them exactly.
#include <emscripten/bind.h>

#include <cmath>
#include <cstring>

#include "nips/nip13.hpp"
#include "support.hpp"

namespace nostr::bindings {
namespace {

constexpr double kMaxSafe = 9007199254740991.0;  // Number.MAX_SAFE_INTEGER

// A JS number as a target; anything that is not an integer 0..256 maps to -1, which the core
// rejects with POW_INVALID_TARGET.
int as_target(double t) {
  return (std::isfinite(t) && t == std::floor(t) && t >= 0 && t <= nip13::kMaxTarget) ? static_cast<int>(t) : -1;
}

constexpr double kFailed = -2;
double failed(const error& err) {
  fail_code(err);
  return kFailed;
}

// Returns the winning nonce, -1 when none in [start, start + count) matched, or -2 after fail().
double mine_scratch(std::size_t prefix_len, std::size_t suffix_len, double target, double start, double count) {
  if (!(start >= 0 && start == std::floor(start)))
    return failed(make_error(errc::invalid_argument, "start must be a non-negative integer"));
  if (start > kMaxSafe) return failed(make_error(errc::pow_exhausted, "no nonce left to try"));
  if (!(count >= 0)) return failed(make_error(errc::invalid_argument, "count must be non-negative"));
  const double room = kMaxSafe - start + 1;  // nonces left up to 2^53 - 1
  const double n = std::floor(count < room ? count : room);

  const std::uint8_t* s = scratch(prefix_len + suffix_len);
  auto m = nip13::miner::from_parts(as_chars(s, prefix_len), as_chars(s + prefix_len, suffix_len), as_target(target));
  if (!m) return failed(m.err());
  auto r = m->search(static_cast<std::uint64_t>(start), static_cast<std::uint64_t>(n));
  if (!r.found) return -1;
  std::memcpy(scratch(32), r.id.data(), 32);
  return static_cast<double>(r.nonce);
}

// Leading zero bits of a hex id, or -1 after fail().
int difficulty(const std::string& id_hex) {
  auto d = nip13::difficulty_hex(id_hex);
  if (!d) {
    fail_code(d.err());
    return -1;
  }
  return *d;
}

// 1 or 0, or -1 after fail(). committed: the third entry of the first nonce tag ("" when none).
int check_pow(const std::string& id_hex, const std::string& committed, double target, bool require_commitment) {
  event e;
  e.id = id_hex;
  if (!committed.empty()) e.tags.push_back({"nonce", "", committed});
  auto r = nip13::check_pow(e, as_target(target), require_commitment);
  if (!r) {
    fail_code(r.err());
    return -1;
  }
  return *r ? 1 : 0;
}

// The committed target of a nonce tag's third entry, or -1 when it is not a valid one.
int committed_target(const std::string& value) {
  auto t = nip13::committed_target({{"nonce", "", value}});
  return t ? *t : -1;
}

}  // namespace

EMSCRIPTEN_BINDINGS(nip13) {
  emscripten::function("nip13MineScratch", &mine_scratch);
  emscripten::function("nip13Difficulty", &difficulty);
  emscripten::function("nip13CheckPow", &check_pow);
  emscripten::function("nip13CommittedTarget", &committed_target);
}

}  // namespace nostr::bindings
