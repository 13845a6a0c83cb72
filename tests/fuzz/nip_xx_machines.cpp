// The NIP-XX machines driven as a driver would: a client run (events, cancel, clock jumps and
// timeouts) paired with agent runs, and the agent inbox (prompts, cancels, runs starting and
// ending) under random event sequences and clock jumps. Invariants:
// - one terminal per run: handle_timeout reports an outcome at most once, and an agent run emits
//   at most one terminal (at most one CANCELLED);
// - no action after close: a closed client run takes no event and has no deadline; a finished
//   agent run produces nothing more;
// - exactly once per prompt id: the inbox hands a prompt id out for handling at most once (while
//   it is remembered), and never one addressed to another agent;
// - the incremental text (append / reset) always rebuilds exactly text(); deadlines never go
//   backwards past now without firing.
#include <fuzzer/FuzzedDataProvider.h>

#include <map>
#include <set>
#include <string>

#include "protocols/nip_xx/agent_inbox.hpp"
#include "protocols/nip_xx/agent_run.hpp"
#include "protocols/nip_xx/client_run.hpp"
#include "protocols/nip_xx/tags.hpp"
#include "fuzz_support.hpp"

using namespace nostr;
using namespace nostr::nip_xx;

namespace {
const std::string kPrompt(64, '1');
const std::string kAgent(64, 'a');
const std::string kClient(64, 'c');
const std::string kOther(64, 'e');

std::string id_of(unsigned n) {
  static const char* hex = "0123456789abcdef";
  std::string id(64, '0');
  for (int i = 63; i >= 56; --i, n >>= 4) id[i] = hex[n & 15];
  return id;
}

void client_side(FuzzedDataProvider& in) {
  client_run run(kPrompt, kAgent, kClient, in.ConsumeIntegralInRange<std::int64_t>(0, 3000),
                 in.ConsumeIntegralInRange<std::int64_t>(0, 5000));
  agent_run agent(kPrompt, kClient, std::nullopt, default_info());
  std::int64_t now = in.ConsumeIntegralInRange<std::int64_t>(0, 1'000'000);
  run.start(now);
  std::string shown;  // the text rebuilt from the increments, as the JS driver does
  int outcomes = 0;
  int agent_terminals = 0;
  unsigned next_id = 1;
  for (int steps = 0; in.remaining_bytes() > 0 && steps < 96; ++steps) {
    std::optional<outgoing> out;
    switch (in.ConsumeIntegralInRange<int>(0, 7)) {
      case 0: {
        auto r = agent.delta(in.ConsumeRandomLengthString(24));
        if (r) out = std::move(*r);
        break;
      }
      case 1: {
        auto r = agent.respond(in.ConsumeRandomLengthString(24));
        if (r) out = std::move(*r), ++agent_terminals;
        break;
      }
      case 2: {
        auto r = agent.fail(errc::xx_internal_error, "boom");
        if (r) out = std::move(*r), ++agent_terminals;
        break;
      }
      case 3: {
        auto r = agent.cancel();
        if (r) out = std::move(*r), ++agent_terminals;
        break;
      }
      case 4:  // the clock jumps (forwards, or a little backwards: wall clocks do)
        now += in.ConsumeIntegralInRange<std::int64_t>(-500, 10'000);
        break;
      case 5:
        if (run.may_cancel()) run.cancel_sent(now, in.ConsumeIntegralInRange<std::int64_t>(0, 4000));
        break;
      case 6: {  // a timer fires
        const bool closed = run.closed();
        auto at = run.next_deadline();
        timeout_outcome o = run.handle_timeout(now);
        if (o != timeout_outcome::none) {
          ++outcomes;
          FUZZ_CHECK(!closed && at && *at <= now);
          FUZZ_CHECK(o != timeout_outcome::settled || run.terminal());
        }
        break;
      }
      default: {  // a raw event: another run, another author, or garbage
        event e;
        e.kind = 25800 + in.ConsumeIntegralInRange<int>(0, 6);
        e.pubkey = in.ConsumeBool() ? kAgent : kOther;
        e.created_at = in.ConsumeIntegralInRange<std::int64_t>(0, 30);
        e.tags = run_event_tags(kClient, in.ConsumeBool() ? kPrompt : std::string(64, '2'), std::nullopt);
        e.id = id_of(next_id++);
        const bool closed = run.closed();
        run_update u = run.on_event(e, in.ConsumeRandomLengthString(200), now);
        if (closed) FUZZ_CHECK(u.type == update_kind::ignored);
        if (u.type == update_kind::delta) shown = u.text_reset ? run.text() : shown + u.append;
        break;
      }
    }
    if (out) {
      event e;
      e.kind = static_cast<std::int64_t>(out->k);
      e.pubkey = kAgent;
      e.created_at = in.ConsumeIntegralInRange<std::int64_t>(0, 30);
      e.tags = out->tags;
      e.id = id_of(next_id++);
      const bool closed = run.closed();
      run_update u = run.on_event(e, out->plaintext, now);
      if (closed) FUZZ_CHECK(u.type == update_kind::ignored);
      if (u.type == update_kind::delta) shown = u.text_reset ? run.text() : shown + u.append;
    }
    FUZZ_CHECK(agent_terminals <= 1);
    FUZZ_CHECK(outcomes <= 1);
    if (run.closed()) FUZZ_CHECK(!run.next_deadline());
    if (!run.terminal()) FUZZ_CHECK(shown == run.text());
  }
  if (agent.finished()) FUZZ_CHECK(!agent.delta("x") && !agent.respond("x") && !agent.cancel());
}

void agent_side(FuzzedDataProvider& in) {
  std::int64_t now = in.ConsumeIntegralInRange<std::int64_t>(0, 100'000);
  agent_inbox inbox(kAgent, now - in.ConsumeIntegralInRange<std::int64_t>(0, 100),
                    in.ConsumeIntegralInRange<std::int64_t>(0, 1000), 1 + in.ConsumeIntegralInRange<std::size_t>(0, 40));
  std::set<std::string> handled;   // prompt ids handed out for handling
  std::set<std::string> running;   // started runs
  std::set<std::string> admitting;
  for (int steps = 0; in.remaining_bytes() > 0 && steps < 128; ++steps) {
    const std::string pid = id_of(in.ConsumeIntegralInRange<unsigned>(1, 48));
    switch (in.ConsumeIntegralInRange<int>(0, 5)) {
      case 0: {
        event p;
        p.kind = static_cast<std::int64_t>(kind::prompt);
        p.id = pid;
        p.pubkey = in.ConsumeBool() ? kClient : kOther;
        p.created_at = now + in.ConsumeIntegralInRange<std::int64_t>(-2000, 100);
        p.tags = prompt_tags(in.ConsumeIntegralInRange<int>(0, 7) == 0 ? kOther : kAgent, std::nullopt);
        prompt_disposition d = inbox.on_prompt(p, now);
        if (d == prompt_disposition::handle) {
          FUZZ_CHECK(p.tags[0][1] == kAgent);
          // Exactly once: a prompt id is not handed out again while a run of it is open.
          FUZZ_CHECK(!admitting.count(pid) && !running.count(pid));
          handled.insert(pid);
          admitting.insert(pid);
        }
        break;
      }
      case 1:
        if (admitting.count(pid) && !running.count(pid)) {
          inbox.run_started(pid, kClient);
          running.insert(pid);
        }
        break;
      case 2:
        inbox.prompt_done(pid);
        admitting.erase(pid);
        running.erase(pid);
        break;
      case 3: {
        event c;
        c.kind = static_cast<std::int64_t>(kind::cancel);
        c.id = id_of(1000 + steps);
        c.pubkey = in.ConsumeBool() ? kClient : kOther;
        c.tags = cancel_tags(in.ConsumeBool() ? kAgent : kOther, pid, std::nullopt);
        if (in.ConsumeBool()) c.tags.pop_back();  // no encryption tag
        cancel_disposition d = inbox.on_cancel(c);
        auto authorized = inbox.authorize_cancel(c, in.ConsumeBool() ? R"({"ver":1,"reason":"policy"})" : "{}");
        // No action after close: a cancel acts only on a running run, from its client.
        if (d == cancel_disposition::decrypt) FUZZ_CHECK(running.count(pid) && c.pubkey == kClient);
        if (authorized) FUZZ_CHECK(authorized->prompt_id == pid && authorized->reason == "policy" && running.count(pid) && c.pubkey == kClient);
        if (d == cancel_disposition::held) FUZZ_CHECK(admitting.count(pid) && !running.count(pid));
        break;
      }
      case 4:
        if (auto held = inbox.take_held(pid)) FUZZ_CHECK(running.count(pid) || admitting.count(pid));
        break;
      default:
        now += in.ConsumeIntegralInRange<std::int64_t>(-100, 2000);
        if (in.ConsumeBool()) inbox.go_live();
        break;
    }
    FUZZ_CHECK(inbox.running() == running.size());
  }
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider in(data, size);
  if (in.ConsumeBool()) client_side(in);
  else agent_side(in);
  return 0;
}
