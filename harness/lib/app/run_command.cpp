// port-check run, and the run stage of port-check check --run (docs/run-stage.md).
#include <algorithm>
#include <chrono>
#include <cstdlib>

#include "app/commands.h"
#include "app/compile_stage_runner.h"
#include "app/run_stage_runner.h"
#include "clangcheck/kernel_compile.h"
#include "compiler/compile_stage.h"
#include "golden/run_stage.h"
#include "golden/static_causes.h"
#include "lint/lint_engine.h"
#include "process/subprocess.h"
#include "rules/catalogue.h"
#include "sram/sram_estimator.h"

namespace portcheck {

namespace fs = std::filesystem;

namespace {

constexpr int kDefaultRunTimeoutSeconds = 600;

// The lint findings a golden mismatch may be explained by: the report's own when a lint stage ran
// (check --run), else a lint of the targets made for that purpose (run), only when a golden failed.
std::vector<Diagnostic> lintFindingsFor(const Report& report, const Session& session, const CommonOptions& options,
                                        const Targets& targets, const std::vector<Diagnostic>& run) {
  for (const StageStatus& s : report.run.stages)
    if (s.name == "lint") return report.diagnostics;
  const bool mismatch = std::any_of(run.begin(), run.end(), [](const Diagnostic& d) {
    return d.rule == "GOLD001" || d.rule == "GOLD002";
  });
  if (!mismatch) return {};
  LintSettings settings;
  settings.platform = session.platform;
  settings.config = &session.config;
  settings.kernel_build = clangcheck::kernelBuildEvidence(session.workspace.root, options.kernel_compile);
  return lintTargets(session.workspace, targets, settings, options.jobs).diagnostics;
}

}  // namespace

void runInto(Report& report, const Session& session, const CommonOptions& options, const CompileOptions& compile,
             const Targets& targets, const Io& io, bool required) {
  const Toolchain& tc = session.toolchain;
  if (!tc.found) {
    // The compile stage says why (COMP909 or TOOL003); nothing can run without it.
    compileInto(report, session, options, compile, targets, io, required);
    report.run.stages.push_back({"run", required ? StageState::Failed : StageState::Skipped,
                                 "nothing ran on the simulator: no PyPTO toolchain, so nothing was compiled"});
    return;
  }

  // A port that compiles runs in the compile's own process (one interpreter start); cached compiles and
  // program files run in a process of their own in the run stage.
  std::chrono::milliseconds run_timeout = std::chrono::seconds(
      timeoutSeconds(report, session, compile.timeout_seconds, "run.timeout", kDefaultRunTimeoutSeconds));
  DriverSettings settings;
  std::vector<CompileTarget> list = compileTargets(session.workspace, targets);
  std::vector<CompileTargetSummary> compiled =
      compileTargetsInto(report, session, options, compile, list, io, required, &settings, run_timeout);

  // Run stage.
  settings.chained_run.reset();
  settings.timeout = run_timeout;
  RunStageOptions run_options;
  run_options.jobs = options.jobs > 0 ? options.jobs : 1;
  run_options.use_cache = !compile.no_cache;
  RunStageResult r = runGoldenStage(list, compiled, session.platform, settings, run_options);
  std::vector<Diagnostic> diagnostics = std::move(r.diagnostics);
  noteStaticCauses(diagnostics, lintFindingsFor(report, session, options, targets, diagnostics));
  session.config.apply(diagnostics);
  bool run_tool_failed = false;
  for (const Diagnostic& d : diagnostics) run_tool_failed |= d.source == Stage::Tool && d.severity == Severity::Error;
  report.append(std::move(diagnostics));
  for (GoldenRun& g : r.runs) report.golden.push_back(std::move(g));
  report.run.stages.push_back({"run", run_tool_failed ? StageState::Failed : StageState::Ran, r.detail});
}

int runRun(const CommonOptions& options, const CompileOptions& compile, const std::vector<std::string>& paths,
           const Io& io) {
  return runToolchainCommand("run", runInto, options, compile, paths, io);
}

}  // namespace portcheck
