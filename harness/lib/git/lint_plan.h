#pragma once
// Turns a change set into lint units read from git blobs: every project a change touches (its whole
// pypto_src as committed, so cross-file and layout rules see the real tree) and every loose file.
#include <set>
#include <string>
#include <vector>

#include "core/diagnostic.h"
#include "git/change_set.h"
#include "lint/lint_engine.h"
#include "workspace/workspace.h"

namespace portcheck::git {

struct LintPlan {
  std::vector<MemoryUnit> units;
  std::set<std::string> changed;       // changed paths (not deleted) that match the patterns
  std::set<std::string> unit_files;    // every file of every unit's tree (pypto_src entries, loose files)
  std::vector<Diagnostic> problems;    // TOOL002: a changed source whose blob is binary or too large
  std::vector<std::string> skipped;    // "path: why" for changed entries that are not checked
  bool empty() const { return units.empty() && problems.empty(); }
};

struct PlanOptions {
  std::vector<std::string> patterns;  // hook.paths
  std::vector<std::string> only;      // repository-relative path prefixes to restrict to; empty = all
};

// Reads the blobs a change set needs. `ws.root` is the work tree root (paths stay repository-relative).
LintPlan planLint(const Repository& repo, const Workspace& ws, const ChangeSet& changes, const PlanOptions& options);

// The findings a change is answerable for: those in changed files, and project-level ones (a file
// that is not one of the units' files, e.g. PROJ001 on pypto_src/). Findings in unchanged sibling
// files were there before this change and do not block it.
std::vector<Diagnostic> findingsOfChange(std::vector<Diagnostic> diagnostics, const LintPlan& plan);

}  // namespace portcheck::git
