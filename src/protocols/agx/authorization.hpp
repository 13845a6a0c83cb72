// Authorization of task requests (SPEC.md "Authorization (normative)"): default-deny. A policy is
// either not configured (deny, and say so once so the host can warn), an allow list of
// (pubkey, capability pattern) pairs, an explicit accept-all opt-in, or a decision the host makes
// itself (a JS authorize function, possibly async) and reports back.
#pragma once
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "util/result.hpp"

namespace nostr::agx {

enum class auth_verdict {
  allow,
  deny,               // the policy says no
  deny_unconfigured,  // nothing configured: fail closed (SPEC.md: MUST deny, SHOULD warn once)
  ask_host,           // the host's own function decides; report its answer with host_verdict()
};

const char* auth_verdict_name(auth_verdict v);

class authorization_policy {
 public:
  enum class mode { unconfigured, allow_list, accept_all, host };

  // Default: unconfigured, so every request is denied.
  authorization_policy() = default;

  // The explicit opt-in to accept every peer (the reference's "accept-all" sentinel).
  static authorization_policy accept_all();
  // Requests are decided by the host's function (a JS authorize hook).
  static authorization_policy host_decides();

  // Adds (pubkey, capability pattern) to the allow list and switches to allow_list mode.
  // pubkey: 64 hex characters (either case, kept lowercase). pattern: "*", "ns.*" or an exact key.
  // INVALID_PUBLIC_KEY; INVALID_ARGUMENT for an empty pattern or a list already at kMaxEntries.
  result<void> allow(std::string_view pubkey_hex, std::string_view capability_pattern);
  // Removes every entry of a pubkey; true when one was there. The mode stays allow_list (an empty
  // list denies everything with verdict deny, not deny_unconfigured: it was configured).
  bool revoke(std::string_view pubkey_hex);

  mode current_mode() const { return mode_; }
  std::size_t size() const { return entries_.size(); }

  // The decision for a request from `from` (hex pubkey, the seal's signer) for `capability`.
  auth_verdict decide(std::string_view from, std::string_view capability) const;

  // True exactly once per policy, the first time it is asked while unconfigured: the host logs
  // its one-time warning then.
  bool take_unconfigured_warning();

  static constexpr std::size_t kMaxEntries = 100000;

 private:
  mode mode_ = mode::unconfigured;
  std::vector<std::pair<std::string, std::string>> entries_;
  bool warned_ = false;
};

// The host's answer for an ask_host verdict: allow or deny.
inline auth_verdict host_verdict(bool allowed) { return allowed ? auth_verdict::allow : auth_verdict::deny; }

}  // namespace nostr::agx
