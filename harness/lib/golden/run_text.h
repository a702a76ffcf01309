#pragma once
// Text helpers shared by the run checks: numbers, indices, locations, paths, log tails.
#include <initializer_list>
#include <optional>
#include <string_view>
#include <string>
#include <utility>
#include <vector>

#include "golden/run_result.h"

namespace portcheck {

// "output 'out' of row_softmax", and " in case large/7" when a contract case was compared.
std::string outputSubject(const RunRecord& run, const GoldenOutput& output);
// "cases base/7 and base/8", "case large/1", "the contract's runs" when empty.
std::string joinCases(const std::vector<std::string>& cases);
// "0.03125", "1.2e-07", "n/a" for nullopt.
std::string formatNumber(std::optional<double> v);
// "[3, 17]".
std::string formatIndex(const std::vector<std::int64_t>& index);
// "81.7%" (one decimal; "<0.1%" for a tiny non-zero share).
std::string formatShare(double share);
// Absolute paths in `text` replaced through the run's path map.
std::string mapRunPaths(const RunRecord& run, std::string text);
// The last `n` non-blank lines of the log, cleaned of control characters and with paths mapped.
std::string runLogTail(const RunRecord& run, std::size_t n);
// "ValueError: message" (first line of the message only when `first_line`).
std::string exceptionText(const RunRecord& run, bool first_line = false);

// The first compiler `error:` clause of a message, in one line ("error: custom op ... expected 'nosplit'"):
// PyPTO wraps ptoas and codegen errors in a table over several lines. Empty when there is none.
std::string compilerErrorClause(std::string_view message);
// `absolute` through the run's path map, or empty when the map does not cover it (outside the workspace).
std::string workspaceRelative(const RunRecord& run, const std::string& absolute);
// Where a finding about output `name` points: its pl.Out parameter in the entry's file when the
// adapter found it, else golden.py.
std::pair<std::string, int> outputLocation(const RunRecord& run, const std::string& name);
// The deepest traceback frame inside the port's folder (file workspace-relative, line), else golden.py.
std::pair<std::string, int> tracebackLocation(const RunRecord& run);
// The exception type and message of a failed run, the text the failure checks match on.
std::string runFailureText(const RunRecord& run);
// Case-insensitive: does `text` contain any of `needles`?
bool containsAnyOf(std::string_view text, std::initializer_list<std::string_view> needles);
// The first "file:line:col: error: message" line of a compiler's output in `text`; empty when none.
std::string firstCompilerError(const std::string& text);

}  // namespace portcheck
