#include "nips/nip40.hpp"

#include <string>

namespace nostr::nip40 {
namespace {

error invalid(const char* detail) { return make_error(errc::invalid_expiration, detail); }

bool is_expiration_tag(const tag& t) { return !t.empty() && t[0] == "expiration"; }

}  // namespace

result<std::int64_t> parse_expiration(std::string_view value) {
  if (value.empty()) return invalid("expiration must be a decimal integer");
  std::int64_t v = 0;
  for (char c : value) {
    if (c < '0' || c > '9') return invalid("expiration must be a decimal integer");
    v = v * 10 + (c - '0');
    if (v > kMaxTimestamp) return invalid("expiration is out of range");
  }
  return v;
}

result<std::optional<std::int64_t>> get_expiration(const tag_list& tags) {
  for (const auto& t : tags) {
    if (!is_expiration_tag(t)) continue;
    if (t.size() < 2) return invalid("expiration tag has no value");
    auto v = parse_expiration(t[1]);
    if (!v) return v.err();
    return std::optional<std::int64_t>(*v);
  }
  return std::optional<std::int64_t>();
}

result<void> set_expiration(tag_list& tags, std::int64_t timestamp) {
  if (timestamp < 0 || timestamp > kMaxTimestamp) return invalid("expiration is out of range");
  std::string value = std::to_string(timestamp);
  bool placed = false;
  std::size_t keep = 0;
  for (std::size_t i = 0; i < tags.size(); ++i) {
    if (is_expiration_tag(tags[i])) {
      if (placed) continue;
      tags[i] = {"expiration", value};
      placed = true;
    }
    if (keep != i) tags[keep] = std::move(tags[i]);
    ++keep;
  }
  tags.resize(keep);
  if (!placed) tags.push_back({"expiration", std::move(value)});
  return {};
}

bool is_expired(std::int64_t expiration, std::int64_t now) { return now >= expiration; }

result<bool> is_expired(const tag_list& tags, std::int64_t now) {
  auto exp = get_expiration(tags);
  if (!exp) return exp.err();
  return exp->has_value() && is_expired(**exp, now);
}

}  // namespace nostr::nip40
