#pragma once
// The lint stage as the commands use it (lint, check, verify).
#include "app/commands.h"

namespace portcheck {

// Lints the targets into `report` (the "lint" stage), with the lint cache unless --no-cache.
void lintInto(Report& report, const Session& session, const CommonOptions& options, const Targets& targets,
              const CacheOptions& cache);

}  // namespace portcheck
