#pragma once
// The run stage as the commands use it (port-check run and check --run): compile (with the compile
// cache), then run every compiled program on the simulator and compare it with its golden.
#include "app/commands.h"

namespace portcheck {

// Compiles the targets' projects and program files into `report` (the "compile" stage, as
// compileInto does) and runs the ones that compiled (the "run" stage): GOLD findings and the
// report's golden entries. Without a toolchain: COMP909 (an error) when `required`, else TOOL003.
void runInto(Report& report, const Session& session, const CommonOptions& options, const CompileOptions& compile,
             const Targets& targets, const Io& io, bool required);

}  // namespace portcheck
