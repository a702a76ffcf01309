#pragma once
// The run driver: runs the adapter in run mode (docs/run-stage.md) for one compiled program on one
// simulator platform, in a process group of its own with its own output folder, and collects the
// process outcome and the result file into a RunRecord.
#include <filesystem>
#include <map>
#include <string>

#include "compiler/compile_driver.h"
#include "core/platform.h"
#include "golden/run_result.h"

namespace portcheck {

// The fixed seed every run uses for Python's, torch's and numpy's generators.
inline constexpr int kRunSeed = 0;

// Where the runtime (simpler) is: $SIMPLER_ROOT from `base`, else <pypto>/runtime when it holds
// simpler_setup/; empty when neither.
std::filesystem::path simplerRoot(const std::map<std::string, std::string>& base, const Toolchain& toolchain);

// The run's environment: the compile adapter's (adapterEnvironment) plus the PyPTO runtime on
// PYTHONPATH: $SIMPLER_ROOT, else <pypto>/runtime when it holds simpler_setup/ (its python/ too).
std::map<std::string, std::string> runEnvironment(const std::map<std::string, std::string>& base,
                                                  const Toolchain& toolchain);

// `settings.timeout` is the run's time limit; `settings.adapter_script` must be installed.
// `compiled_dir`: the compile stage's output folder of the target, executed instead of compiling again
// (empty: the adapter compiles for the simulator itself).
RunRecord runGoldenProcess(const CompileTarget& target, Platform platform, const DriverSettings& settings,
                           const std::filesystem::path& compiled_dir = {});

// The record of a run the compile process chained (ChainedRun in compiler/compile_driver.h): its
// outcome, log and result file (runWorkDir), as runGoldenProcess would have collected them.
RunRecord chainedRunRecord(const CompileTarget& target, Platform platform, const DriverSettings& settings,
                           const ChainedRunProcess& process);

}  // namespace portcheck
