#include "protocols/nip_xx/agent_inbox.hpp"

#include "nips/nip59.hpp"
#include "protocols/nip_xx/kinds.hpp"
#include "protocols/nip_xx/payload.hpp"

namespace nostr::nip_xx {

std::optional<std::string> first_tag_value(const event& e, std::string_view name) {
  for (const auto& t : e.tags)
    if (t.size() >= 2 && t[0] == name) return t[1];
  return std::nullopt;
}

std::optional<std::string> root_of(const event& e) {
  for (const auto& t : e.tags)
    if (t.size() >= 4 && t[0] == "e" && t[3] == "root") return t[1];
  return std::nullopt;
}

agent_inbox::agent_inbox(std::string agent_pubkey, std::int64_t since, std::int64_t max_clock_skew,
                         std::size_t seen_cap)
    : agent_(std::move(agent_pubkey)),
      since_(since),
      max_skew_(max_clock_skew < 0 ? 0 : max_clock_skew),
      seen_cap_(seen_cap == 0 ? 1 : seen_cap) {}

std::int64_t agent_inbox::subscribe_since(std::int64_t now) const {
  return since_ < now - max_skew_ ? since_ : now - max_skew_;
}

std::vector<filter> agent_inbox::filters(std::int64_t now, bool nip59) const {
  const std::int64_t since = subscribe_since(now);
  auto to_agent = [&](std::int64_t k, std::int64_t from) {
    filter f;
    f.kinds = std::vector<std::int64_t>{k};
    f.tags["p"] = {agent_};
    f.since = from;
    return f;
  };
  std::vector<filter> out{to_agent(static_cast<std::int64_t>(kind::prompt), since),
                          to_agent(static_cast<std::int64_t>(kind::cancel), since)};
  if (nip59) out.push_back(to_agent(nip59::kGiftWrapKind, since - wrap_lookback_s));
  return out;
}

bool agent_inbox::remember(const std::string& prompt_id) {
  if (!seen_.insert(prompt_id).second) return false;
  seen_order_.push_back(prompt_id);
  if (seen_order_.size() > seen_cap_) {
    seen_.erase(seen_order_.front());
    seen_order_.pop_front();
  }
  return true;
}

prompt_disposition agent_inbox::on_prompt(const event& prompt, std::int64_t now, std::optional<bool> delivered_live) {
  const bool live = delivered_live.value_or(live_);
  bool fresh = live ? prompt.created_at >= now - max_skew_ : prompt.created_at >= since_;
  if (!fresh) {
    // Stored ones before `since` are what a restart is expected to skip; a live one is reported
    // once, and only when it is ours.
    if (!live || seen_.count(prompt.id) || first_tag_value(prompt, "p") != agent_) return prompt_disposition::too_old;
    remember(prompt.id);
    return prompt_disposition::stale;
  }
  // In flight counts as seen whatever the bounded memory forgot: a flood of new ids cannot evict a
  // prompt being answered and let its copy run it twice.
  if (admitting_.count(prompt.id) || runs_.count(prompt.id)) return prompt_disposition::duplicate;
  if (!remember(prompt.id)) return prompt_disposition::duplicate;
  if (first_tag_value(prompt, "p") != agent_) return prompt_disposition::not_addressed;
  admitting_.insert(prompt.id);
  return prompt_disposition::handle;
}

void agent_inbox::run_started(const std::string& prompt_id, const std::string& client) {
  if (admitting_.count(prompt_id)) runs_[prompt_id] = client;
}

void agent_inbox::prompt_done(const std::string& prompt_id) {
  admitting_.erase(prompt_id);
  runs_.erase(prompt_id);
  held_.erase(prompt_id);
}

cancel_disposition agent_inbox::on_cancel(const event& cancel) {
  auto prompt_id = root_of(cancel);
  if (!prompt_id) return cancel_disposition::ignore;
  auto run = runs_.find(*prompt_id);
  if (run == runs_.end()) {
    // The prompt is being admitted (decrypted, screened): the run may start in a moment.
    if (admitting_.count(*prompt_id) && !held_.count(*prompt_id)) {
      held_.emplace(*prompt_id, cancel);
      return cancel_disposition::held;
    }
    return cancel_disposition::ignore;
  }
  if (run->second != cancel.pubkey) return cancel_disposition::ignore;  // only the run's client cancels it
  if (first_tag_value(cancel, "p") != agent_) return cancel_disposition::ignore;
  if (first_tag_value(cancel, "encryption") != "nip44") return cancel_disposition::ignore;
  return cancel_disposition::decrypt;
}

std::optional<agent_inbox::authorized_cancel> agent_inbox::authorize_cancel(const event& cancel,
                                                                            std::string_view plaintext) const {
  auto prompt_id = root_of(cancel);
  if (!prompt_id) return std::nullopt;
  auto run = runs_.find(*prompt_id);
  if (run == runs_.end() || run->second != cancel.pubkey) return std::nullopt;
  auto payload = parse_cancel(plaintext);
  if (!payload) return std::nullopt;
  return authorized_cancel{std::move(*prompt_id), std::move(payload->reason)};
}

std::optional<event> agent_inbox::take_held(const std::string& prompt_id) {
  auto it = held_.find(prompt_id);
  if (it == held_.end()) return std::nullopt;
  event e = std::move(it->second);
  held_.erase(it);
  return e;
}

}  // namespace nostr::nip_xx
