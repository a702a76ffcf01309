#include "compiler/compile_stage.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <fstream>
#include <sstream>
#include <thread>

#include "compiler/ptoas_version_note.h"
#include "core/file_lock.h"
#include "rules/catalogue.h"

namespace portcheck {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

// A loose file is a program when its text defines a @pl.jit entry or a @pl.program class.
bool fileDefinesProgram(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return false;
  std::ostringstream ss;
  ss << in.rdbuf();
  return definesProgram(ss.str());
}

std::string plural(std::size_t n, const char* word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

}  // namespace

bool definesProgram(std::string_view text) {
  return text.find("@pl.jit") != std::string_view::npos || text.find("@pl.program") != std::string_view::npos;
}

std::vector<CompileTarget> compileTargets(const Workspace& ws, const Targets& targets) {
  std::vector<CompileTarget> out;
  std::error_code ec;
  for (const Project& p : targets.projects) {
    if (!fs::is_directory(p.pypto_src, ec)) continue;  // PROJ001 reports it
    CompileTarget t;
    t.name = p.name;
    t.source_root = p.pypto_src;
    t.source_root_display = ws.relative(p.pypto_src);
    if (fs::is_regular_file(p.pypto_src / "golden.py", ec)) t.display_file = ws.relative(p.pypto_src / "golden.py");
    out.push_back(std::move(t));
  }
  for (const fs::path& f : targets.files) {
    if (f.extension() != ".py" || !fileDefinesProgram(f)) continue;
    CompileTarget t;
    t.name = f.stem().string();
    t.source_root = f.parent_path();
    t.program_file = f;
    t.source_root_display = ws.relative(f.parent_path());
    t.display_file = ws.relative(f);
    out.push_back(std::move(t));
  }
  return out;
}

CompileOutcome compileOnce(const CompileTarget& target, Platform platform, const DriverSettings& settings,
                           const CompileAnalysisOptions& analysis_options, bool& cacheable) {
  DriverOutcome d = runCompileProcess(target, platform, settings);
  CompileOutcome o;
  o.diagnostics = std::move(d.diagnostics);
  o.status = d.record.adapter.present ? d.record.adapter.status : "";
  o.program = d.record.adapter.program;
  if (auto it = d.record.adapter.extra.find("ptoas"); it != d.record.adapter.extra.end()) o.ptoas = it->second;
  if (auto it = d.record.adapter.extra.find("workspace_imports"); it != d.record.adapter.extra.end())
    o.dependencies = hashDependencies(it->second, d.record.workspace_root);
  o.out_dir = d.record.out_dir_display;
  o.compile_seconds = d.seconds;
  o.chained_run = std::move(d.chained_run);
  if (d.analyze) {
    const bool driver_errors = std::any_of(o.diagnostics.begin(), o.diagnostics.end(),
                                           [](const Diagnostic& x) { return x.severity == Severity::Error; });
    o.succeeded = !driver_errors && o.status == "ok";
    std::vector<CompiledProgram> programs = compiledPrograms(d.record.adapter, d.record.log);
    if (programs.empty()) programs.push_back({"", d.record.out_dir, d.record.log});
    for (const CompiledProgram& program : programs) {
      // Each program is analysed on its own output folder and log; only the one the adapter names
      // as failed carries the failure. With several, its rows and findings say which program.
      CompileRecord r = d.record;
      r.out_dir = program.out_dir;
      r.log = program.log;
      if (programs.size() > 1) r.project = target.name + ":" + program.name;
      if (!program.name.empty() && r.adapter.present && r.adapter.status != "ok" && program.name != r.adapter.program) {
        r.adapter = AdapterResult{true, "ok", "", "", "", program.out_dir.string(), program.name, {}};
        r.exit_code = 0;
      }
      CompileAnalysis a = analyzeCompile(r, platform, analysis_options);
      o.succeeded = o.succeeded && a.succeeded;
      for (Diagnostic& diag : a.diagnostics) {
        if (programs.size() > 1) diag.notes.push_back({"", 0, 0, "in program '" + program.name + "'"});
        o.diagnostics.push_back(std::move(diag));
      }
      for (SramRow& row : a.sram) o.sram.push_back(std::move(row));
    }
  }
  for (SramRow& r : o.sram)
    if (r.project.empty()) r.project = target.name;
  cacheable = d.cacheable;
  return o;
}

std::optional<CompileOutcome> loadReplayableCompile(const CompileTarget& target, const DriverSettings& settings,
                                                    const std::string& key) {
  std::optional<CompileOutcome> cached = loadCachedCompile(settings.cache_root, settings.workspace_root, key);
  if (cached && !dependenciesUnchanged(*cached, treeRootOf(target, settings.workspace_root))) cached.reset();
  return cached;
}

CompileStageResult runCompileStage(const std::vector<CompileTarget>& targets, Platform platform,
                                   DriverSettings settings, const CompileStageOptions& options) {
  CompileStageResult result;
  if (targets.empty()) {
    result.detail = "no program to compile";
    return result;
  }
  if (settings.adapter_script.empty()) {
    std::string error;
    auto script = installAdapter(settings.cache_root, error);
    if (!script) {
      result.diagnostics.push_back(makeDiagnostic("COMP909", "", 0, 0, "cannot install the compile adapter: " + error,
                                                  "choose a writable --cache-dir"));
      result.detail = "failed: " + error;
      return result;
    }
    settings.adapter_script = *script;
  }

  std::vector<CompileOutcome> outcomes(targets.size());
  std::vector<CompileTargetSummary> summaries(targets.size());
  std::atomic<std::size_t> next{0}, done{0};
  auto worker = [&] {
    for (std::size_t i = next++; i < targets.size(); i = next++) {
      if (settings.cancel && settings.cancel->load()) break;  // cancelled: start nothing more
      auto started = Clock::now();
      const CompileTarget& t = targets[i];
      CompileTargetSummary& s = summaries[i];
      s.name = t.name;
      std::string key = compileCacheKey(t, platform, settings, options.analysis);
      s.cache_key = key;
      // One compile of a program per platform at a time across processes: the driver clears the
      // program's output folder first, and a second port-check waiting here then replays the cache.
      fs::path work = compileWorkDir(settings, t, platform);
      FileLock lock(work.parent_path() / (work.filename().string() + ".lock"));
      std::optional<CompileOutcome> cached = options.use_cache ? loadReplayableCompile(t, settings, key)
                                                               : std::nullopt;
      if (cached) {
        outcomes[i] = std::move(*cached);
        s.cached = true;
      } else {
        bool cacheable = false;
        outcomes[i] = compileOnce(t, platform, settings, options.analysis, cacheable);
        std::string error;
        if (cacheable && !storeCachedCompile(settings.cache_root, settings.workspace_root, key, outcomes[i], error))
          outcomes[i].diagnostics.push_back(makeDiagnostic(
              "COMP909", "", 0, 0, t.name + ": the compile result was not cached: " + error,
              "choose a writable --cache-dir"));
      }
      s.status = outcomes[i].status;
      s.ptoas = outcomes[i].ptoas;
      s.seconds = std::chrono::duration<double>(Clock::now() - started).count();
      s.chained_run = std::move(outcomes[i].chained_run);
      if (s.chained_run) s.seconds = std::max(0.0, s.seconds - s.chained_run->seconds);
      std::error_code ec;
      if (s.status == "ok" && s.ptoas == "ran" && fs::is_regular_file(work / "out" / "compiled_meta.json", ec))
        s.out_dir = work / "out";
      if (settings.progress)
        settings.progress("compiled " + t.name + (s.cached ? " (replayed from the cache)" : "") + ", " +
                          std::to_string(++done) + " of " + std::to_string(targets.size()));
    }
  };
  std::size_t jobs = options.jobs > 0 ? static_cast<std::size_t>(options.jobs)
                                      : std::max(1u, std::thread::hardware_concurrency());
  jobs = std::min(jobs, targets.size());
  if (jobs <= 1) {
    worker();
  } else {
    std::vector<std::thread> pool;
    for (std::size_t i = 0; i < jobs; ++i) pool.emplace_back(worker);
    for (auto& th : pool) th.join();
  }

  std::size_t cached = 0, ok = 0, ptoas_ran = 0, ptoas_skipped = 0;
  for (std::size_t i = 0; i < targets.size(); ++i) {
    CompileOutcome& o = outcomes[i];
    for (Diagnostic& d : o.diagnostics) result.diagnostics.push_back(std::move(d));
    for (SramRow& r : o.sram) result.sram.push_back(std::move(r));
    cached += summaries[i].cached;
    ok += o.status == "ok";
    ptoas_ran += o.ptoas == "ran";
    ptoas_skipped += o.ptoas == "skipped";
  }
  addPtoasVersionNotes(result.diagnostics, settings.toolchain, settings.environment);
  result.targets = std::move(summaries);
  std::string levels = ptoas_ran && !ptoas_skipped   ? "passes+ptoas"
                       : ptoas_skipped && !ptoas_ran ? "passes (ptoas not found: kernels stop at .pto)"
                       : ptoas_ran                   ? "passes, ptoas for some"
                                                     : "passes";
  result.detail = plural(targets.size(), "program") + " on " + std::string(toString(platform)) + ": " +
                  std::to_string(ok) + " compiled, " + std::to_string(targets.size() - ok) + " failed" +
                  (cached ? ", " + std::to_string(cached) + " replayed from cache" : "") + "; levels: " + levels +
                  (settings.chained_run ? "; each fresh compile ran on the simulator in its own process (run stage)"
                                        : "; simulator not run");
  return result;
}

}  // namespace portcheck
