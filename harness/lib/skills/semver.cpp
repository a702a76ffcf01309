#include "skills/semver.h"

#include <charconv>

namespace portcheck {

std::string SemVer::str() const {
  return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch);
}

std::optional<SemVer> parseSemVer(std::string_view text) {
  int parts[3] = {0, 0, 0};
  std::size_t pos = 0;
  for (int i = 0; i < 3; ++i) {
    std::size_t end = pos;
    while (end < text.size() && text[end] >= '0' && text[end] <= '9') ++end;
    if (end == pos || end - pos > 9) return std::nullopt;
    if (end - pos > 1 && text[pos] == '0') return std::nullopt;  // no leading zeros
    std::from_chars(text.data() + pos, text.data() + end, parts[i]);
    if (i < 2) {
      if (end >= text.size() || text[end] != '.') return std::nullopt;
      pos = end + 1;
    } else if (end != text.size()) {
      return std::nullopt;
    }
  }
  return SemVer{parts[0], parts[1], parts[2]};
}

}  // namespace portcheck
