#pragma once
// The contract between the compile driver (runs the Python adapter, collects what the compiler left)
// and the compile analysis (turns that into diagnostics and SRAM rows).
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "compiler/compile_facts.h"
#include "core/diagnostic.h"
#include "core/platform.h"
#include "core/report.h"

namespace portcheck {

// What the adapter wrote to its result file (harness/adapter/, docs/compile-adapter.md).
// `present` is false when the adapter died before writing it (crash, timeout, garbage).
struct AdapterResult {
  bool present = false;
  std::string status;             // "ok", "compile_error", "load_error", "no_program", ...
  std::string exception_type;     // qualified Python type, e.g. "ValueError", "pypto.Error"
  std::string exception_message;  // str(exc)
  std::string traceback;          // formatted Python traceback, may be empty
  std::string output_dir;         // compiler output folder as the adapter saw it
  std::string program;            // program or entry name compiled
  std::map<std::string, std::string> extra;  // any other string fields
};

// Everything one compile of one program left behind.
struct CompileRecord {
  std::string project;                 // project name, or the program file's stem
  std::filesystem::path source_root;   // absolute folder the user's files live in (pypto_src or the file's folder)
  std::string source_root_display;     // the same, workspace-relative (e.g. "projects/softmax/pypto_src")
  // The workspace (or the staged copy of it) the program imports from: a file below it and outside
  // the source root (a pypto-lib block) is the user's too, shown workspace-relative.
  std::filesystem::path workspace_root;
  std::string log;                     // merged stdout+stderr of the compile process
  int exit_code = 0;                   // process exit status; -1 when killed
  bool timed_out = false;
  int signal = 0;                      // terminating signal, 0 when none
  std::filesystem::path out_dir;       // compiler output folder (may be missing or partial)
  std::string out_dir_display;         // the same as shown in diagnostics (e.g. "build/port-check/softmax/a2a3");
                                       // empty = out_dir mapped through path_map
  AdapterResult adapter;
  // Absolute path prefixes as they appear in compiler text -> replacement, applied before anything
  // is reported (e.g. "<tmp>/stage/" -> "projects/softmax/pypto_src/"). Compiler-internal paths
  // (the pypto checkout) map to "<pypto>/" so they never leak.
  std::vector<std::pair<std::string, std::string>> path_map;
};

// The analysis of one compile.
struct CompileAnalysis {
  std::vector<Diagnostic> diagnostics;
  std::vector<SramRow> sram;           // per (function, space) actual figures of AIC/AIV/InCore functions
  bool succeeded = false;              // compiled without error
  // The structured facts behind the diagnostics (for JSON output and tests).
  std::vector<CompilerError> errors;   // first = the failure that stopped the compile
  std::vector<CompilerWarning> warnings;
  std::vector<PerfHint> perf_hints;
  std::optional<PerfHintSummary> perf_hint_summary;
  std::vector<SramRow> sram_noncompute;  // tiles the dump places in Orchestration/Opaque/Group functions
  std::optional<LegacyMemoryReport> legacy_memory_report;
  std::string memory_dump;             // display path of the dump the SRAM rows come from, if any
};

// Knobs of the analysis that come from port-check.json "options".
struct CompileAnalysisOptions {
  // MEM102 fires when a compute function uses less than this share of its dominant space
  // ("mem.low_usage_percent").
  double low_usage_percent = 30.0;
};

// Parses the log, the adapter result and the output folder (pass dumps, report/, kernels/) of a
// compile into diagnostics and SRAM rows. Implemented in compiler/compile_analysis.cpp.
// Timeouts and crashes (timed_out, signal) are the driver's to report: the analysis then still
// reads whatever output exists but adds no "unrecognised failure" of its own.
CompileAnalysis analyzeCompile(const CompileRecord& record, Platform platform,
                               const CompileAnalysisOptions& options = {});

// Reads "mem.low_usage_percent" from config options (a number in (0, 100]); defaults otherwise.
CompileAnalysisOptions compileAnalysisOptions(const std::map<std::string, std::string>& config_options);

}  // namespace portcheck
