#include "lint/lint_engine.h"

#include <atomic>
#include <mutex>
#include <thread>

#include "lint/proj/project_check.h"
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

void lintUnit(const Workspace& ws, const Unit& unit, const LintSettings& settings, LintOutcome& out) {
  if (unit.project)
    for (const auto& check : projectChecks()) check->check(ws, *unit.project, out.diagnostics);
  PythonUnit py;
  py.project = unit.project ? unit.project->name : "";
  for (const fs::path& p : unit.sources) {
    std::string rel = ws.relative(p);
    if (settings.config->excluded(rel)) continue;
    ReadResult r = readSourceFile(p, rel);
    out.files.push_back(rel);
    if (!r.file) {
      out.diagnostics.push_back(makeDiagnostic("TOOL002", rel, 0, 0, "cannot check " + rel + ": " + r.detail));
      continue;
    }
    if (isPythonSource(p)) py.files.push_back(std::move(*r.file));
    else {
      auto ds = lintKernelFile(*r.file, settings);
      out.diagnostics.insert(out.diagnostics.end(), ds.begin(), ds.end());
    }
  }
  if (!py.files.empty()) {
    auto ds = lintPythonUnit(py, settings);
    out.diagnostics.insert(out.diagnostics.end(), ds.begin(), ds.end());
  }
}

}  // namespace

LintOutcome lintTargets(const Workspace& ws, const Targets& targets, const LintSettings& settings, int jobs) {
  std::vector<Unit> units;
  for (const Project& p : targets.projects) units.push_back(Unit{&p, p.sources});
  for (const fs::path& f : targets.files) units.push_back(Unit{nullptr, {f}});
  std::vector<LintOutcome> results(units.size());
  parallelFor(units.size(), jobs, [&](std::size_t i) { lintUnit(ws, units[i], settings, results[i]); });
  LintOutcome all;
  all.diagnostics = targets.problems;
  for (LintOutcome& r : results) {
    all.diagnostics.insert(all.diagnostics.end(), r.diagnostics.begin(), r.diagnostics.end());
    all.files.insert(all.files.end(), r.files.begin(), r.files.end());
  }
  settings.config->apply(all.diagnostics);
  return all;
}

}  // namespace portcheck
