#pragma once
// Inline suppression comments (lint/suppression.h) for the findings of the stages after lint: the
// estimator, the compiler, the kernel compile and the simulator run. `# port-check: ignore[PERF001]`
// on a finding's line or the line above silences it whichever stage reported it, also when the
// finding is replayed from a cache. A finding located in a generated file is silenced by a comment at
// any of its notes' lines in the user's source.
#include <filesystem>
#include <vector>

#include "core/diagnostic.h"

namespace portcheck {

// Removes the silenced findings of every stage but lint (which applies the comments itself) and
// port-check's own (tool, ledger), reading each source they point at once. Paths are workspace-relative
// or absolute.
void applyInlineSuppressions(std::vector<Diagnostic>& diagnostics, const std::filesystem::path& workspace_root);

}  // namespace portcheck
