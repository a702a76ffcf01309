#include "golden/run_stage.h"

#include <algorithm>
#include <atomic>
#include <thread>

#include "compiler/ptoas_version_note.h"
#include "golden/run_analysis.h"
#include "golden/run_cache.h"
#include "golden/run_driver.h"
#include "rules/catalogue.h"

namespace portcheck {

RunStageResult runGoldenStage(const std::vector<CompileTarget>& targets,
                              const std::vector<CompileTargetSummary>& compiled, Platform platform,
                              DriverSettings settings, const RunStageOptions& options) {
  RunStageResult result;
  std::string sim = std::string(toString(platform)) + "sim";
  if (targets.empty()) {
    result.detail = "no program to run";
    return result;
  }
  if (settings.adapter_script.empty()) {
    std::string error;
    auto script = installAdapter(settings.cache_root, error);
    if (!script) {
      result.diagnostics.push_back(makeDiagnostic("GOLD010", "", 0, 0, "cannot install the run adapter: " + error,
                                                  "choose a writable --cache-dir"));
      result.detail = "failed: " + error;
      return result;
    }
    settings.adapter_script = *script;
  }

  std::vector<RunAnalysis> analyses(targets.size());
  std::atomic<std::size_t> next{0}, done{0};
  auto worker = [&] {
    for (std::size_t i = next++; i < targets.size(); i = next++) {
      if (settings.cancel && settings.cancel->load()) break;  // cancelled: start nothing more
      const CompileTarget& t = targets[i];
      const std::string status = i < compiled.size() ? compiled[i].status : "";
      if (status != "ok") {
        GoldenRun& g = analyses[i].run;
        g.project = t.name;
        g.platform = sim;
        g.status = "skipped";
        g.failure = "compile-failed";
        g.detail = t.name + ": not run, the compile did not succeed" + (status.empty() ? "" : " (" + status + ")");
        continue;
      }
      const std::string& compile_key = compiled[i].cache_key;
      std::string key = compile_key.empty() ? std::string() : runCacheKey(compile_key, platform, settings);
      if (options.use_cache && compiled[i].cached && !key.empty()) {
        if (std::optional<GoldenRun> replay = loadCachedRun(settings.cache_root, settings.workspace_root, key)) {
          analyses[i].run = std::move(*replay);
          continue;
        }
      }
      analyses[i] = analyzeRun(compiled[i].chained_run
                                   ? chainedRunRecord(t, platform, settings, *compiled[i].chained_run)
                                   : runGoldenProcess(t, platform, settings, compiled[i].out_dir));
      if (settings.progress)
        settings.progress("ran " + t.name + " on " + sim + ": " + analyses[i].run.status + ", " +
                          std::to_string(++done) + " of " + std::to_string(targets.size()));
      std::string error;
      if (!key.empty() && !storeCachedRun(settings.cache_root, settings.workspace_root, key, analyses[i].run, error))
        analyses[i].diagnostics.push_back(makeDiagnostic("GOLD010", "", 0, 0,
                                                         t.name + ": the passed run was not cached: " + error,
                                                         "choose a writable --cache-dir"));
    }
  };
  std::size_t jobs = std::clamp<std::size_t>(options.jobs > 0 ? options.jobs : 1, 1, targets.size());
  if (jobs == 1) {
    worker();
  } else {
    std::vector<std::thread> pool;
    for (std::size_t i = 0; i < jobs; ++i) pool.emplace_back(worker);
    for (auto& th : pool) th.join();
  }

  std::size_t passed = 0, failed = 0, errors = 0, skipped = 0, replayed = 0;
  for (RunAnalysis& a : analyses) {
    replayed += a.run.replayed;
    for (Diagnostic& d : a.diagnostics) result.diagnostics.push_back(std::move(d));
    passed += a.run.status == "passed";
    failed += a.run.status == "failed";
    errors += a.run.status == "error";
    skipped += a.run.status == "skipped";
    result.runs.push_back(std::move(a.run));
  }
  addPtoasVersionNotes(result.diagnostics, settings.toolchain, settings.environment);
  result.detail = std::to_string(targets.size()) + " program" + (targets.size() == 1 ? "" : "s") + " on " + sim + ": " +
                  std::to_string(passed) + " passed, " + std::to_string(failed) + " differ from the golden, " +
                  std::to_string(errors) + " could not run, " + std::to_string(skipped) + " not run (compile failed)" +
                  (replayed ? "; " + std::to_string(replayed) + " passed run" + (replayed == 1 ? "" : "s") +
                                  " replayed from cache"
                            : "");
  return result;
}

}  // namespace portcheck
