#include "app/compiler_supersedes.h"

#include <algorithm>
#include <set>
#include <utility>

namespace portcheck {

namespace {

// (lint rule, compiler rule, the compiler message's prefix that makes it the same finding)
struct Supersession {
  const char* lint;
  const char* compiler;
  const char* compiler_prefix;
};
constexpr Supersession kSupersessions[] = {
    {"DSL117", "PERF001", "[PH001]"},  // tile innermost dimension below the L2 line
};

}  // namespace

std::size_t dropSupersededLintFindings(Report& report) {
  std::size_t dropped = 0;
  for (const Supersession& s : kSupersessions) {
    std::set<std::pair<std::string, int>> sites;
    for (const Diagnostic& d : report.diagnostics)
      if (d.rule == s.compiler && d.line > 0 && d.message.rfind(s.compiler_prefix, 0) == 0)
        sites.insert({d.file, d.line});
    if (sites.empty()) continue;
    std::set<std::pair<std::string, int>> seen;
    auto gone = std::remove_if(report.diagnostics.begin(), report.diagnostics.end(), [&](const Diagnostic& d) {
      if (d.rule != s.lint || !sites.count({d.file, d.line})) return false;
      seen.insert({d.file, d.line});
      return true;
    });
    dropped += static_cast<std::size_t>(report.diagnostics.end() - gone);
    report.diagnostics.erase(gone, report.diagnostics.end());
    for (Diagnostic& d : report.diagnostics)
      if (d.rule == s.compiler && seen.count({d.file, d.line}))
        d.notes.push_back({"", 0, 0, std::string("port-check's lint forecast this before the compile (") + s.lint + ")"});
  }
  return dropped;
}

}  // namespace portcheck
