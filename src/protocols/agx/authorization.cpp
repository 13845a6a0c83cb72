#include "protocols/agx/authorization.hpp"

#include <algorithm>

#include "protocols/agx/capability.hpp"
#include "util/hex.hpp"

namespace nostr::agx {
namespace {

bool lower_hex_key(std::string_view in, std::string& out) {
  bytes32 b{};
  if (!hex::decode_to(in, b.data(), 32)) return false;
  out = hex::encode(b);
  return true;
}

}  // namespace

const char* auth_verdict_name(auth_verdict v) {
  switch (v) {
    case auth_verdict::allow: return "allow";
    case auth_verdict::deny: return "deny";
    case auth_verdict::deny_unconfigured: return "deny-unconfigured";
    case auth_verdict::ask_host: return "ask-host";
  }
  return "deny";
}

authorization_policy authorization_policy::accept_all() {
  authorization_policy p;
  p.mode_ = mode::accept_all;
  return p;
}

authorization_policy authorization_policy::host_decides() {
  authorization_policy p;
  p.mode_ = mode::host;
  return p;
}

result<void> authorization_policy::allow(std::string_view pubkey_hex, std::string_view pattern) {
  std::string key;
  if (!lower_hex_key(pubkey_hex, key)) return make_error(errc::invalid_public_key, "pubkey must be 64 hex characters");
  if (pattern.empty()) return make_error(errc::invalid_argument, "capability pattern must not be empty");
  if (entries_.size() >= kMaxEntries) return make_error(errc::invalid_argument, "allow list is full");
  mode_ = mode::allow_list;
  for (const auto& e : entries_)
    if (e.first == key && e.second == pattern) return {};
  entries_.emplace_back(std::move(key), std::string(pattern));
  return {};
}

bool authorization_policy::revoke(std::string_view pubkey_hex) {
  std::string key;
  if (!lower_hex_key(pubkey_hex, key)) return false;
  auto before = entries_.size();
  entries_.erase(std::remove_if(entries_.begin(), entries_.end(), [&](const auto& e) { return e.first == key; }),
                 entries_.end());
  return entries_.size() != before;
}

auth_verdict authorization_policy::decide(std::string_view from, std::string_view capability) const {
  switch (mode_) {
    case mode::unconfigured: return auth_verdict::deny_unconfigured;
    case mode::accept_all: return auth_verdict::allow;
    case mode::host: return auth_verdict::ask_host;
    case mode::allow_list: break;
  }
  // `from` is the seal signer as the unwrap reports it: lowercase hex. Compare exactly.
  for (const auto& e : entries_)
    if (e.first == from && capability_matches(e.second, capability)) return auth_verdict::allow;
  return auth_verdict::deny;
}

bool authorization_policy::take_unconfigured_warning() {
  if (mode_ != mode::unconfigured || warned_) return false;
  warned_ = true;
  return true;
}

}  // namespace nostr::agx
