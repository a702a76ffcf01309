#pragma once
// Reading optional fields of JSON documents port-check did not build itself (reports, task files, PyPI
// answers): a field that is absent, null or of another type reads as empty.
#include <nlohmann/json.hpp>
#include <string>

namespace portcheck {

// The string at `key` of object `j`; "" when absent, null or not a string.
inline std::string jsonString(const nlohmann::json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

}  // namespace portcheck
