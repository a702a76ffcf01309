#pragma once
// Compiler warnings: `<ts> W | [warning] [<Check>] (<phase>) <message> at <file>:<l>:<c>` log lines and
// the gcc-style passes_dump/NN_after_<Pass>.log files:
//   <dump>:<line>:<col>: warning: <message> [<rule>]      (followed by the dump line and a ^~~ marker)
//   <dump>: warning: <message> [<rule>]                   (when no variable could be located)
#include <filesystem>
#include <string>
#include <vector>

#include "compiler/compile_facts.h"
#include "compiler/path_mapper.h"

namespace portcheck {

std::vector<CompilerWarning> parseWarningLines(const std::vector<std::string>& lines, const PathMapper& paths);

// One passes_dump/*.log file; `log_display` is its display path, `dump_display` the display path of
// the dump it refers to (the same name with .py).
std::vector<CompilerWarning> parsePassLog(const std::string& text, const std::string& log_display,
                                          const PathMapper& paths);

}  // namespace portcheck
