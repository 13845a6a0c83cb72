// AGX glue (src/protocols/agx), the requesting side: message, task request and task update
// rumors, the mined wrap, unwrap with every check, reading Agent Cards and NIP-05, the
// routing/authorization state and the replay guard. What only a serving endpoint calls (results,
// receipts, the automated-reply limiter, flood limits, handler lookup, publishing a card) is in
// agx_serve.cpp; a relay's write policy and capability matching on strings are in agx_checks.cpp.
// Events and results cross as JSON text; secrets only through a key handle (bindings/keys.cpp) or
// the secret slot; randomness comes from JS in one crypto.getRandomValues call per operation.
#include <emscripten/bind.h>

#include <cmath>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "event/event_json.hpp"
#include "event/event_reader.hpp"
#include "agx_helpers.hpp"
#include "crypto/secp256k1.hpp"
#include "keys.hpp"
#include "nips/nip44.hpp"
#include "nips/nip59.hpp"
#include "protocols/agx/authorization.hpp"
#include "protocols/agx/card.hpp"
#include "protocols/agx/cursor.hpp"
#include "protocols/agx/nip05.hpp"
#include "protocols/agx/message.hpp"
#include "protocols/agx/pending.hpp"
#include "protocols/agx/route.hpp"
#include "protocols/agx/seen_store.hpp"
#include "protocols/agx/unwrap.hpp"
#include "protocols/agx/wrap.hpp"
#include "support.hpp"
#include "wrap_inputs.hpp"
#include "util/hex.hpp"

namespace nostr::bindings {
namespace {

using json = dom::value;

using agx_glue::fresh_id;
using agx_glue::opt;
using agx_glue::string_list;

json raw_json(const std::optional<std::string>& text) {
  if (!text) return nullptr;
  auto j = parse_json(*text);
  return j.is_discarded() ? json(nullptr) : j;
}

// --- rumors (the author is a pubkey; ids come from the CSPRNG)

val message_rumor(const std::string& text, const std::string& author, const std::string& recipient, double now_s,
                  bool has_subject, const std::string& subject, int auto_depth, const std::string& content_type,
                  const std::string& context_id) {
  std::int64_t now;
  if (!read_now(now_s, now)) return fail(bad_now());
  agx::message_fields f;
  f.text = text;
  f.message_id = fresh_id();
  f.context_id = context_id.empty() ? fresh_id() : context_id;
  if (!content_type.empty()) f.content_type = content_type;
  f.subject = opt(has_subject, subject);
  f.auto_depth = auto_depth;
  auto r = agx::message_rumor(f, author, recipient, now);
  if (!r) return fail(r.err());
  return val(nip59::rumor_to_json(*r));
}

val task_request_rumor(const std::string& task_id, const std::string& capability, bool has_payload,
                       const std::string& payload_json, const std::string& author, const std::string& recipient,
                       double now_s, int auto_depth, bool accepts_updates) {
  std::int64_t now;
  if (!read_now(now_s, now)) return fail(bad_now());
  agx::task_request_fields f;
  f.task_id = task_id;
  f.capability = capability;
  f.payload_json = opt(has_payload, payload_json);
  f.message_id = fresh_id();
  f.auto_depth = auto_depth;
  f.accepts_updates = accepts_updates;
  auto r = agx::task_request_rumor(f, author, recipient, now);
  if (!r) return fail(r.err());
  return val(nip59::rumor_to_json(*r));
}

// A status update (state "working" or "input-required", message optional) or, with state
// "input", the requester's answer (input JSON optional) as a 3838 rumor.
val task_update_rumor(const std::string& task_id, const std::string& state, bool has_text, const std::string& text,
                      const std::string& author, const std::string& recipient, double now_s) {
  std::int64_t now;
  if (!read_now(now_s, now)) return fail(bad_now());
  result<std::string> env = make_error(errc::invalid_argument, "state must be working, input-required or input");
  if (state == "input") {
    env = agx::task_input_json(task_id, opt(has_text, text));
  } else if (auto st = agx::parse_task_state(state); st) {
    env = agx::task_status_json(task_id, *st, has_text ? std::optional<std::string_view>(text) : std::nullopt);
  }
  if (!env) return fail(env.err());
  auto r = agx::task_envelope_rumor(*env, task_id, fresh_id(), author, recipient, now);
  if (!r) return fail(r.err());
  return val(nip59::rumor_to_json(*r));
}

// --- the wrap, mined in bounded slices

// seal_and_start's rumor checks, for the handle path (which seals with the handle's cached
// conversation key instead of a raw secret).
result<void> check_agx_rumor(const event& rumor, const std::string& recipient) {
  if (rumor.kind != agx::kMessageKind && rumor.kind != agx::kReceiptKind)
    return make_error(errc::invalid_argument, "AGX wraps only message (3838) and receipt (3839) rumors");
  std::size_t p_tags = 0;
  bool names_recipient = false;
  for (const auto& t : rumor.tags) {
    if (t.empty() || t[0] != "p") continue;
    ++p_tags;
    names_recipient = t.size() >= 2 && t[1] == recipient;
  }
  if (p_tags != 1 || !names_recipient)
    return make_error(errc::invalid_argument, "the rumor must carry exactly one p tag, the recipient");
  return {};
}

class wrap_job {
 public:
  wrap_job() = default;

