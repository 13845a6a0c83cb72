// NIP-40 glue: JS finds the first expiration tag (a plain array scan) and hands its value to the
// core, which owns the value's syntax and the expiry boundary.
#include <emscripten/bind.h>

#include <cmath>

#include "nips/nip40.hpp"
#include "support.hpp"

namespace nostr::bindings {
namespace {

// A JS number of seconds as int64, clamped far beyond any timestamp (avoids an undefined cast).
std::int64_t as_seconds(double now) {
  if (std::isnan(now)) return 0;
  if (now > 4e18) return INT64_MAX;
  if (now < -4e18) return INT64_MIN;
  return static_cast<std::int64_t>(std::floor(now));
}

// The timestamp of an expiration tag value, or -1 after fail().
double parse_expiration(const std::string& value) {
  auto v = nip40::parse_expiration(value);
  if (!v) {
    fail_code(v.err());
    return -1;
  }
  return static_cast<double>(*v);
}

// 1 when expired at `now`, 0 when not, -1 after fail().
int is_expired(const std::string& value, double now) {
  auto v = nip40::parse_expiration(value);
  if (!v) {
    fail_code(v.err());
    return -1;
  }
  return nip40::is_expired(*v, as_seconds(now)) ? 1 : 0;
}

// The tag value for a timestamp, or undefined after fail() (INVALID_EXPIRATION).
val format_expiration(double timestamp) {
  bool integral = std::isfinite(timestamp) && timestamp == std::floor(timestamp);
  std::int64_t ts = integral && std::fabs(timestamp) <= 9007199254740992.0 ? static_cast<std::int64_t>(timestamp) : -1;
  tag_list tags;
  auto r = nip40::set_expiration(tags, ts);
  if (!r) return fail(r.err());
  return val(tags[0][1]);
}

}  // namespace

EMSCRIPTEN_BINDINGS(nip40) {
  emscripten::function("nip40ParseExpiration", &parse_expiration);
  emscripten::function("nip40IsExpired", &is_expired);
  emscripten::function("nip40FormatExpiration", &format_expiration);
}

}  // namespace nostr::bindings
