#pragma once
// Small formatting helpers shared by the FUSE checks.
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace portcheck::advice {

inline std::string percent(std::int64_t used, std::int64_t cap) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%", cap > 0 ? 100.0 * static_cast<double>(used) / static_cast<double>(cap) : 0.0);
  return buf;
}

inline std::string shapeText(const std::vector<std::int64_t>& s) {
  std::string out = "[";
  for (std::size_t i = 0; i < s.size(); ++i) out += (i ? ", " : "") + std::to_string(s[i]);
  return out + "]";
}

}  // namespace portcheck::advice