  // Seals with a LocalSigner handle (must be the rumor's author) and prepares the wrap.
  val start_with_handle(int handle, const std::string& rumor_json, const std::string& recipient, double now_s,
                        const std::string& random) {
    miner_.reset();
    const auto* author = key_for_handle(handle);
    if (!author) return fail(disposed());
    std::int64_t now;
    if (!read_now(now_s, now)) return fail(bad_now());
    nip59::wrap_randomness rnd;
    if (!read_wrap_randomness(random, rnd)) return fail(bad_random());
    auto rumor = nip59::parse_rumor(rumor_json);
    if (!rumor) return fail(rumor.err());
    if (rumor->pubkey != hex::encode(author->public_key()))
      return fail(make_error(errc::invalid_argument, "the rumor's author is not this signer"));
    auto ok = check_agx_rumor(*rumor, recipient);
    if (!ok) return fail(ok.err());
    bytes32 rcpt{};
    if (!read_pubkey(recipient, rcpt))
      return fail(make_error(errc::invalid_public_key, "recipient must be 64 lowercase hex characters"));
    auto ck = conversation_key_for_handle(handle, rcpt);
    if (!ck) return fail(ck.err());
    auto seal = nip59::create_seal(*rumor, *author, **ck, rnd.seal_nonce, rnd.seal_aux,
                                   agx::backdated(now, rnd.seal_tweak));
    if (!seal) return fail(seal.err());
    auto m = agx::wrap_miner::start(*seal, recipient, now, rnd);
    if (!m) return fail(m.err());
    miner_.emplace(std::move(*m));
    return val(true);
  }

  // The author's secret key is in the secret slot (taken first).
  val start_with_secret(const std::string& rumor_json, const std::string& recipient, double now_s,
                        const std::string& random) {
    secret32 sk = take_secret();
    miner_.reset();
    std::int64_t now;
    if (!read_now(now_s, now)) return fail(bad_now());
    nip59::wrap_randomness rnd;
    if (!read_wrap_randomness(random, rnd)) return fail(bad_random());
    auto rumor = nip59::parse_rumor(rumor_json);
    if (!rumor) return fail(rumor.err());
    auto m = agx::seal_and_start(*rumor, sk.b, recipient, now, rnd);
    if (!m) return fail(m.err());
    miner_.emplace(std::move(*m));
    return val(true);
  }

  // The seal was made by an external signer (NIP-07, NIP-46): only the one-time key's work here.
  val start_with_seal(const std::string& seal_json, const std::string& recipient, double now_s,
                      const std::string& random) {
    miner_.reset();
    std::int64_t now;
    if (!read_now(now_s, now)) return fail(bad_now());
    nip59::wrap_randomness rnd;
    if (!read_wrap_randomness(random, rnd)) return fail(bad_random());
    auto seal = read_event(seal_json);
    if (!seal) return fail(make_error(errc::nip59_invalid_seal, "the seal is not a signed event"));
    auto m = agx::wrap_miner::start(*seal, recipient, now, rnd);
    if (!m) return fail(m.err());
    miner_.emplace(std::move(*m));
    return val(true);
  }

