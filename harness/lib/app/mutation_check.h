#pragma once
// verify --mutants N: the contract's mutation check (GOLD024, docs/contract.md §5). For each port whose
// contract passed, up to N mutants (one output store dropped or one operation changed) are run through
// the same contract on the first platform; a mutant that passes is GOLD024 on the line it changed.
#include <cstddef>

#include "app/commands.h"

namespace portcheck {

void mutationCheckInto(Report& report, const Session& session, const CommonOptions& options,
                       const CompileOptions& compile, const Targets& targets, const Io& io, std::size_t limit);

}  // namespace portcheck
