// port-check verify: the correctness contract of each port and pypto-lib block (docs/contract.md; a block is a
// program file whose golden section declares it, §8), every case under every seed, on every simulator: lint (the PROJ contract rules among the rest), then compile and run per
// platform, a2a3sim and a5sim unless --platform names one.
#include <chrono>

#include "app/commands.h"
#include "app/lint_stage_runner.h"
#include "app/mutation_check.h"
#include "app/record_attempts.h"
#include "app/run_stage_runner.h"
#include "app/shard_option.h"
#include "core/elapsed.h"

namespace portcheck {

namespace {

// The stages one platform's pass added, named for it: "compile (a5)".
void nameStages(Report& report, std::size_t from, Platform platform) {
  for (std::size_t i = from; i < report.run.stages.size(); ++i)
    report.run.stages[i].name += " (" + std::string(toString(platform)) + ")";
}

}  // namespace

std::vector<Platform> verifyPlatforms(const CommonOptions& options) {
  if (options.platform) return {*options.platform};
  return {Platform::A2A3, Platform::A5};
}

int runVerify(const CommonOptions& options, const CompileOptions& compile, const std::vector<std::string>& paths,
              const Io& io, const VerifyOptions& verify) {
  auto start = std::chrono::steady_clock::now();
  if (paths.empty()) {
    io.err << "port-check: error: verify needs PATH... (projects/<name>, projects/, pypto-lib/<block> or pypto-lib/)\n";
    return kExitToolError;
  }
  Session session = openSession(options, io);
  Report report;
  Targets targets = collectTargets(session.workspace, options.cwd, paths);
  if (std::optional<int> done = applyShardOption(options, "verify", session, targets, report, io)) return *done;
  lintInto(report, session, options, targets, CacheOptions{compile.cache_dir, compile.no_cache});
  const std::vector<Platform> platforms = verifyPlatforms(options);
  for (Platform platform : platforms) {
    Session on = session;
    on.platform = platform;
    const std::size_t first_stage = report.run.stages.size();
    runInto(report, on, options, compile, targets, io, /*required=*/true);
    nameStages(report, first_stage, platform);
    if (!session.toolchain.found) break;  // COMP909 said it once: nothing can run on any simulator
  }
  if (verify.mutants > 0 && session.toolchain.found) {
    Session first = session;
    first.platform = platforms.front();
    mutationCheckInto(report, first, options, compile, targets, io, verify.mutants);
  }
  report.run.seconds = secondsSince(start);
  return recordEmitAndExit(report, session, options, io, targets, "verify", compile.no_ledger);
}

}  // namespace portcheck