  // Up to `iterations` more nonces: true once found.
  val step(double iterations) {
    if (!miner_) return fail(make_error(errc::invalid_argument, "wrap not started"));
    if (!std::isfinite(iterations) || iterations < 1) iterations = 1;
    auto r = miner_->step(static_cast<std::uint64_t>(iterations));
    if (!r) return fail(r.err());
    return val(*r);
  }

  double tried() const { return miner_ ? static_cast<double>(miner_->tried()) : 0; }

  val finish() {
    if (!miner_) return fail(make_error(errc::invalid_argument, "wrap not started"));
    auto w = miner_->finish();
    if (!w) return fail(w.err());
    miner_.reset();
    return val(to_json(*w));
  }

 private:
  std::optional<agx::wrap_miner> miner_;
};

// --- unwrap

// How the inbox treats the last unwrap failure: 'retry', 'ignore' or 'discard' (unwrap.hpp).
agx::disposition g_disposition = agx::disposition::ignore;

void set_disposition(errc code, agx::unwrap_stage stage) { g_disposition = agx::disposition_of(code, stage); }

json message_json(const agx::inbound_message& m) {
  json j;
  j["contentType"] = m.payload.content_type;
  j["role"] = m.payload.role;
  j["messageId"] = m.payload.message_id;
  j["contextId"] = m.payload.context_id;
  j["text"] = m.payload.text;
  j["subject"] = m.payload.subject ? json(*m.payload.subject) : json(nullptr);
  j["autoDepth"] = m.payload.auto_depth;
  return j;
}

json task_json(const agx::task_envelope& t) {
  json j;
  j["taskId"] = t.task_id;
  if (t.t == agx::task_envelope::type::request) {
    j["t"] = "req";
    j["capability"] = t.capability;
    j["payload"] = raw_json(t.payload_json);
    // Which of our status envelopes the requester gets (the core's rule, task.hpp).
    j["updates"] = {{"status", agx::may_send_status(t)}, {"input", agx::may_request_input(t)}};
  } else if (t.t == agx::task_envelope::type::status) {
    j["t"] = "status";
    j["status"] = agx::task_state_name(t.update_state);
    j["message"] = t.message ? json(*t.message) : json(nullptr);
  } else if (t.t == agx::task_envelope::type::input) {
    j["t"] = "input";
    j["input"] = raw_json(t.input_json);
  } else {
    j["t"] = "res";
    j["status"] = agx::result_status_name(t.status);
    j["output"] = raw_json(t.output_json);
    j["error"] = t.error ? json(*t.error) : json(nullptr);
  }
  return j;
}

result<std::string> opened_json(const agx::opened_wrap& w) {
  json j;
  j["from"] = w.from;
  j["wrapId"] = w.wrap_id;
  j["wrapCreatedAt"] = w.wrap_created_at;
  j["wrapExpiresAt"] = w.wrap_expires_at;
  j["rumor"] = parse_json(nip59::rumor_to_json(w.rumor));
  j["sentAt"] = w.rumor.created_at;
  if (w.rumor.kind == agx::kReceiptKind) {
    auto r = agx::read_receipt(w);
    if (!r) return r.err();
    j["kind"] = "receipt";
    j["class"] = "receipt";
    j["receipt"] = {{"refEventId", r->receipt.ref_event_id},
                    {"contextId", r->receipt.context_id},
                    {"status", agx::receipt_status_name(r->receipt.status)}};
    return j.dump();
  }
  auto m = agx::read_message(w);
  if (!m) return m.err();
  j["kind"] = "message";
  j["message"] = message_json(*m);
  j["taskMalformed"] = m->task_malformed;
  switch (m->payload.cls) {
    case agx::content_class::text: j["class"] = "text"; break;
    case agx::content_class::unknown: j["class"] = "unknown"; break;
    case agx::content_class::task:
      if (m->task) {
        switch (m->task->t) {
          case agx::task_envelope::type::request: j["class"] = "task-request"; break;
          case agx::task_envelope::type::result: j["class"] = "task-result"; break;
          case agx::task_envelope::type::status: j["class"] = "task-status"; break;
          case agx::task_envelope::type::input: j["class"] = "task-input"; break;
        }
        j["task"] = task_json(*m->task);
      } else {
        j["class"] = "unknown";
      }
      break;
  }
  return j.dump();
}

val finish_unwrap(const result<agx::opened_wrap>& out) {
  if (!out) {
    set_disposition(out.err().code, agx::unwrap_stage::opening);
    return fail(out.err());
  }
  auto j = opened_json(*out);
  if (!j) {
    g_disposition = agx::disposition::discard;
    return fail(j.err());
  }
  return val(*j);
}

// The public checks, then the opening: the disposition of a failure depends on which failed.
val checked_unwrap(const event& w, const nip59::conversation_key_fn& ck, const std::string& me, std::int64_t now) {
  auto ok = agx::check_wrap(w, me, now);
  if (!ok) {
    set_disposition(ok.err().code, agx::unwrap_stage::public_checks);
    return fail(ok.err());
  }
  return finish_unwrap(agx::unwrap_checked(w, ck, me));
}

// The wrap JSON is in the scratch buffer; the recipient is a LocalSigner handle.
val unwrap_with_handle(int handle, std::size_t wrap_len, double now_s) {
  g_disposition = agx::disposition::retry_later;
  const auto* me = key_for_handle(handle);
  if (!me) return fail(disposed());
  std::int64_t now;
  if (!read_now(now_s, now)) return fail(bad_now());
  auto w = read_event(as_chars(scratch(wrap_len), wrap_len));
  if (!w) {
    g_disposition = agx::disposition::ignore;
    return fail(w.err());
  }
  bytes32 wrap_author{};
  (void)hex::decode_to(w->pubkey, wrap_author.data(), 32);
  auto provider = [handle, &wrap_author](const bytes32& peer) -> result<bytes32> {
    if (peer == wrap_author) return conversation_key_uncached(handle, peer);
    auto ck = conversation_key_for_handle(handle, peer);
    if (!ck) return ck.err();
    return **ck;
  };
  return checked_unwrap(*w, provider, hex::encode(me->public_key()), now);
}

// The recipient's secret key is in the secret slot.
val unwrap_with_secret(std::size_t wrap_len, double now_s) {
  secret32 sk = take_secret();
  g_disposition = agx::disposition::retry_later;
  std::int64_t now;
  if (!read_now(now_s, now)) return fail(bad_now());
  auto w = read_event(as_chars(scratch(wrap_len), wrap_len));
  if (!w) {
    g_disposition = agx::disposition::ignore;
    return fail(w.err());
  }
  auto pub = crypto::xonly_public_key(sk.b);
  if (!pub) return fail(pub.err());
  auto provider = [&sk](const bytes32& peer) { return nip44::get_conversation_key(sk.b, peer); };
  return checked_unwrap(*w, provider, hex::encode(*pub), now);
}

std::string last_unwrap_disposition() {
  switch (g_disposition) {
    case agx::disposition::retry_later: return "retry";
    case agx::disposition::discard: return "discard";
    case agx::disposition::ignore: return "ignore";
  }
  return "ignore";
}

// Step by step, for a recipient key held by an external signer: the public checks, then the
// seal the signer decrypted from the wrap, then the rumor it decrypted from the seal.
val check_wrap_public(const std::string& wrap_json, const std::string& me, double now_s) {
  g_disposition = agx::disposition::retry_later;
  std::int64_t now;
  if (!read_now(now_s, now)) return fail(bad_now());
  auto w = read_event(wrap_json);
  if (!w) {
    g_disposition = agx::disposition::ignore;
    return fail(w.err());
  }
  auto ok = agx::check_wrap(*w, me, now);
  if (!ok) {
    set_disposition(ok.err().code, agx::unwrap_stage::public_checks);
    return fail(ok.err());
  }
  return val(true);
}

val open_seal(const std::string& seal_json) {
  g_disposition = agx::disposition::discard;
  auto seal = agx::open_seal_json(seal_json);
  if (!seal) return fail(seal.err());
  return val(to_json(*seal));
}

val open_rumor(const std::string& wrap_json, const std::string& seal_json, const std::string& rumor_json,
               const std::string& me) {
  g_disposition = agx::disposition::discard;
  auto w = read_event(wrap_json);
  if (!w) return fail(w.err());
  auto seal = agx::open_seal_json(seal_json);
  if (!seal) return fail(seal.err());
  return finish_unwrap(agx::open_rumor_json(*w, *seal, rumor_json, me));
}

// created_at of a seal made outside the core (backdated up to two days, never the future).
double backdated(double now_s, const std::string& random8) {
  std::int64_t now;
  if (!read_now(now_s, now) || random8.size() != 8) return -1;
  return static_cast<double>(agx::backdated(now, read_u64(as_bytes(random8))));
}

// --- discovery: reading Agent Cards (11337), NIP-05

val parse_card(const std::string& event_json) {
  auto e = read_event(event_json);
  if (!e) return fail(e.err());
  auto c = agx::parse_card(*e);
  if (!c) return fail(c.err());
  auto opt_json = [](const std::optional<std::string>& s) { return s ? json(*s) : json(nullptr); };
  json out;
  out["pubkey"] = c->pubkey;
  out["createdAt"] = c->created_at;
  out["id"] = e->id;
  out["org"] = opt_json(c->org);
  out["displayName"] = opt_json(c->display_name);
  out["nip05"] = opt_json(c->nip05);
  out["capabilities"] = c->capabilities;
  out["relays"] = c->relays;
  out["payloadTypes"] = c->payload_types;
  return val(out.dump());
}

// name@domain -> {name, domain, url}
val parse_nip05(const std::string& identifier) {
  auto a = agx::parse_nip05(identifier);
  if (!a) return fail(a.err());
  json out;
  out["name"] = a->name;
  out["domain"] = a->domain;
  out["url"] = agx::nip05_url(*a);
  return val(out.dump());
}

val nip05_pubkey(const std::string& body, const std::string& name) {
  auto pk = agx::nip05_pubkey(body, name);
  if (!pk) return fail(pk.err());
  return val(*pk);
}

// --- handler keys (string_list is declared above)

// --- routing state: authorization policy, handler keys, open requests

class router {
 public:
  // mode: "unconfigured", "accept-all", "host" (a JS authorize function) or "allow-list".
  explicit router(const std::string& mode) {
    if (mode == "accept-all") policy_ = agx::authorization_policy::accept_all();
    else if (mode == "host") policy_ = agx::authorization_policy::host_decides();
  }

