// The agent runtime's inbox: which incoming prompts and cancels are acted on ("Validation and
// failure rules", "Cancel"). Sans-IO: `now` is a parameter (seconds, created_at's unit).
//
// Prompts: each prompt id is handled at most once (dedupe, bounded by seen_cap); prompts for
// another agent are not ours; a prompt is fresh when its created_at is at or after `since` while
// the stored events are read (a restart does not answer old prompts again) and, once live, within
// max_clock_skew of now (the client's clock may run behind ours). A stale live prompt gets no
// ai.error: the seed has no code for it, and a terminal would be worse than none (the prompt may be
// a stored or re-broadcast copy of one already answered, and clients keep the newest terminal, so
// ours would replace that answer); the operator is told (stale).
//
// Cancels: acted on only for a running run, from that run's client, addressed to this agent,
// NIP-44 tagged, with a valid cancel payload; one that arrives while its prompt is still being
// admitted is held and applied once the run starts; anything else is ignored (the seed: "ai.cancel
// without a matching active run is ignored").
#pragma once
#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_set>

#include "event/event.hpp"
#include "event/filter.hpp"
#include "protocols/nip_xx/constants.hpp"

namespace nostr::nip_xx {

enum class prompt_disposition {
  handle,         // screen, decrypt, admit and run it (the inbox counts it as being admitted)
  duplicate,      // already handled (or reported stale)
  not_addressed,  // its p tag names another agent
  stale,          // live but older than max_clock_skew: report it, send nothing
  too_old,        // stored and older than since: what a restart skips, silently
};

enum class cancel_disposition {
  ignore,   // no matching running run, or not from its client, or not addressed to us
  held,     // its prompt is being admitted: applied when the run starts (take_held)
  decrypt,  // authorized so far: decrypt it and pass the payload to authorize_cancel
};

class agent_inbox {
 public:
  agent_inbox(std::string agent_pubkey, std::int64_t since, std::int64_t max_clock_skew = default_max_clock_skew_s,
              std::size_t seen_cap = seen_prompts_cap);

  // The `since` of the subscription: early enough for both freshness rules.
  std::int64_t subscribe_since(std::int64_t now) const;
  // The stored events were all delivered (EOSE): freshness is judged against the clock from now on.
  void go_live() { live_ = true; }
  // What the agent subscribes to at now: its prompts and cancels (#p agent) from subscribe_since,
  // and with the privacy-first profile the gift wraps addressed to it, dated back a wrap's two days.
  std::vector<filter> filters(std::int64_t now, bool nip59) const;
  bool live() const { return live_; }

  // delivered_live: whether the relay delivered the prompt (or the gift wrap it came in) after the
  // stored events, when the driver knows it; a wrap opened after EOSE is still a stored prompt.
  // Without it, the inbox's phase now (live()) decides.
  prompt_disposition on_prompt(const event& prompt, std::int64_t now,
                               std::optional<bool> delivered_live = std::nullopt);
  // The prompt handed out by on_prompt(handle) became a run of client (admitted) or ended without
  // one (refused, undecryptable): prompt_done either way once it is over.
  void run_started(const std::string& prompt_id, const std::string& client);
  void prompt_done(const std::string& prompt_id);

  cancel_disposition on_cancel(const event& cancel);
  // The decrypted cancel of a `decrypt` disposition: the run to cancel and why when the payload is
  // valid and the run still running, else nullopt.
  struct authorized_cancel {
    std::string prompt_id;
    std::string reason;  // the payload's reason: user_cancel | timeout | policy
  };
  std::optional<authorized_cancel> authorize_cancel(const event& cancel, std::string_view plaintext) const;
  // A cancel held for prompt_id (at most one), removed.
  std::optional<event> take_held(const std::string& prompt_id);

  std::size_t running() const { return runs_.size(); }

 private:
  bool remember(const std::string& prompt_id);  // false when already seen

  std::string agent_;
  std::int64_t since_, max_skew_;
  std::size_t seen_cap_;
  bool live_ = false;
  std::unordered_set<std::string> seen_;
  std::deque<std::string> seen_order_;  // oldest first, for the bound
  std::set<std::string> admitting_;
  std::map<std::string, std::string> runs_;  // prompt id -> client pubkey
  std::map<std::string, event> held_;
};

// The value of the first tag named `name`, or nullopt.
std::optional<std::string> first_tag_value(const event& e, std::string_view name);
// The prompt id of a run event or a cancel: its ["e", id, relay, "root"] tag.
std::optional<std::string> root_of(const event& e);

}  // namespace nostr::nip_xx
