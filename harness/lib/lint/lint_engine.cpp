#include "lint/lint_engine.h"

#include <algorithm>
#include <atomic>
#include <functional>
#include <iterator>
#include <map>
#include <mutex>
#include <set>
#include <thread>

#include "dsl/dsl_model.h"
#include "dsl/library_imports.h"
#include "dsl/local_imports.h"
#include "lint/lint_cache.h"
#include "lint/proj/golden_source.h"
#include "lint/proj/project_check.h"
#include "lint/sram_lint.h"
#include "parse/parse_cache.h"
#include "parse/tree_arena.h"
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

// The checks of a project's sources (golden.py, its CONTRACT and tolerances) over the unit's model.
void checkProjectSources(const Project& project, const std::string& source_dir, const std::vector<SourceFile>& files,
                         const dsl::ProgramModel& model, std::vector<Diagnostic>& out) {
  ProjectSourceContext ctx{project.name, source_dir, files, model};
  std::optional<proj::GoldenSource> golden;
  if (const SourceFile* g = ctx.file("golden.py")) golden.emplace(*g);
  ctx.golden = golden ? &*golden : nullptr;
  for (const auto& check : projectChecks()) check->checkSources(ctx, out);
}

// The same checks on each pypto-lib block file among loose sources: its golden section is the block's
// golden.py (docs/contract.md §8).
void checkBlockSources(const std::vector<SourceFile>& files, const dsl::ProgramModel& model,
                       std::vector<Diagnostic>& out) {
  for (const SourceFile& f : files) {
    const std::string name = blockNameOf(f.path);
    if (name.empty()) continue;
    ProjectSourceContext ctx{name, fs::path(f.path).parent_path().generic_string(), files, model};
    proj::GoldenSource golden(f);
    ctx.golden = &golden;
    ctx.block = true;
    for (const auto& check : projectChecks()) check->checkSources(ctx, out);
  }
}

// Lints sources that are already read: each kernel file alone, the Python files together. `source_dir`:
// the project's pypto_src/, workspace-relative (empty without a project).
void lintSourcesAfresh(const Project* project, const std::string& source_dir, std::vector<SourceFile> sources,
                       const LintSettings& settings, LintOutcome& out, const std::vector<std::string>& context) {
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
    if (project) checkProjectSources(*project, source_dir, py.files, model, ds);
    else checkBlockSources(py.files, model, ds);
    auto es = estimatePythonModel(py, model, settings, out.sram);
    ds.insert(ds.end(), es.begin(), es.end());
    applyPythonSuppressions(py, ds);
    out.diagnostics.insert(out.diagnostics.end(), ds.begin(), ds.end());
  }
}

// lintSourcesAfresh, or its earlier result from the lint cache when nothing it depends on changed.
void lintSources(const Project* project, const std::string& source_dir, std::vector<SourceFile> sources,
                 const LintSettings& settings, LintOutcome& out, const std::vector<std::string>& context = {}) {
  if (!settings.cache_dir) return lintSourcesAfresh(project, source_dir, std::move(sources), settings, out, context);
  const std::string name = project ? project->name : "";
  const std::string key = lintCacheKey(name, sources, settings);
  const std::string slot = lintCacheSlot(name, sources, settings);
  std::optional<LintCacheEntry> entry = loadLintCache(*settings.cache_dir, slot, key);
  if (!entry) {
    LintOutcome fresh;
    lintSourcesAfresh(project, source_dir, std::move(sources), settings, fresh, context);
    entry = LintCacheEntry{std::move(fresh.diagnostics), std::move(fresh.sram)};
    storeLintCache(*settings.cache_dir, slot, key, *entry);
  }
  out.diagnostics.insert(out.diagnostics.end(), entry->diagnostics.begin(), entry->diagnostics.end());
  out.sram.insert(out.sram.end(), entry->sram.begin(), entry->sram.end());
}

