#include <chrono>

#include "app/commands.h"
#include "app/compile_stage_runner.h"
#include "app/lint_stage_runner.h"
#include "app/record_attempts.h"
#include "app/run_stage_runner.h"
#include "app/shard_option.h"
#include "clangcheck/kernel_compile.h"
#include "compiler/compile_cache.h"
#include "core/elapsed.h"
#include "lint/lint_engine.h"
#include "rules/catalogue.h"
#include "sram/sram_estimator.h"

namespace portcheck {

namespace {

// The lint cache folder, <cache root>/lint; nullopt with --no-cache, or when the cache root cannot be
// created (read-only checkout): then every unit is linted afresh, only slower.
std::optional<std::filesystem::path> lintCacheDir(const Session& session, const CommonOptions& options,
                                                  const CacheOptions& cache) {
  if (cache.no_cache) return std::nullopt;
  std::filesystem::path root = cacheRoot(session, options, cache.cache_dir);
  std::string error;
  if (!prepareCacheRoot(root, error)) return std::nullopt;
  return root / "lint";
}

// Compiles the C++ kernels among the linted files against the PTO-ISA headers (skipped with TOOL003 when
// there are none); shared by lint and check.
void kernelCompileInto(Report& report, const Session& session, const CommonOptions& options, const Io& io) {
  std::optional<std::filesystem::path> pypto;
  if (session.toolchain.found) pypto = session.toolchain.pypto_root;
  clangcheck::kernelCompileInto(report, session.workspace, session.config, pypto, options.kernel_compile, io.getenv,
                                options.jobs);
}

}  // namespace

void lintInto(Report& report, const Session& session, const CommonOptions& options, const Targets& targets,
              const CacheOptions& cache) {
  LintSettings settings;
  settings.platform = session.platform;
  settings.config = &session.config;
  settings.kernel_build = clangcheck::kernelBuildEvidence(session.workspace.root, options.kernel_compile);
  settings.cache_dir = lintCacheDir(session, options, cache);
  LintOutcome lint = lintTargets(session.workspace, targets, settings, options.jobs);
  report.append(std::move(lint.diagnostics));
  report.run.files = std::move(lint.files);
  sram::mergeSramRows(report.sram, lint.sram);
  report.run.stages.push_back({"lint", StageState::Ran, ""});
}

int runLint(const CommonOptions& options, const std::vector<std::string>& paths, const Io& io,
            const CacheOptions& cache) {
  auto start = std::chrono::steady_clock::now();
  Session session = openSession(options, io);
  Report report;
  Targets targets = collectTargets(session.workspace, options.cwd, paths);
  if (std::optional<int> done = applyShardOption(options, "lint", session, targets, report, io)) return *done;
  lintInto(report, session, options, targets, cache);
  kernelCompileInto(report, session, options, io);
  report.run.seconds = secondsSince(start);
  return emitAndExit(report, session, options, io);
}

int runCheck(const CommonOptions& options, const std::vector<std::string>& paths, const Io& io,
             const CompileOptions& compile) {
  auto start = std::chrono::steady_clock::now();
  Session session = openSession(options, io);
  Report report;
  Targets targets = collectTargets(session.workspace, options.cwd, paths);
  if (std::optional<int> done = applyShardOption(options, "check", session, targets, report, io)) return *done;
  lintInto(report, session, options, targets, CacheOptions{compile.cache_dir, compile.no_cache});
  kernelCompileInto(report, session, options, io);
  // The compile stage runs when the toolchain is found; otherwise TOOL003 says why it was skipped.
  // --run adds the simulator run, which compiles first itself: a run asked for and not possible is a
  // tool error (COMP909, exit 2), never a clean check that ran nothing.
  if (compile.run) runInto(report, session, options, compile, targets, io, /*required=*/true);
  else compileInto(report, session, options, compile, targets, io, /*required=*/false);
  report.run.seconds = secondsSince(start);
  return recordEmitAndExit(report, session, options, io, targets, compile.run ? "check --run" : "check",
                           compile.no_ledger);
}

int runNotBuilt(const std::string& command, const Io& io) {
  io.err << "port-check: error: '" << command << "' is not built yet in port-check " << PORTCHECK_VERSION
         << "; see the project issues for its status\n";
  return kExitToolError;
}

}  // namespace portcheck
