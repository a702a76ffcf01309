// port-check run, and the run stage of port-check check --run (docs/run-stage.md).
#include <chrono>
#include <cstdlib>

#include "app/commands.h"
#include "app/compile_stage_runner.h"
#include "app/run_stage_runner.h"
#include "compiler/compile_stage.h"
#include "golden/run_stage.h"
#include "process/subprocess.h"
#include "rules/catalogue.h"
#include "sram/sram_estimator.h"

namespace portcheck {

namespace fs = std::filesystem;

namespace {

constexpr int kDefaultCompileTimeoutSeconds = 300;
constexpr int kDefaultRunTimeoutSeconds = 600;

double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// "run.timeout" from port-check.json options; nullopt when unset or invalid (`problem` says why).
std::optional<int> configuredRunTimeout(const Config& config, std::string& problem) {
  auto it = config.options.find("run.timeout");
  if (it == config.options.end()) return std::nullopt;
  char* end = nullptr;
  long v = std::strtol(it->second.c_str(), &end, 10);
  if (end == it->second.c_str() || *end != '\0' || v <= 0 || v > 86400) {
    problem = "\"run.timeout\" must be a whole number of seconds in 1..86400, got '" + it->second + "'";
    return std::nullopt;
  }
  return static_cast<int>(v);
}

void addConfigProblem(Report& report, const Session& session, const std::string& problem, int used) {
  if (problem.empty()) return;
  report.add(makeDiagnostic("TOOL004", session.config.path.empty() ? "port-check.json" : session.config.path, 0, 0,
                            problem + "; using " + std::to_string(used) + " s"));
}

}  // namespace

void runInto(Report& report, const Session& session, const CommonOptions& options, const CompileOptions& compile,
             const Targets& targets, const Io& io, bool required) {
  const Toolchain& tc = session.toolchain;
  if (!tc.found) {
    // The compile stage says why (COMP909 or TOOL003); nothing can run without it.
    compileInto(report, session, options, compile, targets, io, required);
    report.run.stages.push_back({"run", StageState::Skipped, "no PyPTO toolchain, so nothing was compiled"});
    return;
  }

  DriverSettings settings;
  settings.toolchain = tc;
  settings.workspace_root = session.workspace.root;
  fs::path cache = compile.cache_dir ? fs::path(*compile.cache_dir) : session.workspace.root / ".port-check-cache";
  if (!cache.is_absolute()) cache = options.cwd / cache;
  settings.cache_root = cache.lexically_normal();
  settings.environment = currentEnvironment();

  // Compile stage: the same as compileInto, keeping the per-target outcome to decide what runs.
  std::string problem;
  int compile_timeout = compile.timeout_seconds.value_or(
      configuredTimeout(session.config, problem).value_or(kDefaultCompileTimeoutSeconds));
  addConfigProblem(report, session, problem, compile_timeout);
  settings.timeout = std::chrono::seconds(compile_timeout);
  CompileStageOptions stage;
  stage.jobs = options.jobs;
  stage.use_cache = !compile.no_cache;
  stage.analysis = compileAnalysisOptions(session.config.options);
  std::vector<CompileTarget> list = compileTargets(session.workspace, targets);
  CompileStageResult c = runCompileStage(list, session.platform, settings, stage);
  std::vector<Diagnostic> diagnostics = std::move(c.diagnostics);
  session.config.apply(diagnostics);
  report.append(std::move(diagnostics));
  sram::mergeSramRows(report.sram, c.sram);
  bool compile_tool_failed = false;
  for (const Diagnostic& d : report.diagnostics) compile_tool_failed |= d.rule == "COMP909";
  report.run.stages.push_back({"compile", compile_tool_failed ? StageState::Failed : StageState::Ran,
                               c.detail + "; toolchain pypto " + tc.revision});

  // Run stage.
  problem.clear();
  int run_timeout = compile.timeout_seconds.value_or(
      configuredRunTimeout(session.config, problem).value_or(kDefaultRunTimeoutSeconds));
  addConfigProblem(report, session, problem, run_timeout);
  settings.timeout = std::chrono::seconds(run_timeout);
  RunStageOptions run_options;
  run_options.jobs = options.jobs > 0 ? options.jobs : 1;
  RunStageResult r = runGoldenStage(list, c.targets, session.platform, settings, run_options);
  diagnostics = std::move(r.diagnostics);
  session.config.apply(diagnostics);
  bool run_tool_failed = false;
  for (const Diagnostic& d : diagnostics) run_tool_failed |= d.source == Stage::Tool && d.severity == Severity::Error;
  report.append(std::move(diagnostics));
  for (GoldenRun& g : r.runs) report.golden.push_back(std::move(g));
  report.run.stages.push_back({"run", run_tool_failed ? StageState::Failed : StageState::Ran, r.detail});
}

int runRun(const CommonOptions& options, const CompileOptions& compile, const std::vector<std::string>& paths,
           const Io& io) {
  auto start = std::chrono::steady_clock::now();
  if (paths.empty()) {
    io.err << "port-check: error: run needs PATH... (projects/<name>, projects/ or program files)\n";
    return kExitToolError;
  }
  Session session = openSession(options, io);
  Report report;
  Targets targets = collectTargets(session.workspace, options.cwd, paths);
  report.append(targets.problems);
  for (const Project& p : targets.projects) report.run.files.push_back(session.workspace.relative(p.pypto_src));
  for (const fs::path& f : targets.files) report.run.files.push_back(session.workspace.relative(f));
  runInto(report, session, options, compile, targets, io, /*required=*/true);
  report.run.seconds = secondsSince(start);
  return emitAndExit(report, session, options, io);
}

}  // namespace portcheck
