#pragma once
// The run-mode result file of the adapter (harness/adapter/port_check_run.py, docs/run-stage.md) and
// what port-check knows about the process that wrote it.
#include <chrono>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/report.h"

namespace portcheck {

// What the adapter wrote. `present` is false when it died before writing (crash, timeout) or wrote
// something unreadable (`error` says why).
struct RunResult {
  bool present = false;
  std::string schema;             // "port-check-run-result/1" (or the compile schema when it stopped earlier)
  std::string status;             // ok, run_error, compile_error, golden_error, input_error, contract_error,
                                  // ptoas_missing, toolchain_error, load_error, ... (docs/run-stage.md)
  std::string phase;              // import_pypto, load, find, inputs, compile, execute, golden, compare, done
  std::string program;
  std::string platform;           // a2a3sim / a5sim
  std::string exception_type;
  std::string exception_message;
  std::string traceback;
  std::string golden_function;    // compute_golden, golden_<entry>, generate_inputs, ...
  std::string ptoas;              // ran / skipped
  std::string torch_version;
  int seed = 0;
  double rtol = 0, atol = 0;
  std::string tolerance_source;
  std::string entry_file;         // absolute, as the adapter saw it
  int entry_line = 0;
  std::map<std::string, int> output_lines;  // output name -> line of its parameter in entry_file
  std::vector<GoldenOutput> outputs;
  double seconds_execute = 0;
  // The correctness contract's runs ("contract" in the result; docs/contract.md): outputs above are the
  // first failing case's, else the first case's.
  bool contract = false;
  std::string contract_kind;
  std::vector<std::int64_t> seeds;
  std::vector<GoldenCase> cases;
  std::vector<GoldenGamingFinding> gaming;  // GOLD020-GOLD022, and GOLD023 from the guard zones
  std::string failed_case;
  std::string guard_mode;                   // host_view, or empty when no guard zones were laid
  std::optional<RunLocalisation> localisation;  // "localisation": the first failing case run's first wrong task
};

// Parses the result JSON. Returns false with `error` set when it is not a result object.
bool parseRunResult(const std::string& text, RunResult& result, std::string& error);

// Everything one run left behind: the process and the result.
struct RunRecord {
  std::string project;
  std::filesystem::path source_root;      // absolute pypto_src (or the program file's folder)
  std::string source_root_display;        // workspace-relative
  std::string display_file;               // golden.py (or the program file), workspace-relative
  std::string platform;                   // a2a3sim / a5sim
  std::string log;                        // merged stdout+stderr
  std::string log_file_display;           // where the log is kept (<run folder>/run.log), workspace-relative
  int exit_code = 0;
  bool timed_out = false;
  bool cancelled = false;   // the caller cancelled: the process group was killed (TOOL006)
  int signal = 0;
  std::chrono::milliseconds timeout{0};
  bool started = true;
  std::string spawn_error;
  std::filesystem::path out_dir;
  std::string out_dir_display;
  bool result_file_exists = false;
  std::string result_error;               // why the result file could not be read
  RunResult result;
  double seconds = 0;
  // Absolute prefixes -> display prefixes (the port's folder, the output folder, <pypto>).
  std::vector<std::pair<std::string, std::string>> path_map;
};

}  // namespace portcheck
