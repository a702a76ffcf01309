#pragma once
// Structured facts the compile-output parsers extract, before they become diagnostics. Each parser
// fills one kind; compile_diagnostics.cpp turns them into Diagnostics. Paths in facts are already
// display paths (CompileRecord::path_map applied).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/report.h"

namespace portcheck {

struct SourceLocation {
  std::string file;  // display path; empty = unknown
  int line = 0;
  int column = 0;
  bool known() const { return !file.empty() && line > 0; }
};

// `Check failed: <expr> at <source>:<line>` tail of a C++ CHECK.
struct CheckFailed {
  std::string expr;
  std::string source;  // mapped, e.g. "<pypto>/src/ir/transforms/allocate_memory_addr_pass.cpp"
  int line = 0;
};

// One compile failure, whatever its form. `kind` and `via` use the fixtures' expected.json vocabulary.
struct CompilerError {
  std::string rule;       // COMPnnn the failure is reported under
  std::string kind;       // parser, oom, verifier, codegen, ptoas, internal, unrecognised
  std::string subkind;    // ptoas_not_found, misplaced_op, ...
  std::string via;        // OOM only: which check found it
  std::string exception;  // Python type as printed ("ValueError", "pypto.Error"); empty for parser errors
  std::string unit;       // codegen: function, group or orchestration
  std::string function;   // function the compiler names, or port-check's attribution (see attributed)
  bool attributed = false;  // function (and location) found by port-check, not named by the compiler
  std::vector<std::string> members;  // group members
  std::string space;
  std::optional<std::int64_t> used;
  std::optional<std::int64_t> limit;
  SourceLocation location;        // where the compiler says (display path), or port-check's attribution
  SourceLocation user_location;   // a .pto location mapped back to the user's line through its loc()
  std::string message;            // compiler wording, trailing [file:l:c] and Check-failed tail removed
  std::string note;               // text after the first sentence of an OOM message, parser `= note:`
  std::string help;               // parser `= help:`
  std::optional<CheckFailed> check_failed;
  std::string report;             // display path of report/codegen_errors.txt when it exists
  std::string headline;           // verifier report's first line
  std::string ptoas_root;         // ptoas missing: the PTOAS_ROOT it names
  std::vector<std::string> tried; // ptoas missing: the candidates it tried
  std::vector<SramTile> largest_tiles;  // OOM: largest tiles of the attributed function and space
  std::vector<std::string> quoted_lines;  // unrecognised: last lines of the log
};

// `[warning] [<check>] (<phase>) <message> at <file>:<l>:<c>` or a passes_dump/*.log line.
struct CompilerWarning {
  std::string check;
  std::string phase;
  std::string message;
  SourceLocation location;      // user location when known, else the dump line
  SourceLocation dump_location; // passes_dump/*.log: the dump line the compiler points at
};

// `[perf_hint <code>] <check>: <message> at <file>:<l>:<c>`.
struct PerfHint {
  std::string code;
  std::string check;
  std::string message;
  SourceLocation location;
};

// `[perf_hint] N hint(s) across M site(s); see <path>`.
struct PerfHintSummary {
  int hints = 0;
  int sites = 0;
  std::string path;  // as printed, mapped
};

// One (function, space) figure of a legacy report/memory_after_<Pass>.txt table. KB values are printed
// with one decimal, so the exact byte count is only known to lie in [used_min, used_max].
struct LegacyMemoryRow {
  std::string function;
  std::string space;
  double used_kb = 0;
  double limit_kb = 0;
  double usage_percent = 0;
  int memrefs = 0;
  std::int64_t used_bytes = 0;  // round(used_kb * 1024)
  std::int64_t used_min = 0;    // ceil((used_kb - 0.05) * 1024)
  std::int64_t used_max = 0;    // floor((used_kb + 0.05) * 1024)
  std::int64_t limit_bytes = 0; // round(limit_kb * 1024)
};

struct LegacyMemoryReport {
  std::string pass;
  std::string backend;
  int functions_declared = 0;
  std::string function_kind;
  std::vector<LegacyMemoryRow> rows;
};

}  // namespace portcheck
