// The client's view of one run: every event the agent sends about a prompt goes in, already
// decrypted, and a typed update comes out. It applies the seed's "Streaming and reconciliation"
// and "Validation and failure rules":
// - events whose (author, p, e root, encryption) do not belong to this run are ignored;
// - duplicates by event id are ignored; deltas are ordered by (seq, created_at, id) when seq is
//   present, else (created_at, id); identical (seq, text) pairs are deduplicated;
// - a missing seq marks the run degraded while the text is still rendered best-effort;
// - a seq that contradicts another (same seq with other text, seq order against created_at order,
//   or a run mixing deltas with and without seq) is INVALID_SEQUENCE and is not applied;
// - nothing but a newer terminal is applied after a terminal; of several terminals the one with
//   the highest (created_at, id) wins ("clients MUST keep only the terminal event with the highest
//   created_at and highest id as tie-breaker"), so the run settles only a grace period after its
//   first terminal (settle_at_ms), whoever sent what: a relay may deliver an older terminal first,
//   another device may have cancelled, two instances of one agent may both answer;
// - the final text comes from ai.response only.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "event/event.hpp"
#include "protocols/nip_xx/kinds.hpp"
#include "protocols/nip_xx/payload.hpp"

namespace nostr::nip_xx {

enum class update_kind {
  status,     // status payload
  delta,      // text so far changed
  tool_call,  // tool telemetry
  terminal,   // a terminal was accepted (or replaced a lower one)
  ignored,    // not for this run, duplicate, or after the terminal: nothing changed
  rejected,   // for this run but invalid (code says why); nothing changed
};

struct run_update {
  update_kind type = update_kind::ignored;
  std::string reason;  // ignored/rejected: why
  errc code = errc::ok;  // rejected: PARSE_ERROR, INVALID_SCHEMA, UNSUPPORTED_ENCRYPTION, INVALID_SEQUENCE
  std::optional<status_payload> status;
  std::optional<tool_call_payload> tool_call;
  std::optional<std::string> thinking;  // delta: a thinking block (envelope mode=thinking), not answer text
  bool replaced = false;  // terminal: it replaced an earlier terminal
  std::string replaced_id;  // terminal, replaced: the event id of the terminal it replaced
};

// How long a run keeps listening after its first terminal for a newer one (ms). created_at has a
// one-second resolution, so a competing terminal (a response/cancel race, a second instance of the
// agent) is signed within about a second of the first; the relays deliver it within the rest.
inline constexpr std::int64_t default_terminal_grace_ms = 1500;

struct terminal_state {
  kind k = kind::response;
  std::string event_id;
  std::int64_t created_at = 0;
  std::optional<response_payload> response;  // text already unwrapped from an envelope
  std::optional<error_payload> error;
};

class client_run {
 public:
  // terminal_grace_ms: see settle_at_ms (0: the first terminal settles the run at once).
  client_run(std::string prompt_id, std::string agent_pubkey, std::string client_pubkey,
             std::int64_t terminal_grace_ms = default_terminal_grace_ms);

  // e: the received event (signature already verified); plaintext: its decrypted content;
  // now_ms: the local time it arrived (any monotonic ms clock; only settle_at_ms uses it).
  run_update on_event(const event& e, std::string_view plaintext, std::int64_t now_ms = 0);

  // When the run's outcome is final: the arrival of its first terminal plus the grace period, or
  // nullopt before any terminal. Until then a newer terminal replaces the accepted one (without
  // moving this deadline: a stream of ever newer terminals cannot keep a run open).
  std::optional<std::int64_t> settle_at_ms() const;
  std::int64_t terminal_grace_ms() const { return terminal_grace_ms_; }

  const std::string& prompt_id() const { return prompt_id_; }
  // Best-effort rendering of the deltas so far, in order (gaps skipped).
  std::string text() const;
  bool degraded() const;  // a seq is missing below the highest seen
  std::optional<std::int64_t> next_missing_seq() const;
  const std::optional<terminal_state>& terminal() const { return terminal_; }
  std::size_t delta_count() const { return seq_deltas_.size() + plain_deltas_.size(); }

 private:
  struct plain_delta {
    std::int64_t created_at;
    std::string id;
    std::string text;
    bool operator<(const plain_delta& o) const {
      return created_at != o.created_at ? created_at < o.created_at : id < o.id;
    }
  };
  struct seq_delta {
    std::int64_t created_at;
    std::string id;
    std::string text;
  };

  run_update on_delta(const event& e, const delta_payload& d);
  run_update on_terminal(const event& e, std::string_view plaintext);

  std::string prompt_id_, agent_, client_;
  std::set<std::string> seen_ids_;
  enum class seq_mode { unknown, with_seq, without_seq } mode_ = seq_mode::unknown;
  std::map<std::int64_t, seq_delta> seq_deltas_;
  std::set<plain_delta> plain_deltas_;
  std::optional<terminal_state> terminal_;
  std::int64_t terminal_grace_ms_;
  std::optional<std::int64_t> first_terminal_at_ms_;
};

// The visible text of a delta or response `text` field: plain text as it is, or the `text`
// (else `block`) value of a compatibility envelope. Envelope errors are INVALID_SCHEMA.
struct text_view {
  std::string text;
  bool thinking = false;  // envelope mode=thinking
};
result<text_view> visible_text(kind k, const std::string& text);

}  // namespace nostr::nip_xx
