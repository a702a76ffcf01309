#pragma once
// Inline suppression in C++ kernels: `// port-check: ignore[AUTO001]` or `ignore[AUTO001, ISA005]` silences
// those rules on the comment's own line and on the line below it.
#include <vector>

#include "core/diagnostic.h"
#include "core/source_file.h"

namespace portcheck {

void dropSuppressed(const SourceFile& file, std::vector<Diagnostic>& diagnostics);

}  // namespace portcheck
