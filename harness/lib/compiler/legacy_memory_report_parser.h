#pragma once
// The retired report/memory_after_<Pass>.txt table (pypto before PR #2170):
//   === Memory Usage Report ===
//   Pass: AllocateMemoryAddr
//   Backend: 910B_PTO
//   Functions: 6 InCore
//   --- <function> ---
//     Space  |  Used       |  Limit      |  Usage   |  MemRefs
//     -------+-------------+-------------+----------+---------
//     Vec    |   146.0 KB  |   192.0 KB  |   76.0%  |  7
// Sizes print as "<n> B", "%.1f KB" or "%.1f MB" (1024-based), so a KB/MB figure only bounds the
// bytes: 146.0 KB is any count in [ceil(145.95 * 1024), floor(146.05 * 1024)] = [149453, 149555];
// used_bytes keeps round(146.0 * 1024) = 149504 as the estimate.
#include <filesystem>
#include <optional>
#include <string>

#include "compiler/compile_facts.h"

namespace portcheck {

std::optional<LegacyMemoryReport> parseLegacyMemoryReport(const std::string& text);
// report/memory_after_<Pass>.txt in the output folder; AllocateMemoryAddr preferred, else the last by name.
std::optional<std::filesystem::path> findLegacyMemoryReport(const std::filesystem::path& out_dir);

}  // namespace portcheck