  val allow(const std::string& pubkey, const std::string& pattern) {
    auto r = policy_.allow(pubkey, pattern);
    if (!r) return fail(r.err());
    return val(true);
  }
  bool revoke(const std::string& pubkey) { return policy_.revoke(pubkey); }
  std::string decide(const std::string& from, const std::string& capability) const {
    return agx::auth_verdict_name(policy_.decide(from, capability));
  }
  bool take_unconfigured_warning() { return policy_.take_unconfigured_warning(); }

  void set_handlers(const std::string& keys_json) { handlers_ = string_list(keys_json); }
  // Deliver messages of unknown content types (plain path) instead of dropping them.
  void set_keep_unknown_content_types(bool keep) { options_.keep_unknown_content_types = keep; }

  // deadline < 0: none.
  val add_pending(const std::string& task_id, const std::string& peer, double deadline) {
    auto r = pending_.add(task_id, peer,
                          deadline < 0 ? std::nullopt : std::optional<std::int64_t>(static_cast<std::int64_t>(deadline)));
    if (!r) return fail(r.err());
    return val(true);
  }
  bool cancel_pending(const std::string& task_id) { return pending_.cancel(task_id); }
  std::string settle(const std::string& task_id, const std::string& from) {
    switch (pending_.settle(task_id, from)) {
      case agx::settle_outcome::settled: return "settled";
      case agx::settle_outcome::wrong_sender: return "wrong-sender";
      case agx::settle_outcome::unknown: return "unknown";
    }
    return "unknown";
  }
  std::string expire(double now) {
    json j = pending_.expire(static_cast<std::int64_t>(now));
    return j.dump();
  }
  double pending_size() const { return static_cast<double>(pending_.size()); }

