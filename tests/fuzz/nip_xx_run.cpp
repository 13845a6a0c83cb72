// The NIP-XX machines that take network events in order: the client's reconciliation of a run
// (client_run) and the agent's admission gate (agent_admission). The input is a script of events
// (kind, created_at, id, tag variant, plaintext) built with FuzzedDataProvider. Invariants: once a
// terminal is held, a later delta never changes the text; the terminal held always has the
// highest (created_at, id) of the terminals accepted; a blocked sender is never admitted.
#include <fuzzer/FuzzedDataProvider.h>

#include <set>
#include <string>

#include "protocols/nip_xx/agent_admission.hpp"
#include "protocols/nip_xx/client_run.hpp"
#include "fuzz_support.hpp"

using namespace nostr;
using namespace nostr::nip_xx;

namespace {
const std::string kPrompt(64, '1');
const std::string kAgent(64, 'a');
const std::string kClient(64, 'c');
const std::string kBlocked(64, 'b');

tag_list tags_for(std::uint8_t variant, const std::string& p) {
  switch (variant % 7) {
    case 0: return {{"p", p}, {"e", kPrompt, "", "root"}, {"encryption", "nip44"}};
    case 1: return {{"p", p}, {"e", kPrompt, "", "root"}, {"encryption", "nip04"}};
    case 2: return {{"p", p}, {"e", kPrompt}, {"encryption", "nip44"}};
    case 3: return {{"p", std::string(64, 'e')}, {"e", kPrompt, "", "root"}, {"encryption", "nip44"}};
    case 4: return {{"p", p}, {"e", std::string(64, '2'), "", "root"}, {"encryption", "nip44"}};
    case 5: return {{"p", p}, {"e", kPrompt, "", "root"}, {"encryption", "nip44"}, {"s", "session-1"}};
    default: return {{"p", p}};
  }
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider in(data, size);
  client_run run(kPrompt, kAgent, kClient);
  agent_config cfg;
  cfg.agent_pubkey = kAgent;
  cfg.block = {kBlocked};
  cfg.prompts_per_minute = 30;
  cfg.max_session_turns = 3;
  cfg.max_tracked = 4;
  agent_admission gate(cfg);

  static const std::int64_t kinds[] = {25800, 25801, 25802, 25803, 25804, 25805, 25806, 31340};
  std::optional<std::pair<std::int64_t, std::string>> best_terminal;
  int steps = 0;
  while (in.remaining_bytes() > 0 && steps++ < 64) {
    event e;
    e.kind = kinds[in.ConsumeIntegralInRange<int>(0, 7)];
    e.created_at = in.ConsumeIntegralInRange<std::int64_t>(0, 20);
    e.id = std::string(63, '0') + "0123456789abcdef"[in.ConsumeIntegralInRange<int>(0, 15)];
    const bool to_agent = in.ConsumeBool();
    e.pubkey = to_agent ? (in.ConsumeBool() ? kBlocked : std::string(64, std::string("0123456789")[in.ConsumeIntegralInRange<int>(0, 9)]))
                        : kAgent;
    e.tags = tags_for(in.ConsumeIntegral<std::uint8_t>(), to_agent ? kAgent : kClient);
    e.sig = std::string(128, '0');
    e.content = "payload";
    const std::string plaintext = in.ConsumeRandomLengthString(512);

    if (to_agent) {
      auto screened = gate.screen(e, e.created_at * 10);
      if (auto* tags = std::get_if<run_tags>(&screened)) {
        FUZZ_CHECK(e.pubkey != kBlocked);
        auto admitted = gate.admit(e, *tags, plaintext);
        if (auto* a = std::get_if<admitted_prompt>(&admitted)) FUZZ_CHECK(a->sender == e.pubkey && !a->prompt.message.empty());
      }
      continue;
    }
    const std::string before = run.text();
    const bool had_terminal = run.terminal().has_value();
    run_update u = run.on_event(e, plaintext);
    if (had_terminal && u.type == update_kind::delta) FUZZ_CHECK(false);
    if (had_terminal) FUZZ_CHECK(run.text() == before);
    if (u.type == update_kind::rejected) FUZZ_CHECK(u.code != errc::ok);
    if (u.type == update_kind::terminal) {
      const std::pair<std::int64_t, std::string> key{e.created_at, e.id};
      FUZZ_CHECK(!best_terminal || key > *best_terminal);
      best_terminal = key;
    }
    if (best_terminal) {
      FUZZ_CHECK(run.terminal().has_value());
      FUZZ_CHECK(run.terminal()->created_at == best_terminal->first && run.terminal()->event_id == best_terminal->second);
    }
    (void)run.degraded();
    (void)run.next_missing_seq();
  }
  return 0;
}
