#include "core/platform.h"

namespace portcheck {

std::string_view toString(Platform p) { return p == Platform::A5 ? "a5" : "a2a3"; }

std::optional<Platform> parsePlatform(std::string_view t) {
  if (t == "a2a3" || t == "a2a3sim") return Platform::A2A3;
  if (t == "a5" || t == "a5sim") return Platform::A5;
  return std::nullopt;
}

std::int64_t capacityBytes(Platform p, std::string_view space) {
  struct Cap { std::string_view space; std::int64_t a2a3, a5; };
  // a2a3 = Ascend910B (soc.cpp:119-157), a5 = Ascend950 (soc.cpp:161-201).
  static constexpr Cap kCaps[] = {
      {"Vec", 188416, 245760},   // 184 KiB usable of 192 KiB UB; a5 240 KiB
      {"Mat", 524288, 524288},   // L1
      {"Left", 65536, 65536},    // L0A
      {"Right", 65536, 65536},   // L0B
      {"Acc", 131072, 262144},   // L0C
      {"Bias", 1024, 4096},
      {"LeftScale", 0, 4096},
      {"RightScale", 0, 4096},
  };
  for (const Cap& c : kCaps)
    if (c.space == space) return p == Platform::A5 ? c.a5 : c.a2a3;
  return 0;
}

}  // namespace portcheck