  // Our handler asked the requester `peer` for input on task_id (until end_await).
  val await_input(const std::string& task_id, const std::string& peer) {
    auto r = awaiting_.add(task_id, peer, std::nullopt);
    if (!r) return fail(r.err());
    return val(true);
  }
  bool end_await(const std::string& task_id) { return awaiting_.cancel(task_id); }

  // The route of an opened message ({from, wrapId, wrapCreatedAt, rumor} as unwrap returned it).
  // host_verdict: -1 none yet, 0 deny, 1 allow (completes an ask-host decision).
  val route(const std::string& opened_json, int host_verdict) {
    auto j = parse_json(opened_json);
    if (!j.is_object() || !j.contains("rumor") || !j["from"].is_string() || !j["wrapId"].is_string())
      return fail(make_error(errc::invalid_argument, "expected an opened wrap"));
    auto rumor = nip59::parse_rumor(j["rumor"].dump());
    if (!rumor) return fail(rumor.err());
    agx::opened_wrap w;
    w.from = j["from"].get<std::string>();
    w.wrap_id = j["wrapId"].get<std::string>();
    w.rumor = std::move(*rumor);
    auto m = agx::read_message(w);
    if (!m) return fail(m.err());
    auto d = agx::route(*m, handlers_, pending_, policy_, &awaiting_, options_);
    if (host_verdict >= 0) d = agx::after_host_verdict(std::move(d), host_verdict == 1);
    json out;
    out["action"] = agx::route_action_name(d.action);
    out["reason"] = agx::route_reason_name(d.reason);
    out["sendReceipt"] = d.send_receipt;
    out["mayAutoReply"] = d.may_auto_reply;
    out["mayReply"] = d.may_reply;
    out["handlerKey"] = d.handler_key;
    out["capability"] = d.capability;
    out["taskId"] = d.task_id;
    return val(out.dump());
  }

