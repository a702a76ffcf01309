#pragma once
// The attempt ledger as check, compile and run use it (docs/ledger.md).
#include <string>

#include "app/options.h"

namespace portcheck {

// Records one attempt per project of `targets` (those with a pypto_src/) in its ledger, after the
// report is complete: adds the loop rules' findings (LOOP) and ledger problems (TOOL007) to the report
// and stores the exit status the command returns with them. `command` is what ran ("check --run").
void recordAttempts(Report& report, const Session& session, const Targets& targets, const std::string& command);

// completeReport, recordAttempts unless `no_ledger`, emitCompleted.
int recordEmitAndExit(Report& report, const Session& session, const CommonOptions& options, const Io& io,
                      const Targets& targets, const std::string& command, bool no_ledger);

}  // namespace portcheck
