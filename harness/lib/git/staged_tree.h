#pragma once
// The staged files of the projects and program files a change touches (with the staged pypto-lib/
// they may import), written at their repository paths into
// content-addressed folders under the compile cache, so the compile stage compiles exactly what is
// being committed (never the working files). Same staged content -> same folder -> the compile
// cache replays the last result.
#include <filesystem>
#include <string>
#include <vector>

#include "compiler/compile_driver.h"
#include "core/diagnostic.h"
#include "git/change_set.h"
#include "git/lint_plan.h"

namespace portcheck::git {

struct StagedTargets {
  std::vector<CompileTarget> targets;  // source roots under <cache_root>/staged/, displayed as the repo paths
  std::vector<Diagnostic> problems;    // TOOL002: a staged tree that could not be written
  std::vector<std::string> skipped;    // "path: why" for staged entries left out of the copy
};

// Every project in `plan` (its whole staged pypto_src) and every loose changed .py program file
// (with the staged files beside it) becomes a compile target. Throws GitError when a blob cannot be read.
StagedTargets materializeStagedTargets(const Repository& repo, const ChangeSet& changes, const LintPlan& plan,
                                       const std::filesystem::path& cache_root);

// Keeps the `keep` most recently used staged trees under <cache_root>/staged/, removes the rest.
void pruneStagedTrees(const std::filesystem::path& cache_root, std::size_t keep);

}  // namespace portcheck::git
