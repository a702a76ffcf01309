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

// What one command's run shares among the attempts it records.
struct RunContext {
  std::string command;    // check, check --run, compile, run, new
  std::string time;       // utcNow()
  std::string toolchain;  // toolchainIdentity() of the session
  std::string toolchain_text;
  // The other projects the run checked, workspace-relative: their folders and the pypto-lib files
  // they import. A finding there is theirs; a finding anywhere else (a generated file under the
  // compile cache, a file no project claims) counts for every project of the run.
  std::vector<std::string> other_projects;
  std::vector<std::string> other_files;
};

// Everything but the number, the changes and the exit status, which the recorder fills in: the
// project's findings (in its folder or in the pypto-lib files it imports, those tied to no file, and
// those no other project of the run claims; loop findings excluded) with their functions, its SRAM
// rows, its golden run and the stages.
Attempt attemptFromReport(const Report& report, const Workspace& ws, const Project& project,
                          const ProjectSources& sources, const std::vector<CodeSpan>& spans, const RunContext& run);

// The current UTC time as 2026-11-25T09:30:00Z.
std::string utcNow();

}  // namespace portcheck::ledger
