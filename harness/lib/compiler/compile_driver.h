#pragma once
// The compile driver: runs the Python adapter (harness/adapter/, docs/compile-adapter.md) for one
// program on one platform in a process of its own and collects what it left into a CompileRecord.
// Failures of the process itself (timeout, crash, garbage, no result, partial output, a toolchain
// that cannot import) become COMP9xx diagnostics here; the compiler's own output is analyzeCompile's.
#include <atomic>
#include <chrono>
#include <functional>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "compiler/compile_record.h"
#include "core/platform.h"
#include "process/subprocess.h"
#include "toolchain/toolchain.h"

namespace portcheck {

// What to compile: a port's pypto_src, or one program file in pypto-lib's convention.
struct CompileTarget {
  std::string name;                                 // project name, or the program file's stem
  std::filesystem::path source_root;                // absolute: pypto_src, or the program file's folder
  std::optional<std::filesystem::path> program_file;  // absolute, for a single program file
  std::string source_root_display;                  // workspace-relative
  std::string display_file;                         // the file driver diagnostics point at ("" = none)
  // The tree the program's imports resolve in (pypto-lib blocks): empty = the workspace; a staged
  // copy of the repository for the pre-commit hook. Files below it display workspace-relative.
  std::filesystem::path tree_root;
};

// target.tree_root, or the workspace root when it has none.
std::filesystem::path treeRootOf(const CompileTarget& target, const std::filesystem::path& workspace_root);

// A simulator run chained to the compile, in the compile's own process (port-check run, check --run):
// the adapter runs the port right after it compiled (--then-run-*), one interpreter start and one torch
// and pypto import instead of two (docs/run-stage.md, "One process"). Ports only, not program files.
struct ChainedRun {
  std::map<std::string, std::string> environment;  // the run's (runEnvironment: the compile's and the runtime)
  std::chrono::milliseconds timeout{0};            // the run's limit; the process gets both limits added
};

// What the process did after the compile, when it chained a run: the run driver turns it into a
// RunRecord (golden/run_driver.h).
struct ChainedRunProcess {
  std::string log;               // the log after the run marker
  int exit_code = -1;
  int signal = 0;
  bool timed_out = false;
  std::chrono::milliseconds timeout{0};
  double seconds = 0;            // the run's share of the process's wall time
};

struct DriverSettings {
  Toolchain toolchain;
  std::filesystem::path workspace_root;
  std::filesystem::path cache_root;                 // <workspace>/.port-check-cache or --cache-dir
  std::chrono::milliseconds timeout{300'000};
  std::map<std::string, std::string> environment;   // the environment the child's is derived from
  std::filesystem::path adapter_script;             // from installAdapter()
  std::optional<ChainedRun> chained_run;            // run each port that compiles in the same process
  const std::atomic<bool>* cancel = nullptr;        // the caller cancelled (MCP): kill, cache nothing (TOOL006)
  std::function<void(const std::string&)> progress; // told as each program is compiled or run
};

// The adapter version; part of the cache key.
inline constexpr const char* kAdapterVersion = "1";

// Writes the embedded adapter under <cache_root>/adapter/<content hash>/ (atomically, once) and
// returns the script's path; nullopt with `error` set when it cannot be written.
std::optional<std::filesystem::path> installAdapter(const std::filesystem::path& cache_root, std::string& error);
// Content hash of the embedded adapter files (part of the cache key).
std::string adapterContentHash();

// The environment the adapter runs in: `base` with <pypto>/python put before the caller's
// PYTHONPATH (kept: programs import pypto-lib's golden/ through it), NO_COLOR=1,
// PYTHONUNBUFFERED=1, PYTHONDONTWRITEBYTECODE=1, FORCE_COLOR and an invalid PTO_BACKTRACE removed.
// PTOAS_ROOT, PATH and PYPTO_LOG_LEVEL pass through unchanged.
std::map<std::string, std::string> adapterEnvironment(const std::map<std::string, std::string>& base,
                                                      const Toolchain& toolchain);

// The folders joined with ':', empty ones left out.
std::string searchPath(const std::vector<std::string>& folders);
// The caller's PYTHONPATH in `base` ("" when unset).
std::string callerPythonPath(const std::map<std::string, std::string>& base);

// `name` with every character other than [A-Za-z0-9_-] replaced by '_'; `fallback` when empty.
std::string safeFolderName(std::string_view name, std::string_view fallback);

// Where a target's compile output and result file go: <cache_root>/compile/<name>-<hash>/<platform>/.
std::filesystem::path compileWorkDir(const DriverSettings& settings, const CompileTarget& target,
                                     Platform platform);

// Where a target's simulator run goes: <cache_root>/run/<name>-<hash>/<platform>/ : out/ (the runtime's
// work folder), result.json.
std::filesystem::path runWorkDir(const DriverSettings& settings, const CompileTarget& target,
                                 Platform platform);

// Reads the adapter's result file. Returns false (and says why) when it is not valid result JSON.
bool readAdapterResult(const std::string& text, AdapterResult& result, std::string& error);

// One program a compile produced: the adapter compiles every program a file's __main__ compiles,
// each into a folder of its own (docs/compile-adapter.md §1).
struct CompiledProgram {
  std::string name;               // entry or class, `name#2` for a second specialisation
  std::filesystem::path out_dir;  // its compiler output folder
  std::string log;                // the part of the compile log written while it compiled
};

// The programs of a compile in the order they were compiled: the result's `programs` field, else
// (the process died before writing its result) the adapter's "[port-check] compiling" log lines.
// Empty for the one-program layout (the output folder itself). Each gets its part of the log:
// from its log line to the next (the first also gets what came before).
std::vector<CompiledProgram> compiledPrograms(const AdapterResult& result, const std::string& log);

struct DriverOutcome {
  CompileRecord record;
  std::vector<Diagnostic> diagnostics;  // COMP9xx: what went wrong with the process or the port's structure
  bool analyze = false;                 // the output is worth handing to analyzeCompile
  bool cacheable = false;               // deterministic outcome (not a timeout, crash or tool failure)
  double seconds = 0;
  std::optional<ChainedRunProcess> chained_run;  // the process ran the port after compiling it
};

DriverOutcome runCompileProcess(const CompileTarget& target, Platform platform, const DriverSettings& settings);

// Splits a chained process's log at the adapter's run marker ("[port-check] run phase after S s", at a
// line start): `log` keeps the compile's part, the result has the rest and the process outcome, which is
// the run's. nullopt (log untouched) when the process never reached the run.
// The line the adapter prints when a chained compile is done and the run starts (its compile seconds follow).
inline constexpr std::string_view kChainedRunMarker = "[port-check] run phase after ";

std::optional<ChainedRunProcess> splitChainedRun(std::string& log, const ProcessResult& process);

}  // namespace portcheck
