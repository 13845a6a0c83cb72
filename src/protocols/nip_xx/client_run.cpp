#include "protocols/nip_xx/client_run.hpp"

#include "protocols/nip_xx/envelope.hpp"
#include "protocols/nip_xx/tags.hpp"

namespace nostr::nip_xx {
namespace {

run_update ignored(std::string why) {
  run_update u;
  u.type = update_kind::ignored;
  u.reason = std::move(why);
  return u;
}

run_update rejected(const error& err) {
  run_update u;
  u.type = update_kind::rejected;
  u.code = err.code;
  u.reason = err.detail;
  return u;
}

}  // namespace

result<text_view> visible_text(kind k, const std::string& text) {
  if (!looks_like_envelope(text, k)) return text_view{text, false};
  auto env = parse_envelope(text);
  if (!env) return env.err();  // cannot happen: looks_like_envelope parsed it
  text_view v;
  const std::string* body = env->get("text");
  if (!body) body = env->get("block");
  v.text = body ? *body : std::string{};
  const std::string* mode = env->get("mode");
  v.thinking = mode && *mode == "thinking";
  return v;
}

client_run::client_run(std::string prompt_id, std::string agent_pubkey, std::string client_pubkey,
                       std::int64_t terminal_grace_ms, std::int64_t idle_timeout_ms)
    : prompt_id_(std::move(prompt_id)),
      agent_(std::move(agent_pubkey)),
      client_(std::move(client_pubkey)),
      terminal_grace_ms_(terminal_grace_ms < 0 ? 0 : terminal_grace_ms),
      idle_timeout_ms_(idle_timeout_ms < 0 ? 0 : idle_timeout_ms) {}

void client_run::start(std::int64_t now_ms) {
  if (idle_timeout_ms_ > 0 && !closed_) idle_at_ms_ = now_ms + idle_timeout_ms_;
}

void client_run::cancel_sent(std::int64_t now_ms, std::int64_t timeout_ms) {
  if (closed_ || cancel_at_ms_) return;
  cancel_at_ms_ = now_ms + (timeout_ms < 0 ? 0 : timeout_ms);
}

std::optional<std::int64_t> client_run::next_deadline() const {
  if (closed_) return std::nullopt;
  // With a terminal the grace alone decides: the newest terminal by then is the outcome.
  if (terminal_) return settle_at_ms();
  std::optional<std::int64_t> at = idle_at_ms_;
  if (cancel_at_ms_ && (!at || *cancel_at_ms_ < *at)) at = cancel_at_ms_;
  return at;
}

timeout_outcome client_run::handle_timeout(std::int64_t now_ms) {
  auto at = next_deadline();
  if (!at || *at > now_ms) return timeout_outcome::none;
  closed_ = true;
  if (terminal_) return timeout_outcome::settled;
  if (cancel_at_ms_ && *cancel_at_ms_ <= now_ms) return timeout_outcome::cancel_unconfirmed;
  return timeout_outcome::idle;
}

bool client_run::names_run(const event& e) const {
  for (const auto& t : e.tags)
    if (t.size() >= 4 && t[0] == "e" && t[3] == "root") return t[1] == prompt_id_;
  return false;
}

std::optional<std::int64_t> client_run::settle_at_ms() const {
  if (!first_terminal_at_ms_) return std::nullopt;
  return *first_terminal_at_ms_ + terminal_grace_ms_;
}

run_update client_run::on_event(const event& e, std::string_view plaintext, std::int64_t now_ms) {
  if (closed_) return ignored("the run is closed");
  run_update u = apply(e, plaintext, now_ms);
  bool applied = u.type != update_kind::ignored && u.type != update_kind::rejected;
  if (applied && idle_at_ms_) idle_at_ms_ = now_ms + idle_timeout_ms_;
  return u;
}

run_update client_run::apply(const event& e, std::string_view plaintext, std::int64_t now_ms) {
  auto k = kind_from(e.kind);
  if (!k || !is_run_event(*k)) return ignored("not an agent run event kind");
  if (e.pubkey != agent_) return ignored("author is not the agent");
  if (seen_ids_.count(e.id)) return ignored("duplicate event id");

  auto tags = check_tags(e);
  if (!tags) {
    // Events whose routing tags cannot be read cannot be attributed to this run: ignore them
    // when they do not name it, reject them when they do.
    return rejected(tags.err());
  }
  if (tags->p != client_) return ignored("p does not name this client");
  if (tags->root != prompt_id_) return ignored("e root is not this run's prompt");
  seen_ids_.insert(e.id);

  if (is_terminal(*k)) {
    run_update u = on_terminal(e, plaintext);
    if (u.type == update_kind::terminal && !first_terminal_at_ms_) first_terminal_at_ms_ = now_ms;
    return u;
  }
  if (terminal_) return ignored("run already has a terminal");

  switch (*k) {
    case kind::status: {
      auto s = parse_status(plaintext);
      if (!s) return rejected(s.err());
      run_update u;
      u.type = update_kind::status;
      u.status = std::move(*s);
      return u;
    }
    case kind::delta: {
      auto d = parse_delta(plaintext);
      if (!d) return rejected(d.err());
      return on_delta(e, *d);
    }
    case kind::tool_call: {
      auto t = parse_tool_call(plaintext);
      if (!t) return rejected(t.err());
      // The payload is canonical; hint tags that disagree with it are INVALID_SCHEMA.
      if (tags->tool && t->name && *tags->tool != *t->name)
        return rejected(make_error(errc::xx_invalid_schema, "tool tag disagrees with the payload name"));
      if (tags->phase && t->phase && *tags->phase != *t->phase)
        return rejected(make_error(errc::xx_invalid_schema, "phase tag disagrees with the payload phase"));
      // A `text` that is not an envelope is plain tool telemetry text (looks_like_envelope).
      run_update u;
      u.type = update_kind::tool_call;
      u.tool_call = std::move(*t);
      return u;
    }
    default:
      return ignored("not an agent run event kind");
  }
}

run_update client_run::on_delta(const event& e, const delta_payload& d) {
  auto view = visible_text(kind::delta, d.text);
  if (!view) return rejected(view.err());
  auto invalid = [&](const char* why) {
    return rejected(make_error(errc::xx_invalid_sequence, why));
  };
  seq_mode mode = d.seq ? seq_mode::with_seq : seq_mode::without_seq;
  if (mode_ != seq_mode::unknown && mode_ != mode) return invalid("run mixes deltas with and without seq");

  run_update u;
  u.type = update_kind::delta;
  if (view->thinking) u.thinking = view->text;

  if (mode == seq_mode::without_seq) {
    mode_ = mode;
    if (!view->thinking) {
      auto [at, inserted] = plain_deltas_.insert(plain_delta{e.created_at, e.id, view->text});
      if (std::next(at) == plain_deltas_.end()) u.append = view->text;
      else u.text_reset = true;
    }
    return u;
  }

  std::int64_t seq = *d.seq;
  auto same = seq_deltas_.find(seq);
  if (same != seq_deltas_.end()) {
    if (same->second.text == view->text) return ignored("duplicate (seq, text)");
    return invalid("two different deltas share one seq");
  }
  // seq must grow with emission time: a lower seq created strictly later (or a higher one
  // strictly earlier) means the sequence is not strictly increasing.
  auto next = seq_deltas_.upper_bound(seq);
  if (next != seq_deltas_.end() && next->second.created_at < e.created_at)
    return invalid("seq is not increasing with created_at");
  if (next != seq_deltas_.begin()) {
    auto prev = std::prev(next);
    if (prev->second.created_at > e.created_at) return invalid("seq is not increasing with created_at");
  }
  mode_ = mode;
  auto at = seq_deltas_.emplace(seq, seq_delta{e.created_at, e.id, view->thinking ? std::string{} : view->text}).first;
  if (std::next(at) == seq_deltas_.end()) u.append = at->second.text;
  else u.text_reset = true;
  while (seq_deltas_.count(contiguous_)) ++contiguous_;
  u.degraded = degraded();
  return u;
}

run_update client_run::on_terminal(const event& e, std::string_view plaintext) {
  terminal_state t;
  t.k = static_cast<kind>(e.kind);
  t.event_id = e.id;
  t.created_at = e.created_at;
  if (t.k == kind::response) {
    auto r = parse_response(plaintext);
    if (!r) return rejected(r.err());
    auto view = visible_text(kind::response, r->text);
    if (!view) return rejected(view.err());
    r->text = view->text;
    t.response = std::move(*r);
  } else {
    auto er = parse_error(plaintext);
    if (!er) return rejected(er.err());
    t.error = std::move(*er);
  }
  run_update u;
  u.type = update_kind::terminal;
  if (terminal_) {
    bool newer = t.created_at != terminal_->created_at ? t.created_at > terminal_->created_at
                                                       : t.event_id > terminal_->event_id;
    if (!newer) return ignored("an equal or newer terminal was already accepted");
    u.replaced = true;
    u.replaced_id = terminal_->event_id;
  }
  terminal_ = std::move(t);
  return u;
}

std::string client_run::text() const {
  std::string out;
  if (mode_ == seq_mode::with_seq) {
    for (const auto& [seq, d] : seq_deltas_) out += d.text;
  } else {
    for (const auto& d : plain_deltas_) out += d.text;
  }
  return out;
}

// seq are >= 0 (the payload schema), so a gap exists exactly when some seq lies past the
// contiguous prefix 0..contiguous_-1.
std::optional<std::int64_t> client_run::next_missing_seq() const {
  if (seq_deltas_.size() == static_cast<std::size_t>(contiguous_)) return std::nullopt;
  return contiguous_;
}

bool client_run::degraded() const { return next_missing_seq().has_value(); }

}  // namespace nostr::nip_xx
