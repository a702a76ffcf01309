#pragma once
// Semantic versions MAJOR.MINOR.PATCH, as the skill pack and its manifests use them.
#include <optional>
#include <string>
#include <string_view>
#include <tuple>

namespace portcheck {

struct SemVer {
  int major = 0;
  int minor = 0;
  int patch = 0;

  std::string str() const;
  auto tie() const { return std::tie(major, minor, patch); }
  bool operator<(const SemVer& o) const { return tie() < o.tie(); }
  bool operator==(const SemVer& o) const { return tie() == o.tie(); }
  bool operator<=(const SemVer& o) const { return !(o < *this); }
};

// Parses exactly "X.Y.Z" (decimal numbers without leading zeros, as semver.org requires); nullopt otherwise.
std::optional<SemVer> parseSemVer(std::string_view text);

}  // namespace portcheck
