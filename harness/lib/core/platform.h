#pragma once
// Target platforms and the on-chip capacities the PyPTO compiler enforces for them
// (pypto src/backend/common/soc.cpp; see shared reference pypto-compiler-interface.md §6).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace portcheck {

enum class Platform { A2A3, A5 };

std::string_view toString(Platform p);
// Accepts a2a3, a2a3sim, a5, a5sim.
std::optional<Platform> parsePlatform(std::string_view text);

// Memory spaces in the order the compiler reports them.
inline constexpr std::string_view kMemorySpaces[] = {"Vec", "Mat", "Left", "Right", "Acc", "Bias",
                                                    "LeftScale", "RightScale"};

// Enforced capacity in bytes of a space on a platform; 0 = the platform has no such space (no check).
std::int64_t capacityBytes(Platform p, std::string_view space);

// The allocator aligns every buffer to 32 bytes (pypto memory_allocator_policy.h).
inline constexpr std::int64_t kAllocAlignment = 32;
inline std::int64_t alignUp(std::int64_t bytes, std::int64_t to = kAllocAlignment) {
  return (bytes + to - 1) / to * to;
}

}  // namespace portcheck