 private:
  agx::authorization_policy policy_;
  std::vector<std::string> handlers_;
  agx::pending_requests pending_;
  agx::pending_requests awaiting_;
  agx::route_options options_;
};

// --- replay guard over an in-memory store

class replay_guard_binding {
 public:
  replay_guard_binding(double cap, double cache_cap)
      : store_(cap >= 1 ? static_cast<std::size_t>(cap) : agx::kSeenCap),
        cache_(cache_cap >= 1 ? static_cast<std::size_t>(cache_cap) : agx::kDiscardedCap, agx::when_full::evict),
        guard_(store_, cache_) {}
  bool known_wrap(const std::string& id, double now) { return guard_.known_wrap(id, static_cast<std::int64_t>(now)); }
  bool known_rumor(const std::string& id, double now) { return guard_.known_rumor(id, static_cast<std::int64_t>(now)); }
  bool has_room(double now) { return guard_.has_room(static_cast<std::int64_t>(now)); }
  // true, or undefined with AGX_OVERLOADED as the last error (nothing recorded).
  val processed(const std::string& rumor_id, const std::string& wrap_id, double now, double until) {
    auto r = guard_.processed(rumor_id, wrap_id, static_cast<std::int64_t>(now), static_cast<std::int64_t>(until));
    if (!r) return fail(r.err());
    return val(true);
  }
  void discarded(const std::string& wrap_id, double now) { guard_.discarded(wrap_id, static_cast<std::int64_t>(now)); }
  double size() const { return static_cast<double>(store_.size()); }
  double cap() const { return static_cast<double>(store_.cap()); }
  double cached() const { return static_cast<double>(cache_.size()); }
  double prune(double now) {
    cache_.prune(static_cast<std::int64_t>(now));
    return static_cast<double>(store_.prune(static_cast<std::int64_t>(now)));
  }
  // Durable mirror hooks: a snapshot of live entries, loading one, and the marks since last taken.
  std::string snapshot(double now) const { return store_.snapshot_json(static_cast<std::int64_t>(now)); }
  val load_snapshot(const std::string& text, double now) {
    auto n = store_.load_snapshot(text, static_cast<std::int64_t>(now));
    if (!n) return fail(n.err());
    return val(static_cast<double>(*n));
  }
  std::string take_journal() {
    json j = json::array();
    for (const auto& e : store_.take_journal()) j.push_back(json::array({hex::encode(e.id), e.expires_at}));
    return j.dump();
  }
  bool journal_overflowed() const { return store_.journal_overflowed(); }

