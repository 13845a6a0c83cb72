// The agent runtime's gate for incoming prompts ("Model and schema negotiation", "Security and
// abuse controls"). Sans-IO: `now` is a parameter; memory is bounded by max_tracked.
//
// screen() runs before decryption (tags and sender policy, so nothing from a blocked sender is
// ever decrypted); admit() runs on the decrypted payload. A rejection carries the protocol error
// code the runtime sends back in ai.error.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "event/event.hpp"
#include "protocols/nip_xx/payload.hpp"
#include "protocols/nip_xx/tags.hpp"

namespace nostr::nip_xx {

struct agent_config {
  std::string agent_pubkey;
  info_payload info = default_info();
  std::optional<std::set<std::string>> allow;  // nullopt: anyone not blocked
  std::set<std::string> block;
  // Safe defaults (an open agent spends its owner's LLM money): per sender, a bucket of `burst`
  // prompts refilled at prompts_per_minute (0 turns it off); at most max_concurrent runs at once
  // in all (0 turns it off). Over either: RATE_LIMIT with retry_after.
  double prompts_per_minute = 20;
  double burst = 10;
  std::size_t max_concurrent = 8;
  std::optional<std::int64_t> max_session_turns;
  std::size_t max_tracked = 10000;  // senders (rate buckets) and sessions kept in memory
};

struct rejection {
  errc code;
  std::string message;
  std::optional<std::int64_t> retry_after;
};

struct admitted_prompt {
  std::string prompt_id;
  std::string sender;
  std::string session;
  prompt_payload prompt;
  std::optional<std::string> model;  // negotiated; empty when the agent advertises none
  // The prompt's fallback_models that this agent supports, in the client's order, without the
  // negotiated model: what the client accepts should that model turn out unavailable while the
  // run executes (MODEL_UNAVAILABLE). Never a substitute for an unsupported `model`.
  std::vector<std::string> fallback_models;
  std::int64_t tool_schema_version = 1;
};

class agent_admission {
 public:
  explicit agent_admission(agent_config config);

  // Tag rules, p == this agent, block/allow lists, per-sender rate limit.
  // Returns the run tags, or a rejection (with retry_after for RATE_LIMIT).
  std::variant<run_tags, rejection> screen(const event& prompt, std::int64_t now);

  // Payload schema, max_prompt_bytes, session turn limit, model and tool schema negotiation, the
  // concurrency cap. An admitted prompt holds a run slot until run_ended().
  std::variant<admitted_prompt, rejection> admit(const event& prompt, const run_tags& tags,
                                                 std::string_view plaintext);
  // A run admitted by admit() ended (its terminal was sent, or it was dropped): its slot is free.
  void run_ended() {
    if (running_ > 0) --running_;
  }
  std::size_t running() const { return running_; }

  const agent_config& config() const { return config_; }
  void set_info(info_payload info) { config_.info = std::move(info); }

 private:
  struct bucket {
    double tokens;
    std::int64_t updated;
  };
  void evict_if_full();

  agent_config config_;
  std::map<std::string, bucket> buckets_;
  std::map<std::string, std::int64_t> session_turns_;  // key: sender + "\n" + session
  std::size_t running_ = 0;
};

}  // namespace nostr::nip_xx
