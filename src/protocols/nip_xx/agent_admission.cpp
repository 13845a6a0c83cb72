#include "protocols/nip_xx/agent_admission.hpp"

#include <algorithm>
#include <cmath>

namespace nostr::nip_xx {
namespace {

// Seconds a client is told to wait when every run slot is taken.
constexpr std::int64_t kBusyRetryAfter = 5;

rejection reject(errc code, std::string message, std::optional<std::int64_t> retry_after = std::nullopt) {
  return rejection{code, std::move(message), retry_after};
}

bool contains(const std::vector<std::string>& v, const std::string& x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

}  // namespace

agent_admission::agent_admission(agent_config config) : config_(std::move(config)) {}

void agent_admission::evict_if_full() {
  if (buckets_.size() < config_.max_tracked) return;
  // Drop the bucket untouched for the longest time: it has refilled the most.
  auto oldest = std::min_element(buckets_.begin(), buckets_.end(),
                                 [](const auto& a, const auto& b) { return a.second.updated < b.second.updated; });
  buckets_.erase(oldest);
}

std::variant<run_tags, rejection> agent_admission::screen(const event& prompt, std::int64_t now) {
  if (prompt.kind != static_cast<std::int64_t>(kind::prompt)) return reject(errc::xx_invalid_schema, "not an ai.prompt");
  auto tags = check_tags(prompt);
  if (!tags) return reject(tags.err().code, tags.err().detail);
  if (tags->p != config_.agent_pubkey) return reject(errc::xx_invalid_schema, "prompt is addressed to another agent");

  const std::string& sender = prompt.pubkey;
  if (config_.block.count(sender)) return reject(errc::xx_blocked_sender, "sender is blocked by policy");
  if (config_.allow && !config_.allow->count(sender))
    return reject(errc::xx_unauthorized, "sender is not on this agent's allowlist");

  if (config_.prompts_per_minute > 0) {
    double rate = config_.prompts_per_minute / 60.0;  // tokens per second
    auto it = buckets_.find(sender);
    if (it == buckets_.end()) {
      evict_if_full();
      it = buckets_.emplace(sender, bucket{config_.burst, now}).first;
    }
    bucket& b = it->second;
    if (now > b.updated) b.tokens = std::min(config_.burst, b.tokens + static_cast<double>(now - b.updated) * rate);
    b.updated = std::max(b.updated, now);
    if (b.tokens < 1.0) {
      auto wait = static_cast<std::int64_t>(std::ceil((1.0 - b.tokens) / rate));
      return reject(errc::xx_rate_limit, "too many prompts; retry later", std::max<std::int64_t>(1, wait));
    }
    b.tokens -= 1.0;
  }
  return std::move(*tags);
}

std::variant<admitted_prompt, rejection> agent_admission::admit(const event& prompt, const run_tags& tags,
                                                                std::string_view plaintext) {
  auto payload = parse_prompt(plaintext);
  if (!payload) return reject(payload.err().code, payload.err().detail);
  const info_payload& info = config_.info;

  if (info.max_prompt_bytes && static_cast<std::int64_t>(payload->message.size()) > *info.max_prompt_bytes)
    return reject(errc::xx_invalid_schema,
                  "message exceeds max_prompt_bytes (" + std::to_string(*info.max_prompt_bytes) + ")");

  admitted_prompt out;
  out.prompt_id = prompt.id;
  out.sender = prompt.pubkey;
  out.session = session_of(tags, prompt.pubkey);

  // Model ("Model and schema negotiation"): a requested model MUST be in supported_models, else
  // UNSUPPORTED_MODEL and no execution; fallback_models does not lift that MUST (the seed gives no
  // field that asks for a substitute of an unsupported model). Without a model, default_model.
  // fallback_models are kept (the supported ones) as the client's alternatives should the model
  // be unavailable at run time, the case MODEL_UNAVAILABLE ("Requested model/provider unavailable")
  // names; the handler decides whether to use them.
  auto supported = [&](const std::string& m) {
    if (info.supported_models) return contains(*info.supported_models, m);
    return info.default_model && *info.default_model == m;
  };
  if (payload->model) {
    if (!supported(*payload->model))
      return reject(errc::xx_unsupported_model, "model " + *payload->model + " is not supported");
    out.model = payload->model;
  } else {
    out.model = info.default_model;
  }
  if (payload->fallback_models)
    for (const auto& m : *payload->fallback_models)
      if (supported(m) && m != out.model && !contains(out.fallback_models, m)) out.fallback_models.push_back(m);

  // Tool schema version: the requested one exactly, else the advertised one.
  std::int64_t ours = info.tool_schema_version.value_or(1);
  if (payload->tool_schema_version && *payload->tool_schema_version != ours)
    return reject(errc::xx_unsupported_schema_version,
                  "tool_schema_version " + std::to_string(*payload->tool_schema_version) + " is not supported (" +
                      std::to_string(ours) + " is)");
  out.tool_schema_version = ours;

  // Concurrency: the runs in progress, in all ("Security and abuse controls": throttling is RATE_LIMIT).
  if (config_.max_concurrent > 0 && running_ >= config_.max_concurrent)
    return reject(errc::xx_rate_limit, "the agent is busy: " + std::to_string(running_) + " runs in progress; retry later",
                  kBusyRetryAfter);

  // Session turns are counted per (sender, session): another sender cannot use up someone's session.
  if (config_.max_session_turns) {
    std::string key = out.sender + "\n" + out.session;
    auto it = session_turns_.find(key);
    if (it == session_turns_.end()) {
      if (session_turns_.size() >= config_.max_tracked) session_turns_.erase(session_turns_.begin());
      it = session_turns_.emplace(key, 0).first;
    }
    if (it->second >= *config_.max_session_turns)
      return reject(errc::xx_session_limit, "session reached its turn limit");
    ++it->second;
  }
  out.prompt = std::move(*payload);
  ++running_;
  return out;
}

}  // namespace nostr::nip_xx
