#pragma once
// Runs every linter over the targets of a run, in parallel across units.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/diagnostic.h"
#include "core/report.h"
#include "lint/linters.h"
#include "workspace/workspace.h"

namespace portcheck {

struct LintOutcome {
  std::vector<Diagnostic> diagnostics;
  std::vector<std::string> files;  // every source read, workspace-relative
  std::vector<SramRow> sram;        // SRAM estimate rows of the Python units (sram/sram_estimator.h)
};

// jobs <= 0: one worker per hardware thread.
// The modules the Python files of `sources` import from disk (dsl/local_imports.h), read like them: a
// loose program file's context.
std::vector<SourceFile> localImportsOf(const Workspace& ws, const std::vector<SourceFile>& sources);
// The modules `sources` import from disk that are not among them (localImportsOf, without the files the
// unit already holds): the context a project or a loose file brings from outside itself.
std::vector<SourceFile> outsideImportsOf(const Workspace& ws, const std::vector<SourceFile>& sources);

LintOutcome lintTargets(const Workspace& ws, const Targets& targets, const LintSettings& settings, int jobs);

// A unit whose sources are already in memory (staged blobs, a commit's files), linted exactly like a
// unit read from disk but without touching it. With a project, PROJ checks see project->tree.
struct MemoryUnit {
  std::optional<Project> project;
  std::vector<SourceFile> sources;  // paths workspace-relative
  std::vector<SourceFile> library;  // the pypto-lib/ blocks a project imports (dsl/library_imports.h)
  // The modules a loose program file imports (dsl/local_imports.h), as the same tree holds them: part
  // of its model, their findings left to their own lint.
  std::vector<SourceFile> context;
};
LintOutcome lintMemoryUnits(const Workspace& ws, const std::vector<MemoryUnit>& units, const LintSettings& settings,
                            int jobs);

// Runs `task(i)` for i in [0, count) on up to `jobs` threads.
void parallelFor(std::size_t count, int jobs, const std::function<void(std::size_t)>& task);

}  // namespace portcheck
