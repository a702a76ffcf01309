#include "lint/lint_engine.h"

#include <atomic>
#include <mutex>
#include <thread>

#include "dsl/dsl_model.h"
#include "dsl/library_imports.h"
#include "dsl/local_imports.h"
#include "lint/lint_cache.h"
#include "lint/proj/project_check.h"
#include "lint/sram_lint.h"
#include "rules/catalogue.h"

namespace portcheck {

namespace fs = std::filesystem;

void parallelFor(std::size_t count, int jobs, const std::function<void(std::size_t)>& task) {
  std::size_t workers = jobs > 0 ? static_cast<std::size_t>(jobs) : std::max(1u, std::thread::hardware_concurrency());
  workers = std::min(workers, count);
  if (workers <= 1) {
    for (std::size_t i = 0; i < count; ++i) task(i);
    return;
  }
  std::atomic<std::size_t> next{0};
  std::vector<std::thread> pool;
  for (std::size_t w = 0; w < workers; ++w)
    pool.emplace_back([&] {
      for (std::size_t i; (i = next.fetch_add(1)) < count;) task(i);
    });
  for (std::thread& t : pool) t.join();
}

namespace {

// One unit of work: a project (layout checks + its sources) or a loose file.
struct Unit {
  const Project* project = nullptr;
  std::vector<fs::path> sources;
};

// Lints sources that are already read: each kernel file alone, the Python files together.
void lintSourcesAfresh(const Project* project, std::vector<SourceFile> sources, const LintSettings& settings,
                       LintOutcome& out, const std::vector<std::string>& context) {
  PythonUnit py;
  py.project = project ? project->name : "";
  py.context = context;
  for (SourceFile& f : sources) {
    if (isPythonSource(fs::path(f.path))) py.files.push_back(std::move(f));
    else {
      auto ds = lintKernelFile(f, settings);
      out.diagnostics.insert(out.diagnostics.end(), ds.begin(), ds.end());
    }
  }
  if (!py.files.empty()) {
    // One model per unit, shared by the DSL rules and the estimator stage (SRAM estimate MEM0xx and
    // fusion / tiling advice FUSE); suppression comments then apply to both.
    dsl::ProgramModel model = dsl::buildProgramModel(py.files);
    std::vector<Diagnostic> ds;
    lintPythonModel(py, model, settings, ds);
    auto es = estimatePythonModel(py, model, settings, out.sram);
    ds.insert(ds.end(), es.begin(), es.end());
    applyPythonSuppressions(py, ds);
    out.diagnostics.insert(out.diagnostics.end(), ds.begin(), ds.end());
  }
}

// lintSourcesAfresh, or its earlier result from the lint cache when nothing it depends on changed.
void lintSources(const Project* project, std::vector<SourceFile> sources, const LintSettings& settings,
                 LintOutcome& out, const std::vector<std::string>& context = {}) {
  if (!settings.cache_dir) return lintSourcesAfresh(project, std::move(sources), settings, out, context);
  const std::string name = project ? project->name : "";
  const std::string key = lintCacheKey(name, sources, settings);
  const std::string slot = lintCacheSlot(name, sources, settings);
  std::optional<LintCacheEntry> entry = loadLintCache(*settings.cache_dir, slot, key);
  if (!entry) {
    LintOutcome fresh;
    lintSourcesAfresh(project, std::move(sources), settings, fresh, context);
    entry = LintCacheEntry{std::move(fresh.diagnostics), std::move(fresh.sram)};
    storeLintCache(*settings.cache_dir, slot, key, *entry);
  }
  out.diagnostics.insert(out.diagnostics.end(), entry->diagnostics.begin(), entry->diagnostics.end());
  out.sram.insert(out.sram.end(), entry->sram.begin(), entry->sram.end());
}

// The modules the Python files of `sources` import from disk (dsl/local_imports.h), read like them.
std::vector<SourceFile> localImportsOf(const Workspace& ws, const std::vector<SourceFile>& sources) {
  std::vector<dsl::LocalFile> entries;
  for (const SourceFile& f : sources) {
    fs::path p(f.path);
    if (p.is_relative()) p = ws.root / p;
    if (isPythonSource(p)) entries.push_back({p.lexically_normal(), f});
  }
  std::vector<SourceFile> out;
  if (entries.empty()) return out;
  auto read = [&](const fs::path& p) -> std::optional<SourceFile> {
    std::string rel = ws.relative(p);
    ReadResult r = readSourceFile(p, rel);
    return r.file ? std::optional<SourceFile>(std::move(*r.file)) : std::nullopt;
  };
  for (dsl::LocalFile& f : dsl::importedLocalFiles(entries, read)) out.push_back(std::move(f.source));
  return out;
}

void lintUnit(const Workspace& ws, const Unit& unit, const LintSettings& settings, LintOutcome& out) {
  if (unit.project)
    for (const auto& check : projectChecks()) check->check(ws, *unit.project, out.diagnostics);
  std::vector<SourceFile> sources;
  for (const fs::path& p : unit.sources) {
    std::string rel = ws.relative(p);
    if (settings.config->excluded(rel)) continue;
    ReadResult r = readSourceFile(p, rel);
    out.files.push_back(rel);
    if (!r.file) {
      out.diagnostics.push_back(makeDiagnostic("TOOL002", rel, 0, 0, "cannot check " + rel + ": " + r.detail));
      continue;
    }
    sources.push_back(std::move(*r.file));
  }
  // A port's blocks imported from pypto-lib/ (through sys.path): in its unit, so the calls resolve and
  // the estimator covers their kernels (dsl/library_imports.h).
  if (unit.project)
    for (SourceFile& f : dsl::importedLibraryFiles(ws.root, sources)) sources.push_back(std::move(f));
  // A loose program file: the modules it imports from disk join its model as context.
  std::vector<std::string> context;
  if (!unit.project)
    for (SourceFile& f : localImportsOf(ws, sources)) {
      context.push_back(f.path);
      sources.push_back(std::move(f));
    }
  lintSources(unit.project, std::move(sources), settings, out, context);
}

void lintMemoryUnit(const Workspace& ws, const MemoryUnit& unit, const LintSettings& settings, LintOutcome& out) {
  const Project* project = unit.project ? &*unit.project : nullptr;
  if (project)
    for (const auto& check : projectChecks()) check->check(ws, *project, out.diagnostics);
  std::vector<SourceFile> sources;
  for (const SourceFile& f : unit.sources) {
    if (settings.config->excluded(f.path)) continue;
    out.files.push_back(f.path);
    sources.push_back(f);
  }
  if (project) sources.insert(sources.end(), unit.library.begin(), unit.library.end());
  lintSources(project, std::move(sources), settings, out);
}

// Merges per-unit outcomes in unit order and applies the configuration.
LintOutcome mergeOutcomes(std::vector<Diagnostic> first, std::vector<LintOutcome>& results, const Config& config) {
  LintOutcome all;
  all.diagnostics = std::move(first);
  for (LintOutcome& r : results) {
    all.diagnostics.insert(all.diagnostics.end(), r.diagnostics.begin(), r.diagnostics.end());
    all.files.insert(all.files.end(), r.files.begin(), r.files.end());
    all.sram.insert(all.sram.end(), r.sram.begin(), r.sram.end());
  }
  config.apply(all.diagnostics);
  return all;
}

}  // namespace

LintOutcome lintTargets(const Workspace& ws, const Targets& targets, const LintSettings& settings, int jobs) {
  std::vector<Unit> units;
  for (const Project& p : targets.projects) units.push_back(Unit{&p, p.sources});
  for (const fs::path& f : targets.files) units.push_back(Unit{nullptr, {f}});
  std::vector<LintOutcome> results(units.size());
  parallelFor(units.size(), jobs, [&](std::size_t i) { lintUnit(ws, units[i], settings, results[i]); });
  return mergeOutcomes(targets.problems, results, *settings.config);
}

LintOutcome lintMemoryUnits(const Workspace& ws, const std::vector<MemoryUnit>& units, const LintSettings& settings,
                            int jobs) {
  std::vector<LintOutcome> results(units.size());
  parallelFor(units.size(), jobs, [&](std::size_t i) { lintMemoryUnit(ws, units[i], settings, results[i]); });
  return mergeOutcomes({}, results, *settings.config);
}

}  // namespace portcheck
