#include "protocols/nip_xx/tags.hpp"

#include "util/hex.hpp"

namespace nostr::nip_xx {
namespace {

error schema(std::string detail) { return make_error(errc::xx_invalid_schema, std::move(detail)); }

const tag* first(const tag_list& tags, std::string_view name) {
  for (const auto& t : tags)
    if (!t.empty() && t[0] == name) return &t;
  return nullptr;
}

}  // namespace

result<run_tags> check_tags(const event& e) {
  auto k = kind_from(e.kind);
  if (!k) return make_error(errc::invalid_argument, "not a NIP-XX kind");
  run_tags out;

  if (*k != kind::info) {
    const tag* p = first(e.tags, "p");
    if (!p) return schema("p tag is required");
    if (p->size() < 2 || !hex::is_lower_hex((*p)[1], 32)) return schema("p tag must hold a 64-character lowercase hex pubkey");
    out.p = (*p)[1];
  }

  if (is_encrypted(*k)) {
    const tag* enc = first(e.tags, "encryption");
    if (!enc || enc->size() < 2) return schema("encryption tag is required");
    if ((*enc)[1] != "nip44")
      return make_error(errc::xx_unsupported_encryption, "encryption must be nip44");
  }

  if (*k != kind::prompt && *k != kind::info) {
    // Non-prompt events MUST carry e with marker root; other e tags are tolerated.
    for (const auto& t : e.tags) {
      if (t.size() >= 4 && t[0] == "e" && t[3] == "root") {
        if (!hex::is_lower_hex(t[1], 32)) return schema("e root tag must hold a 64-character lowercase hex id");
        out.root = t[1];
        break;
      }
    }
    if (!out.root) return schema("e tag with marker root is required");
  }

  if (const tag* s = first(e.tags, "s")) {
    if (s->size() < 2 || (*s)[1].empty()) return schema("s tag must hold a non-empty session id");
    out.session = (*s)[1];
  }

  if (*k == kind::tool_call) {
    if (const tag* t = first(e.tags, "tool")) {
      if (t->size() < 2 || (*t)[1].empty()) return schema("tool tag must hold a name");
      out.tool = (*t)[1];
    }
    if (const tag* t = first(e.tags, "phase")) {
      if (t->size() < 2 || ((*t)[1] != "start" && (*t)[1] != "result")) return schema("phase tag must be start or result");
      out.phase = (*t)[1];
    }
  }

  if (*k == kind::info) {
    const tag* d = first(e.tags, "d");
    if (!d || d->size() < 2 || (*d)[1].empty()) return schema("ai.info needs a d tag");
    out.d = (*d)[1];
  }
  return out;
}

std::string default_session(std::string_view client_pubkey_hex) {
  std::string s = "sender:";
  for (char c : client_pubkey_hex) s.push_back(c >= 'A' && c <= 'F' ? static_cast<char>(c - 'A' + 'a') : c);
  return s;
}

std::string session_of(const run_tags& t, std::string_view client_pubkey_hex) {
  return t.session ? *t.session : default_session(client_pubkey_hex);
}

tag_list prompt_tags(std::string_view agent_pubkey, const std::optional<std::string>& session) {
  tag_list tags{{"p", std::string(agent_pubkey)}};
  if (session) tags.push_back({"s", *session});
  tags.push_back({"encryption", "nip44"});
  return tags;
}

tag_list cancel_tags(std::string_view agent_pubkey, std::string_view prompt_id,
                     const std::optional<std::string>& session) {
  tag_list tags{{"p", std::string(agent_pubkey)}, {"e", std::string(prompt_id), "", "root"}};
  if (session) tags.push_back({"s", *session});
  tags.push_back({"encryption", "nip44"});
  return tags;
}

tag_list run_event_tags(std::string_view client_pubkey, std::string_view prompt_id,
                        const std::optional<std::string>& session, const std::optional<std::string>& tool_hint,
                        const std::optional<std::string>& phase_hint) {
  tag_list tags{{"p", std::string(client_pubkey)}, {"e", std::string(prompt_id), "", "root"}};
  if (session) tags.push_back({"s", *session});
  if (tool_hint) tags.push_back({"tool", *tool_hint});
  if (phase_hint) tags.push_back({"phase", *phase_hint});
  tags.push_back({"encryption", "nip44"});
  return tags;
}

tag_list info_tags(std::string_view d) { return {{"d", std::string(d)}}; }

}  // namespace nostr::nip_xx
