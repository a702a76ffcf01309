#pragma once
// Performance hints: report/perf_hints.log lines (and the same form in the log)
//   [perf_hint <CODE>] <Check>: <message> at <file>:<l>:<c>
// and the one-line stderr summary
//   <ts> I | [perf_hint] N hint(s) across M site(s); see <path>
#include <optional>
#include <string>
#include <vector>

#include "compiler/compile_facts.h"
#include "compiler/path_mapper.h"

namespace portcheck {

std::vector<PerfHint> parsePerfHints(const std::vector<std::string>& lines, const PathMapper& paths);
std::optional<PerfHintSummary> parsePerfHintSummary(const std::vector<std::string>& lines, const PathMapper& paths);

}  // namespace portcheck
