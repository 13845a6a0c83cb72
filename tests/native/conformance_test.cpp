// Runs the language-neutral conformance vectors of tests/conformance/*.json against the core
// (see tests/conformance/README.md for the format): each case's verdict must be the expected one.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "event/event.hpp"
#include "protocols/nip_xx/client_run.hpp"
#include "protocols/nip_xx/envelope.hpp"
#include "protocols/nip_xx/payload.hpp"
#include "util/errc.hpp"

using namespace nostr;
using nlohmann::json;

namespace {

json load(const std::string& name) {
  std::ifstream in(std::string(NOSTR_TESTS_DIR) + "/conformance/" + name);
  std::stringstream ss;
  ss << in.rdbuf();
  json j = json::parse(ss.str(), nullptr, false);
  EXPECT_FALSE(j.is_discarded()) << name << " is not JSON";
  EXPECT_TRUE(j.contains("cases") && j["cases"].is_array() && !j["cases"].empty()) << name;
  return j;
}

template <class T>
std::string verdict(const result<T>& r) {
  return r.ok() ? "ok" : errc_name(r.code());
}

result<void> validate_payload(std::int64_t kind, const std::string& text) {
  using namespace nip_xx;
  auto drop = [](auto r) -> result<void> {
    if (!r.ok()) return r.err();
    return {};
  };
  switch (kind) {
    case 25800: return drop(parse_status(text));
    case 25801: return drop(parse_delta(text));
    case 25802: return drop(parse_prompt(text));
    case 25803: return drop(parse_response(text));
    case 25804: return drop(parse_tool_call(text));
    case 25805: return drop(parse_error(text));
    case 25806: return drop(parse_cancel(text));
    case 31340: return drop(parse_info(text));
    default: return make_error(errc::invalid_argument, "not a NIP-XX kind");
  }
}

const char* update_name(nip_xx::update_kind k) {
  switch (k) {
    case nip_xx::update_kind::status: return "status";
    case nip_xx::update_kind::delta: return "delta";
    case nip_xx::update_kind::tool_call: return "tool_call";
    case nip_xx::update_kind::terminal: return "terminal";
    case nip_xx::update_kind::ignored: return "ignored";
    case nip_xx::update_kind::rejected: return "rejected";
  }
  return "?";
}

}  // namespace

TEST(conformance_test, nip_xx_payloads) {
  json doc = load("nip_xx_payloads.json");
  for (const auto& c : doc["cases"]) {
    SCOPED_TRACE(c["name"].get<std::string>());
    auto r = validate_payload(c["kind"].get<std::int64_t>(), c["payload"].get<std::string>());
    EXPECT_EQ(verdict(r), c["expect"].get<std::string>()) << c["rule"].get<std::string>() << (r.ok() ? "" : " / " + r.err().detail);
  }
}

TEST(conformance_test, nip_xx_envelope) {
  json doc = load("nip_xx_envelope.json");
  for (const auto& c : doc["cases"]) {
    SCOPED_TRACE(c["name"].get<std::string>());
    const std::string rule = c["rule"].get<std::string>();
    auto env = nip_xx::parse_envelope(c["text"].get<std::string>());
    result<void> r;
    if (!env.ok()) r = env.err();
    else if (c.contains("kind")) r = nip_xx::check_envelope_for_kind(*env, static_cast<nip_xx::kind>(c["kind"].get<std::int64_t>()));
    EXPECT_EQ(verdict(r), c["expect"].get<std::string>()) << rule;
    if (c.contains("fields") && env.ok()) {
      for (const auto& [k, v] : c["fields"].items()) {
        const std::string* got = env->get(k);
        ASSERT_NE(got, nullptr) << "field " << k << ": " << rule;
        EXPECT_EQ(*got, v.get<std::string>()) << "field " << k << ": " << rule;
      }
    }
  }
}

TEST(conformance_test, nip_xx_reconciliation) {
  json doc = load("nip_xx_reconciliation.json");
  const json& run = doc["run"];
  for (const auto& c : doc["cases"]) {
    SCOPED_TRACE(c["name"].get<std::string>());
    const std::string rule = c["rule"].get<std::string>();
    nip_xx::client_run r(run["prompt_id"], run["agent_pubkey"], run["client_pubkey"]);
    int i = 0;
    for (const auto& s : c["steps"]) {
      auto e = parse_event(s["event"].dump());
      ASSERT_TRUE(e.ok()) << "step " << i << ": " << e.err().detail;
      auto u = r.on_event(*e, s["plaintext"].get<std::string>());
      EXPECT_EQ(update_name(u.type), s["expect"]["type"].get<std::string>()) << "step " << i << ": " << rule << " / " << u.reason;
      if (s["expect"].contains("code")) EXPECT_EQ(errc_name(u.code), s["expect"]["code"].get<std::string>()) << "step " << i << ": " << rule;
      ++i;
    }
    const json& f = c["final"];
    if (f.contains("text")) EXPECT_EQ(r.text(), f["text"].get<std::string>()) << rule;
    if (f.contains("degraded")) EXPECT_EQ(r.degraded(), f["degraded"].get<bool>()) << rule;
    if (f.contains("terminal")) {
      if (f["terminal"].is_null()) {
        EXPECT_FALSE(r.terminal().has_value()) << rule;
      } else {
        ASSERT_TRUE(r.terminal().has_value()) << rule;
        EXPECT_EQ(r.terminal()->event_id, f["terminal"]["id"].get<std::string>()) << rule;
        EXPECT_EQ(static_cast<std::int64_t>(r.terminal()->k), f["terminal"]["kind"].get<std::int64_t>()) << rule;
        if (f["terminal"].contains("text")) {
          ASSERT_TRUE(r.terminal()->response.has_value()) << rule;
          EXPECT_EQ(r.terminal()->response->text, f["terminal"]["text"].get<std::string>()) << rule;
        }
      }
    }
  }
}
