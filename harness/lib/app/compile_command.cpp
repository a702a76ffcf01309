// port-check compile, and the compile stage of port-check check.
#include <chrono>
#include <cstdlib>

#include "app/commands.h"
#include "app/compile_stage_runner.h"
#include "app/compiler_supersedes.h"
#include "app/record_attempts.h"
#include "compiler/compile_cache.h"
#include "compiler/compile_stage.h"
#include "core/elapsed.h"
#include "golden/run_driver.h"
#include "process/subprocess.h"
#include "rules/catalogue.h"
#include "sram/sram_estimator.h"

namespace portcheck {

namespace fs = std::filesystem;

namespace {

constexpr int kDefaultTimeoutSeconds = 300;

}  // namespace

int timeoutSeconds(Report& report, const Session& session, std::optional<int> given, const std::string& key,
                   int fallback) {
  auto it = session.config.options.find(key);
  if (it == session.config.options.end()) return given.value_or(fallback);
  char* end = nullptr;
  long v = std::strtol(it->second.c_str(), &end, 10);
  if (end == it->second.c_str() || *end != '\0' || v <= 0 || v > 86400) {
    int used = given.value_or(fallback);  // a bad value is reported even when --timeout overrides it
    report.add(makeDiagnostic("TOOL004", session.config.path.empty() ? "port-check.json" : session.config.path, 0, 0,
                              "\"" + key + "\" must be a whole number of seconds in 1..86400, got '" + it->second +
                                  "'; using " + std::to_string(used) + " s"));
    return used;
  }
  return given.value_or(static_cast<int>(v));
}

fs::path cacheRoot(const Session& session, const CommonOptions& options, const std::optional<std::string>& cache_dir) {
  fs::path cache = cache_dir ? fs::path(*cache_dir) : session.workspace.root / ".port-check-cache";
  if (!cache.is_absolute()) cache = options.cwd / cache;
  return cache.lexically_normal();
}

fs::path compileCacheRoot(const Session& session, const CommonOptions& options, const CompileOptions& compile) {
  return cacheRoot(session, options, compile.cache_dir);
}

DriverSettings compileDriverSettings(const Session& session, const CommonOptions& options,
                                     const CompileOptions& compile) {
  DriverSettings settings;
  settings.toolchain = session.toolchain;
  settings.workspace_root = session.workspace.root;
  settings.cache_root = compileCacheRoot(session, options, compile);
  settings.environment = currentEnvironment();
  settings.cancel = options.cancel;
  settings.progress = options.progress;
  return settings;
}

void compileInto(Report& report, const Session& session, const CommonOptions& options, const CompileOptions& compile,
                 const Targets& targets, const Io& io, bool required) {
  compileTargetsInto(report, session, options, compile, compileTargets(session.workspace, targets), io, required);
}

std::vector<CompileTargetSummary> compileTargetsInto(Report& report, const Session& session,
                                                     const CommonOptions& options, const CompileOptions& compile,
                                                     const std::vector<CompileTarget>& list, const Io& io,
                                                     bool required, DriverSettings* settings_out,
                                                     std::optional<std::chrono::milliseconds> chained_run_timeout) {
  const Toolchain& tc = session.toolchain;
  if (!tc.found) {
    std::string why = "no PyPTO toolchain: " + tc.why_not + "; give --pypto DIR or set PYPTO_ROOT";
    report.run.stages.push_back({"compile", required ? StageState::Failed : StageState::Skipped, why});
    if (required)
      report.add(makeDiagnostic("COMP909", "", 0, 0, "cannot compile: " + why,
                                "clone and build PyPTO beside the workspace (../pypto) or point --pypto at a checkout"));
    else
      report.add(makeDiagnostic("TOOL003", "", 0, 0, "compile stage skipped: " + why));
    return {};
  }

  DriverSettings settings = compileDriverSettings(session, options, compile);
  std::string cache_problem;
  if (!prepareCacheRoot(settings.cache_root, cache_problem))
    report.add(makeDiagnostic("TOOL005", "", 0, 0, "cannot prepare the compile cache: " + cache_problem));
  settings.timeout = std::chrono::seconds(
      timeoutSeconds(report, session, compile.timeout_seconds, "compile.timeout", kDefaultTimeoutSeconds));

  if (chained_run_timeout) settings.chained_run = ChainedRun{runEnvironment(settings.environment, tc), *chained_run_timeout};

  CompileStageOptions stage;
  stage.jobs = options.jobs;
  // Chained runs start the simulator from the compile's workers: they keep the run stage's default of one
  // at a time (the simulator starts a thread per simulated core), unless --jobs says otherwise.
  if (chained_run_timeout && stage.jobs <= 0) stage.jobs = 1;
  stage.use_cache = !compile.no_cache;
  stage.analysis = compileAnalysisOptions(session.config.options);

  CompileStageResult r = runCompileStage(list, session.platform, settings, stage);
  std::vector<Diagnostic> diagnostics = std::move(r.diagnostics);
  session.config.apply(diagnostics);
  report.append(std::move(diagnostics));
  dropSupersededLintFindings(report);  // one finding per site: the compiler's, when it says what lint forecast
  sram::mergeSramRows(report.sram, r.sram);  // beside the estimates lint put there (same project+function+space)
  bool tool_failed = false;
  for (const Diagnostic& d : report.diagnostics) tool_failed |= d.rule == "COMP909";
  report.run.stages.push_back({"compile", tool_failed ? StageState::Failed : StageState::Ran,
                               r.detail + "; toolchain pypto " + tc.revision});
  (void)io;
  if (settings_out) *settings_out = settings;
  return std::move(r.targets);
}

int runCompile(const CommonOptions& options, const CompileOptions& compile, const std::vector<std::string>& paths,
               const Io& io) {
  return runToolchainCommand("compile", compileInto, options, compile, paths, io);
}

int runToolchainCommand(const std::string& command, StageRunner stage, const CommonOptions& options,
                        const CompileOptions& compile, const std::vector<std::string>& paths, const Io& io) {
  auto start = std::chrono::steady_clock::now();
  if (paths.empty()) {
    io.err << "port-check: error: " << command
           << " needs PATH... (projects/<name>, projects/, pypto-lib/ or program files)\n";
    return kExitToolError;
  }
  Session session = openSession(options, io);
  Report report;
  Targets targets = collectTargets(session.workspace, options.cwd, paths);
  report.append(targets.problems);
  for (const Project& p : targets.projects) report.run.files.push_back(session.workspace.relative(p.pypto_src));
  for (const fs::path& f : targets.files) report.run.files.push_back(session.workspace.relative(f));
  stage(report, session, options, compile, targets, io, /*required=*/true);
  report.run.seconds = secondsSince(start);
  return recordEmitAndExit(report, session, options, io, targets, command, compile.no_ledger);
}

}  // namespace portcheck