 private:
  agx::memory_seen_store store_;
  agx::memory_seen_store cache_;
  agx::replay_guard guard_;
};

// 0, or INVALID_ARGUMENT as the last error (fail_code) for a poll overlap past the retention.
int check_poll_overlap(double overlap) {
  if (!(overlap >= -1 && overlap <= 9007199254740991.0)) return fail_code(make_error(errc::invalid_argument, "pollOverlap must be integer seconds"));
  auto r = agx::check_poll_overlap(static_cast<std::int64_t>(overlap));
  return r ? 0 : fail_code(r.err());
}

}  // namespace

EMSCRIPTEN_BINDINGS(agx) {
  emscripten::function("agxMessageRumor", &message_rumor);
  emscripten::function("agxTaskRequestRumor", &task_request_rumor);
  emscripten::function("agxTaskUpdateRumor", &task_update_rumor);
  emscripten::function("agxUnwrapWithHandle", &unwrap_with_handle);
  emscripten::function("agxUnwrapWithSecret", &unwrap_with_secret);
  emscripten::function("agxLastUnwrapDisposition", &last_unwrap_disposition);
  emscripten::function("agxCheckWrap", &check_wrap_public);
  emscripten::function("agxOpenSeal", &open_seal);
  emscripten::function("agxOpenRumor", &open_rumor);
  emscripten::function("agxBackdated", &backdated);
  emscripten::function("agxParseCard", &parse_card);
  emscripten::function("agxParseNip05", &parse_nip05);
  emscripten::function("agxNip05Pubkey", &nip05_pubkey);
  emscripten::class_<wrap_job>("AgxWrapJob")
      .constructor<>()
      .function("startWithHandle", &wrap_job::start_with_handle)
      .function("startWithSecret", &wrap_job::start_with_secret)
      .function("startWithSeal", &wrap_job::start_with_seal)
      .function("step", &wrap_job::step)
      .function("tried", &wrap_job::tried)
      .function("finish", &wrap_job::finish);
  emscripten::class_<router>("AgxRouter")
      .constructor<std::string>()
      .function("allow", &router::allow)
      .function("revoke", &router::revoke)
      .function("decide", &router::decide)
      .function("takeUnconfiguredWarning", &router::take_unconfigured_warning)
      .function("setHandlers", &router::set_handlers)
      .function("setKeepUnknownContentTypes", &router::set_keep_unknown_content_types)
      .function("addPending", &router::add_pending)
      .function("cancelPending", &router::cancel_pending)
      .function("settle", &router::settle)
      .function("expire", &router::expire)
      .function("pendingSize", &router::pending_size)
      .function("awaitInput", &router::await_input)
      .function("endAwait", &router::end_await)
      .function("route", &router::route);
  emscripten::function("agxCheckPollOverlap", &check_poll_overlap);
  emscripten::class_<replay_guard_binding>("AgxReplayGuard")
      .constructor<double, double>()
      .function("knownWrap", &replay_guard_binding::known_wrap)
      .function("knownRumor", &replay_guard_binding::known_rumor)
      .function("hasRoom", &replay_guard_binding::has_room)
      .function("processed", &replay_guard_binding::processed)
      .function("discarded", &replay_guard_binding::discarded)
      .function("size", &replay_guard_binding::size)
      .function("cap", &replay_guard_binding::cap)
      .function("cached", &replay_guard_binding::cached)
      .function("prune", &replay_guard_binding::prune)
      .function("snapshot", &replay_guard_binding::snapshot)
      .function("loadSnapshot", &replay_guard_binding::load_snapshot)
      .function("takeJournal", &replay_guard_binding::take_journal)
      .function("journalOverflowed", &replay_guard_binding::journal_overflowed);
}

}  // namespace nostr::bindings
