#pragma once
// Runs one command of this binary in-process with JSON output captured, for callers that read its
// report (the MCP server's tools, `eval` scoring its scratch workspace).
#include <functional>
#include <string>

#include <nlohmann/json.hpp>

#include "app/options.h"

namespace portcheck {

struct JsonReportRun {
  int code = 0;
  nlohmann::json report;  // the parsed report; discarded (not an object) when none was written
  std::string text;       // stdout then stderr, for when there is no report
};

// `options` with format JSON and no output file; `getenv` as the command should see the environment.
JsonReportRun runForJsonReport(const std::function<int(const CommonOptions&, const Io&)>& command,
                               CommonOptions options, std::function<const char*(const char*)> getenv);

}  // namespace portcheck
