// The in-repo third-party vectors (tests/vectors, sources in its README).
#pragma once
#include <string>

#include <nlohmann/json.hpp>

#include "test_support.hpp"

namespace nostr::test {

inline nlohmann::json repo_vector(const std::string& name) {
  return nlohmann::json::parse(read_file(std::string(NOSTR_TESTS_DIR) + "/vectors/" + name), nullptr, false);
}

}  // namespace nostr::test
