// Shared helpers for the native tests: reading the third-party vectors in tests/vectors (NOSTR_VECTORS_DIR).
#pragma once
#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

namespace nostr::test {

inline std::string read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

inline std::string vector_path(const std::string& name) { return std::string(NOSTR_VECTORS_DIR) + "/" + name; }

inline nlohmann::json load_vector_json(const std::string& name) {
  return nlohmann::json::parse(read_file(vector_path(name)), nullptr, false);
}

}  // namespace nostr::testing
