#pragma once
// The attempt record of one project, read off the complete report of a check, compile or run.
#include <string>
#include <vector>

#include "core/report.h"
#include "ledger/attempt.h"
#include "ledger/code_spans.h"
#include "ledger/project_sources.h"
#include "workspace/workspace.h"

namespace portcheck::ledger {

// Everything but the number, the changes and the exit status, which the recorder fills in: the
// project's findings (in its folder or in the pypto-lib files it imports, and those tied to no file;
// loop findings excluded) with their functions, its SRAM rows, its golden run and the stages.
Attempt attemptFromReport(const Report& report, const Workspace& ws, const Project& project,
                          const ProjectSources& sources, const std::vector<CodeSpan>& spans, const std::string& command,
                          const std::string& time);

// The current UTC time as 2026-11-25T09:30:00Z.
std::string utcNow();

}  // namespace portcheck::ledger