// Reads a file found on disk as the workspace names it (workspace-relative when under its root).
dsl::LocalReader workspaceReader(const Workspace& ws) {
  return [&ws](const fs::path& p) -> std::optional<SourceFile> {
    ReadResult r = readSourceFile(p, ws.relative(p));
    return r.file ? std::optional<SourceFile>(std::move(*r.file)) : std::nullopt;
  };
}

}  // namespace

std::vector<SourceFile> localImportsOf(const Workspace& ws, const std::vector<SourceFile>& sources) {
  std::vector<dsl::LocalFile> entries;
  for (const SourceFile& f : sources) {
    fs::path p(f.path);
    if (p.is_relative()) p = ws.root / p;
    if (isPythonSource(p)) entries.push_back({p.lexically_normal(), f});
  }
  std::vector<SourceFile> out;
  if (entries.empty()) return out;
  for (dsl::LocalFile& f : dsl::importedLocalFiles(entries, workspaceReader(ws))) out.push_back(std::move(f.source));
  return out;
}

std::vector<SourceFile> outsideImportsOf(const Workspace& ws, const std::vector<SourceFile>& sources) {
  std::set<std::string> have;
  for (const SourceFile& s : sources) have.insert(s.path);
  std::vector<SourceFile> out;
  for (SourceFile& f : localImportsOf(ws, sources))
    if (have.insert(f.path).second) out.push_back(std::move(f));
  return out;
}

namespace {

void lintUnit(const Workspace& ws, const Unit& unit, const LintSettings& settings, LintOutcome& out) {
  TreeArena trees;  // every tree of the unit dies with it
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
  if (unit.project) {
    for (SourceFile& f : dsl::importedLibraryFiles(ws.root, sources)) sources.push_back(std::move(f));
    for (const auto& check : projectChecks()) check->check(ws, *unit.project, sources, out.diagnostics);
  }
  // The modules the unit imports from disk outside its own files (a loose program file's, a stack
  // project's layer incore.py through sys.path) join its model as context.
  std::vector<std::string> context;
  for (SourceFile& f : outsideImportsOf(ws, sources)) {
    context.push_back(f.path);
    sources.push_back(std::move(f));
  }
  lintSources(unit.project, unit.project ? ws.relative(unit.project->pypto_src) : std::string(), std::move(sources),
              settings, out, context);
}

void lintMemoryUnit(const Workspace& ws, const MemoryUnit& unit, const LintSettings& settings, LintOutcome& out) {
  const Project* project = unit.project ? &*unit.project : nullptr;
  std::vector<SourceFile> sources;
  for (const SourceFile& f : unit.sources) {
    if (settings.config->excluded(f.path)) continue;
    out.files.push_back(f.path);
    sources.push_back(f);
  }
  if (project) {
    sources.insert(sources.end(), unit.library.begin(), unit.library.end());
    for (const auto& check : projectChecks()) check->check(ws, *project, sources, out.diagnostics);
  }
  std::vector<std::string> context;
  for (const SourceFile& f : unit.context) {
    context.push_back(f.path);
    sources.push_back(f);
  }
  lintSources(project, project ? ws.relative(project->pypto_src) : std::string(), std::move(sources), settings, out,
              context);
}

// Merges per-unit outcomes in unit order, moving them out of `results`, and applies the configuration.
LintOutcome mergeOutcomes(std::vector<Diagnostic> first, std::vector<LintOutcome>& results, const Config& config) {
  LintOutcome all;
  all.diagnostics = std::move(first);
  for (LintOutcome& r : results) {
    all.diagnostics.insert(all.diagnostics.end(), std::make_move_iterator(r.diagnostics.begin()),
                           std::make_move_iterator(r.diagnostics.end()));
    all.files.insert(all.files.end(), std::make_move_iterator(r.files.begin()), std::make_move_iterator(r.files.end()));
    all.sram.insert(all.sram.end(), std::make_move_iterator(r.sram.begin()), std::make_move_iterator(r.sram.end()));
  }
  config.apply(all.diagnostics);
  return all;
}

}  // namespace

// Loose Python files that import one another or share a module they import (a model folder's files and
// its config.py) form one unit, so each module is parsed and modelled once; other files stay alone.
// Direct imports are enough to connect them: the unit then brings in the whole closure as context.
std::vector<std::vector<fs::path>> looseUnits(const Workspace& ws, const std::vector<fs::path>& files, int jobs) {
  std::map<fs::path, fs::path> parent;
  std::function<fs::path(const fs::path&)> find = [&](const fs::path& p) -> fs::path {
    auto it = parent.find(p);
    if (it == parent.end() || it->second == p) return p;
    return it->second = find(it->second);
  };
  auto unite = [&](const fs::path& a, const fs::path& b) {
    fs::path ra = find(a), rb = find(b);
    if (ra != rb) parent[ra] = rb;
  };
  std::vector<fs::path> normal;
  for (const fs::path& f : files) normal.push_back((f.is_relative() ? ws.root / f : f).lexically_normal());
  // The modules each file imports itself, found in parallel (only their paths: they are not read here).
  std::vector<std::vector<fs::path>> imports(files.size());
  const dsl::LocalReader path_only = [](const fs::path& p) -> std::optional<SourceFile> {
    SourceFile f;
    f.path = p.string();
    return f;
  };
  parallelFor(files.size(), jobs, [&](std::size_t i) {
    const fs::path& p = normal[i];
    if (!isPythonSource(p)) return;
    std::optional<SourceFile> source = workspaceReader(ws)(p);
    if (!source) return;
    for (const dsl::LocalFile& m :
         dsl::importedLocalFiles({dsl::LocalFile{p, std::move(*source)}}, path_only, dsl::kMaxLocalImports, false))
      imports[i].push_back(m.path);
  });
  for (std::size_t i = 0; i < files.size(); ++i) {
    parent.try_emplace(normal[i], normal[i]);
    for (const fs::path& m : imports[i]) {
      parent.try_emplace(m, m);
      unite(normal[i], m);
    }
  }
  std::vector<std::vector<fs::path>> units;
  std::map<fs::path, std::size_t> unit_of;
  for (std::size_t i = 0; i < files.size(); ++i) {
    if (!isPythonSource(normal[i])) {
      units.push_back({files[i]});
      continue;
    }
    auto [it, fresh] = unit_of.try_emplace(find(normal[i]), units.size());
    if (fresh) units.emplace_back();
    units[it->second].push_back(files[i]);
  }
  return units;
}

LintOutcome lintTargets(const Workspace& ws, const Targets& targets, const LintSettings& settings, int jobs) {
  RunCacheScope run;  // units share parse trees within this run
  std::vector<Unit> units;
  for (const Project& p : targets.projects) units.push_back(Unit{&p, p.sources});
  for (std::vector<fs::path>& group : looseUnits(ws, targets.files, jobs)) units.push_back(Unit{nullptr, std::move(group)});
  std::vector<LintOutcome> results(units.size());
  // Largest units first, so a big model folder does not start last and hold up the run alone;
  // results stay in unit order.
  std::vector<std::size_t> order(units.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return units[a].sources.size() > units[b].sources.size(); });
  parallelFor(units.size(), jobs, [&](std::size_t i) { lintUnit(ws, units[order[i]], settings, results[order[i]]); });
  return mergeOutcomes(targets.problems, results, *settings.config);
}

LintOutcome lintMemoryUnits(const Workspace& ws, const std::vector<MemoryUnit>& units, const LintSettings& settings,
                            int jobs) {
  std::vector<LintOutcome> results(units.size());
  parallelFor(units.size(), jobs, [&](std::size_t i) { lintMemoryUnit(ws, units[i], settings, results[i]); });
  return mergeOutcomes({}, results, *settings.config);
}

}  // namespace portcheck
